import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

/// The real NYT fixtures, read from ../shared (the product never ships them). A missing one is a
/// thrown error that says where it was looked for, so it fails the tests that need it, not the run.
enum Fixtures {
    static let directory = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/nyt")

    static func data(_ name: String) throws -> Data {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw TestSetupError(description: "NYT fixture \(name) not found at \(url.path): the tests read ../shared/fixtures/nyt beside the repository")
        }
        return try Data(contentsOf: url)
    }

    static func json(_ name: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data(name)) as? [String: Any] else {
            throw TestSetupError(description: "NYT fixture \(name) is not a JSON object")
        }
        return object
    }

    static func encode(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }
}

/// A stand-in for the NYT Books API on a loopback port, serving the fixtures through real HTTP
/// so the libcurl client is exercised end to end, and misbehaving on demand.
final class FakeNYTServer: Sendable {
    enum Fault: Sendable, Equatable {
        case status(Int, fixture: String?)
        case malformedJSON
        /// The real names fixture with a publication date that is no day, carrying markup.
        case impossibleDate
        case notJSON
        case oversized(bytes: Int)
        /// Sends a few bytes, then never finishes.
        case neverFinishes
    }

    struct LoggedRequest: Sendable, Equatable {
        let path: String
        let at: Date
    }

    static let apiKey = "test-key-Zq9"

    private struct State {
        var fault: Fault?
        /// Requests before this one (counted from 1) are answered normally despite `fault`.
        var faultFrom = 1
        /// Dated Hardcover Fiction editions served, newest first (see `serveHistory`).
        var history: [String] = ["2023-03-19"]
        var malformedEditions: Set<String> = []
        /// A dated edition that answers with a fault, whatever the request's number.
        var failingEdition: (date: String, fault: Fault)?
        var log: [LoggedRequest] = []
        var overviewLists: Set<String>?
        var payloads = false
        /// Tests waiting for the count of requests to reach a number.
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    let clock: WallClock

    init(clock: WallClock) {
        self.clock = clock
    }

    var requests: [LoggedRequest] { state.withLock { $0.log } }

    /// Returns once `count` requests in all have arrived, so a test can act while a response is
    /// under way instead of guessing how long to wait.
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let arrived = state.withLock { state in
                if state.log.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if arrived { continuation.resume() }
        }
    }
    func fail(with fault: Fault?) { state.withLock { ($0.fault, $0.faultFrom) = (fault, 1) } }

    /// Fails every request from the `request`th on (counted from 1 since the server started).
    func fail(with fault: Fault, fromRequest request: Int) { state.withLock { ($0.fault, $0.faultFrom) = (fault, request) } }

    /// Serves Hardcover Fiction's editions of these dates (newest first), each naming the next as
    /// its `previous_published_date`; the last names the week before it, which answers 404, as the
    /// API does before its first edition. A date left out of a weekly run is a missing week.
    func serveHistory(_ dates: [String]) { state.withLock { $0.history = dates } }

    /// The edition of `date` answers with `fault` (nil: no edition fails).
    func fail(edition date: String?, with fault: Fault) { state.withLock { $0.failingEdition = date.map { ($0, fault) } } }

    /// The editions of these dates carry a book without a usable ISBN: a book that cannot be kept.
    func serveMalformedBook(on dates: Set<String>) { state.withLock { $0.malformedEditions = dates } }
    /// Serves an overview that omits every list not named here, as the real one omits some.
    func limitOverview(to lists: Set<String>?) { state.withLock { $0.overviewLists = lists } }

    /// Plants HTML and `javascript:` payloads in the first book of every list of the overview.
    func plantPayloads() { state.withLock { $0.payloads = true } }

    static let scriptPayload = "<script>alert('title')</script>"
    static let attributePayload = "\"><img src=x onerror=alert(1)>"

    /// Runs `body` with the base URL of the server, which lives for the duration of the call.
    func run<Value: Sendable>(_ body: @Sendable (String) async throws -> Value) async throws -> Value {
        let router = Router()
        router.get("svc/books/v3/lists/names.json") { request, _ in try self.answer(request) { try Fixtures.data("names-2023-03.json") } }
        router.get("svc/books/v3/lists/full-overview.json") { request, _ in try self.answer(request) { try self.overview() } }
        router.get("svc/books/v3/lists/current/:file") { request, context in
            let file = context.parameters.get("file") ?? ""
            return try self.answer(request) { try self.currentList(String(file.dropLast(".json".count))) }
        }
        // Dated editions: the fixture's Hardcover Fiction, redated along `history`, and nothing else.
        router.get("svc/books/v3/lists/:date/:file") { request, context in
            let (date, file) = (context.parameters.get("date") ?? "", context.parameters.get("file") ?? "")
            let (history, malformed, failing) = self.state.withLock { ($0.history, $0.malformedEditions, $0.failingEdition) }
            guard file == "hardcover-fiction.json", let index = history.firstIndex(of: date) else {
                return try self.answer(request) { throw NotServed() }
            }
            let previous = index + 1 < history.count ? history[index + 1] : EndlessHistorySource.weekBefore(date)
            let fault = failing.flatMap { $0.date == date ? $0.fault : nil }
            return try self.answer(request, fault: fault) { try self.datedEdition(date, previous: previous, malformedBook: malformed.contains(date)) }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.serveAsFake { port in
            try await body("http://127.0.0.1:\(port)/svc/books/v3")
        }
    }

    /// A dated edition the fake does not have: the API's 404.
    struct NotServed: Error {}

    private func answer(_ request: Hummingbird.Request, fault override: Fault? = nil, _ fixture: () throws -> Data) throws -> Response {
        let (fault, satisfied) = state.withLock { state in
            state.log.append(LoggedRequest(path: request.uri.path, at: clock.now()))
            let count = state.log.count
            let satisfied = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return (count >= state.faultFrom ? state.fault : nil, satisfied)
        }
        for waiter in satisfied { waiter.resume() }
        guard request.uri.queryParameters["api-key"] == Self.apiKey[...] else {
            return response(401, try Fixtures.data("errors/401-invalid-key.json"))
        }
        switch override ?? fault {
        case nil:
            do { return response(200, Self.coversOnLoopback(try fixture())) } catch is NotServed { return response(404, Data(#"{"status":"ERROR","errors":["not found"]}"#.utf8)) }
        case .status(let status, let name): return response(status, try name.map(Fixtures.data) ?? Data("{}".utf8))
        case .malformedJSON: return response(200, Data(#"{"status":"OK","results":{"lists":[{"books":"#.utf8))
        case .impossibleDate:
            var names = try Fixtures.json("names-2023-03.json")
            var results = names["results"] as? [[String: Any]] ?? []
            results[0]["newest_published_date"] = "2023-02-30</updated><x>"
            names["results"] = results
            return response(200, try Fixtures.encode(names))
        case .notJSON: return response(200, Data("<html><body>Service Unavailable</body></html>".utf8), type: "text/html")
        case .oversized(let bytes): return response(200, Data(repeating: UInt8(ascii: " "), count: bytes) + Data("{}".utf8))
        case .neverFinishes:
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: #"{"status":"OK","#))
                // A space every tenth of a second for a minute: longer than any client's timeout or
                // any shutdown on a busy machine, yet it ends as soon as the client hangs up (the
                // next write fails), so shutting the fake down does not wait for the minute.
                for _ in 0..<600 {
                    try await Task.sleep(for: .milliseconds(100))
                    try await writer.write(ByteBuffer(string: " "))
                }
                try await writer.finish(nil)
            })
        }
    }

    /// The fixtures' covers are on the NYT's image host, which the server's cover job would
    /// fetch while a test runs: they point at a closed loopback port instead, so nothing a test
    /// does reaches beyond this machine (the cover tests use the fake Open Library's covers).
    static func coversOnLoopback(_ body: Data) -> Data {
        var text = String(decoding: body, as: UTF8.self)
        text = text.replacingOccurrences(of: #"https:\/\/storage.googleapis.com"#, with: #"http:\/\/127.0.0.1:9"#)
        text = text.replacingOccurrences(of: "https://storage.googleapis.com", with: "http://127.0.0.1:9")
        return Data(text.utf8)
    }

    private func response(_ status: Int, _ body: Data, type: String = "application/json") -> Response {
        Response(status: .init(code: status), headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private func overview() throws -> Data {
        let (kept, payloads) = state.withLock { ($0.overviewLists, $0.payloads) }
        var json = try Fixtures.json("full-overview-2023-03-26.json")
        var results = json["results"] as! [String: Any]
        var lists = (results["lists"] as! [[String: Any]]).filter { kept?.contains($0["list_name_encoded"] as! String) ?? true }
        if payloads {
            for index in lists.indices {
                var books = lists[index]["books"] as! [[String: Any]]
                books[0]["title"] = Self.scriptPayload
                books[0]["description"] = Self.attributePayload
                books[0]["book_image"] = "javascript:alert('image')"
                books[0]["amazon_product_url"] = "JaVaScRiPt:alert('amazon')"
                books[0]["book_review_link"] = "javascript:alert('review')"
                books[0]["buy_links"] = [["name": "Evil", "url": "javascript:alert('buy')"], ["name": "Good", "url": "https://example.com/buy"]]
                lists[index]["books"] = books
            }
        }
        results["lists"] = lists
        json["results"] = results
        return try Fixtures.encode(json)
    }

    private func datedEdition(_ date: String, previous: String, malformedBook: Bool) throws -> Data {
        var json = try Fixtures.json("current-hardcover-fiction-2023-03-19.json")
        var results = json["results"] as! [String: Any]
        results["published_date"] = date
        results["previous_published_date"] = previous
        if malformedBook {
            var books = results["books"] as! [[String: Any]]
            books[3]["primary_isbn13"] = ""
            books[3]["primary_isbn10"] = "not an isbn!"
            results["books"] = books
        }
        json["results"] = results
        return try Fixtures.encode(json)
    }

    /// The one real single-list fixture, renamed for whichever list was asked for.
    private func currentList(_ name: String) throws -> Data {
        var json = try Fixtures.json("current-hardcover-fiction-2023-03-19.json")
        var results = json["results"] as! [String: Any]
        results["list_name_encoded"] = name
        results["display_name"] = "List \(name)"
        json["results"] = results
        return try Fixtures.encode(json)
    }
}
