// The API's first 100 wants as JSON, written both ways in one run (issue 54): by Foundation's
// `JSONEncoder` as the API answered until the writer (snake_case keys converted at run time,
// sorted keys, ISO 8601 dates), and by the app's own `JSONWriter` (compiled in from
// Sources/WishlistWeb/API/JSONWriter.swift). `Want` holds the fields of the API's
// `APIController.Want` (its `WantFields` and `added_at`), flat, and writes them in the same order
// to the same bytes (the app's type needs Hummingbird; this is the encoding alone).
//
//     Benchmarks/api-json/run.sh
import Foundation

struct Want: Encodable, JSONWritable {
    let id: Int64
    let bookId: String?
    let title: String
    let author: String
    let isbn13: String
    let note: String
    let priority: String
    let addedAt: Date
    let lists: [Int64]

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("added_at", addedAt)
            json.field("author", author)
            json.fieldIfPresent("book_id", bookId)
            json.field("id", id)
            json.field("isbn13", isbn13)
            json.field("lists", lists)
            json.field("note", note)
            json.field("priority", priority)
            json.field("title", title)
        }
    }
}

struct WantsPage: Encodable, JSONWritable {
    let wants: [Want]
    let total: Int
    let page: Int
    let pages: Int

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("page", page)
            json.field("pages", pages)
            json.field("total", total)
            json.field("wants", wants)
        }
    }
}

let priorities = ["high", "normal", "low"]
let wants: [Want] = (1...100).map { (index: Int) -> Want in
    let isbn = String(9_780_000_000_000 + index)
    let note = index % 3 == 0 ? "For the \"summer\" trip" : ""
    let added = Date(timeIntervalSince1970: 1_796_000_000 + Double(index) * 3600.25)
    return Want(
        id: Int64(1000 + index), bookId: isbn, title: "The Book Number \(index): A Novel", author: "Author \(index) and Brené Brown",
        isbn13: isbn, note: note, priority: priorities[index % 3], addedAt: added, lists: [1, Int64(index % 4 + 1)]
    )
}
let page = WantsPage(wants: wants, total: 200, page: 1, pages: 2)

func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}

let encoded = try encoder().encode(page)
precondition(JSONWriter.bytes(of: page) == Array(encoded), "the writer's bytes differ from the encoder's")

/// The CPU time this process has used, in seconds.
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Microseconds of CPU (user + system) one call of `body` takes, the least of five rounds of `count`.
func microseconds(_ count: Int, _ body: () throws -> Int) rethrows -> Double {
    var best = Double.infinity
    var sink = 0
    for _ in 0..<5 {
        let start = cpuSeconds()
        for _ in 0..<count { sink &+= try body() }
        best = Swift.min(best, (cpuSeconds() - start) * 1e6 / Double(count))
    }
    precondition(sink > 0)
    return best
}

let rounds = 300
let before: Double = try microseconds(rounds) { try encoder().encode(page).count }
let after: Double = microseconds(rounds) { JSONWriter.bytes(of: page).count }
print("100 wants, \(encoded.count) bytes of JSON, µs of CPU a page (least of 5 rounds of \(rounds)):")
print(String(format: "JSONEncoder %.0f µs, JSONWriter %.0f µs: %.1f× less", before, after, before / after))
