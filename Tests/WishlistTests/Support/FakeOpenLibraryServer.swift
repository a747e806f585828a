import CPictureCodec
import CTestPictures
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import WishlistCore

/// A stand-in for Open Library, its API and its covers host at once, on a loopback port: four
/// invented books answered through real HTTP in the shapes Open Library documents, so the app's
/// client, its redirects and the cover job are exercised end to end, and misbehaving on demand.
final class FakeOpenLibraryServer: Sendable {
    enum Fault: Sendable, Equatable {
        /// 404 answers Open Library's `notfound` JSON; any other status, an HTML error page.
        case status(Int)
        case malformedJSON
        /// Sends a few bytes, then never finishes.
        case neverFinishes
        /// A 200 HTML page where JSON or a picture belongs, as a proxy or maintenance page answers.
        case html
        /// A 200 answer of this many bytes without a Content-Length, so only counting stops it.
        case oversized(bytes: Int)
        /// A PNG of a few dozen bytes whose header claims 50,000 × 50,000 pixels.
        case decompressionBomb
        /// Answers as usual, but only once `release()` was called: Open Library slow for exactly
        /// as long as a test needs, with no guess at how long that is.
        case heldUntilReleased
    }

    struct LoggedRequest: Sendable, Equatable {
        let path: String
        /// The query's fields, form-decoded as Open Library decodes them.
        let query: [String: String]
        let userAgent: String?
        let at: Date
    }

    /// How Open Library gives a description: most records as typed text, older ones as a string.
    enum Description: Sendable, Equatable {
        /// `{"type": "/type/text", "value": …}`
        case typedText(String)
        case plain(String)

        var json: Any {
            switch self {
            case .typedText(let value): ["type": "/type/text", "value": value]
            case .plain(let value): value
            }
        }
    }

    /// One invented edition with its work and its single author. Keys are Open Library's, with
    /// their folder (`/books/OL…M`), as its JSON writes them.
    struct Book: Sendable, Equatable {
        let isbn13: String
        let isbn10: String?
        let title: String
        let subtitle: String?
        let author: String
        let authorKey: String
        /// The first publication's year, as search answers it.
        let year: Int
        /// The edition's free-text date.
        let publishDate: String
        let publisher: String
        let coverID: Int
        let workKey: String
        let editionKey: String
        /// The edition's, which its work repeats.
        let description: Description?
        /// False for an edition that names its work only, so the author is found through the work.
        let editionNamesAuthors: Bool
        /// The top band of its cover; the bottom band is `coverBandColour`.
        let coverColour: [UInt8]
    }

    /// ISBN-10 ending in X; description as typed text.
    static let lantern = Book(
        isbn13: "9781558741027", isbn10: "155874102X", title: "A Lantern for Mrs. Pellinore", subtitle: nil,
        author: "Mirela Ostrander", authorKey: "/authors/OL9120001A", year: 2019, publishDate: "March 3, 2019",
        publisher: "Harrowgate Press", coverID: 91_000_001, workKey: "/works/OL9040001W", editionKey: "/books/OL9070001M",
        description: .typedText("A widowed lamplighter takes in a stranger who knows every street of a town that was never built."),
        editionNamesAuthors: true, coverColour: [176, 48, 40])

    /// Its edition names no author, only its work; description as a plain string.
    static let cartographer = Book(
        isbn13: "9780307945624", isbn10: "0307945626", title: "The Cartographer of Quiet Rivers", subtitle: nil,
        author: "Tobias Wendell-Ashcroft", authorKey: "/authors/OL9120002A", year: 2021, publishDate: "2021",
        publisher: "Fenwick & Lowe", coverID: 91_000_002, workKey: "/works/OL9040002W", editionKey: "/books/OL9070002M",
        description: .plain("Two surveyors chart a delta that redraws itself every spring."),
        editionNamesAuthors: false, coverColour: [40, 96, 160])

    /// A 979 ISBN, which has no ISBN-10; a subtitle and no description.
    static let saltHymns = Book(
        isbn13: "9798812046736", isbn10: nil, title: "Salt Hymns for the Ferryman", subtitle: "Stories",
        author: "Junia Okafor-Reyes", authorKey: "/authors/OL9120003A", year: 2016, publishDate: "Oct 2016",
        publisher: "Tidewrack Books", coverID: 91_000_003, workKey: "/works/OL9040003W", editionKey: "/books/OL9070003M",
        description: nil, editionNamesAuthors: true, coverColour: [32, 128, 96])

    /// The second book of `lantern`'s author, so a search by author finds two.
    static let orchard = Book(
        isbn13: "9781739821548", isbn10: nil, title: "The Orchard at Hollow End", subtitle: nil,
        author: "Mirela Ostrander", authorKey: "/authors/OL9120001A", year: 2023, publishDate: "2023",
        publisher: "Harrowgate Press", coverID: 91_000_004, workKey: "/works/OL9040004W", editionKey: "/books/OL9070004M",
        description: .typedText("Three sisters inherit an orchard and the quarrel that came with it."),
        editionNamesAuthors: true, coverColour: [200, 150, 40])

    static let books = [lantern, cartographer, saltHymns, orchard]

    /// Cream, under each cover's own colour: two bands tell a test top from bottom.
    static let coverBandColour: [UInt8] = [245, 240, 225]

    /// The sizes in a cover's name (`-S.jpg`), all portrait, 2:3.
    enum CoverSize: String, Sendable, CaseIterable {
        case small = "S", medium = "M", large = "L"

        var width: Int {
            switch self {
            case .small: 60
            case .medium: 180
            case .large: 300
            }
        }

        var height: Int { width * 3 / 2 }
    }

    /// The cover the fake serves for `book` at `size`: a real baseline JPEG from the codec's test
    /// encoder. The same call makes the same bytes, so a test can compare.
    static func cover(of book: Book, size: CoverSize) -> [UInt8] {
        var encoded = picture_bytes()
        let status = (book.coverColour + coverBandColour).withUnsafeBufferPointer { stripes in
            var recipe = test_picture_recipe(
                format: PICTURE_JPEG, width: Int32(size.width), height: Int32(size.height), stripes: stripes.baseAddress,
                stripe_count: 2, horizontal: 1, colours: TEST_PICTURE_RGB, with_alpha: 0, whole_frame_layout: 0)
            return test_picture_encode(&recipe, &encoded)
        }
        precondition(status == 0, "could not make a test cover")
        defer { picture_free(encoded.bytes) }
        return Array(UnsafeRawBufferPointer(start: encoded.bytes, count: encoded.length))
    }

    private struct State {
        var fault: Fault?
        /// Overrides `fault` on the covers' route.
        var coverFault: Fault?
        var log: [LoggedRequest] = []
        /// Tests waiting for the count of requests to reach a number.
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// The same, each until its deadline.
        var boundedWaiters: [UUID: (count: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
        /// Requests held by `heldUntilReleased`, and whether `release()` let them go.
        var held: [CheckedContinuation<Void, Never>] = []
        var released = false
    }

    private let state = Mutex(State())
    let clock: WallClock

    init(clock: WallClock) {
        self.clock = clock
    }

    /// Every request in order of arrival, the redirects' targets included.
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

    /// Whether `count` requests in all arrived within `limit`, which is an upper bound only: it
    /// makes a test fail, rather than hang, when they never come.
    func requestsArrive(_ count: Int, within limit: Duration) async -> Bool {
        let id = UUID()
        return await withCheckedContinuation { continuation in
            let arrived = state.withLock { state in
                if state.log.count >= count { return true }
                state.boundedWaiters[id] = (count, continuation)
                return false
            }
            if arrived { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: limit)
                let expired = self.state.withLock { $0.boundedWaiters.removeValue(forKey: id) }
                expired?.continuation.resume(returning: false)
            }
        }
    }

    /// Lets every request `heldUntilReleased` holds, and every later one, be answered.
    func release() {
        let held = state.withLock { state in
            state.released = true
            defer { state.held = [] }
            return state.held
        }
        for request in held { request.resume() }
    }

    /// Every route, covers included unless `failCovers` says otherwise, answers with `fault`
    /// from the next request on (nil: answers normally).
    func fail(with fault: Fault?) { state.withLock { $0.fault = fault } }

    /// The covers' route answers with `fault` whatever `fail(with:)` set (nil: as the other routes).
    func failCovers(with fault: Fault?) { state.withLock { $0.coverFault = fault } }

    /// Runs `body` with the base URL of the server, the API's and the covers' alike, which lives
    /// for the duration of the call.
    func run<Value: Sendable>(_ body: @Sendable (_ baseURL: String) async throws -> Value) async throws -> Value {
        let router = Router()
        router.get("search.json") { request, _ in
            try await self.answer(request, on: .api) { query in try Self.json(Self.search(query)) }
        }
        router.get("isbn/:file") { request, context in
            try await self.answer(request, on: .api) { _ in
                try Self.item("isbn", file: context.parameters.get("file")) { isbn in
                    // Relative, as Open Library writes it: the client resolves it against the request.
                    Self.books.first { [$0.isbn13, $0.isbn10].contains(isbn) }
                        .map { Response(status: .found, headers: [.location: "\($0.editionKey).json"]) }
                }
            }
        }
        router.get("books/:file") { request, context in
            try await self.answer(request, on: .api) { _ in
                try Self.item("books", file: context.parameters.get("file")) { id in
                    try Self.books.first { $0.editionKey == "/books/\(id)" }.map { try Self.json(Self.edition($0)) }
                }
            }
        }
        router.get("works/:file") { request, context in
            try await self.answer(request, on: .api) { _ in
                try Self.item("works", file: context.parameters.get("file")) { id in
                    try Self.books.first { $0.workKey == "/works/\(id)" }.map { try Self.json(Self.work($0)) }
                }
            }
        }
        router.get("authors/:file") { request, context in
            try await self.answer(request, on: .api) { _ in
                try Self.item("authors", file: context.parameters.get("file")) { id in
                    try Self.books.first { $0.authorKey == "/authors/\(id)" }.map { try Self.json(["key": $0.authorKey, "name": $0.author]) }
                }
            }
        }
        router.get("b/id/:file") { request, context in
            try await self.answer(request, on: .covers) { _ in
                let file = context.parameters.get("file") ?? ""
                let name = file.hasSuffix(".jpg") ? file.dropLast(".jpg".count) : ""
                let parts = name.split(separator: "-")
                guard parts.count == 2, let size = CoverSize(rawValue: String(parts[1])),
                      let book = Self.books.first(where: { String($0.coverID) == parts[0] })
                else { return try Self.notFound(key: request.uri.path) }
                return Self.bytes(Self.cover(of: book, size: size), type: "image/jpeg")
            }
        }
        // Open Library's covers answer with a redirect to archive.org; this one goes wherever `to` says.
        router.get("b/moved") { request, _ in
            try await self.answer(request, on: .covers) { query in Response(status: .found, headers: [.location: query["to"] ?? "/"]) }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.serveAsFake { port in
            try await body("http://127.0.0.1:\(port)")
        }
    }

    /// Which host a route stands for, which decides what its faults look like.
    private enum Route {
        case api, covers

        var contentType: String { self == .api ? "application/json" : "image/jpeg" }

        /// The first bytes of an answer that never finishes or never stops.
        var opening: [UInt8] { self == .api ? Array(#"{"numFound": 1, "start": 0, "docs": ["#.utf8) : [0xFF, 0xD8, 0xFF, 0xE0] }
    }

    private func answer(
        _ request: Hummingbird.Request, on route: Route, _ respond: (_ query: [String: String]) throws -> Response
    ) async throws -> Response {
        let query = Self.fields(of: request.uri.query)
        let (fault, satisfied, boundedSatisfied) = state.withLock { state in
            state.log.append(LoggedRequest(path: request.uri.path, query: query, userAgent: request.headers[.userAgent], at: clock.now()))
            let count = state.log.count
            let satisfied = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            let bounded = state.boundedWaiters.filter { $0.value.count <= count }
            for id in bounded.keys { state.boundedWaiters[id] = nil }
            return (route == .covers ? state.coverFault ?? state.fault : state.fault, satisfied, bounded.values.map(\.continuation))
        }
        for waiter in satisfied { waiter.resume() }
        for waiter in boundedSatisfied { waiter.resume(returning: true) }
        switch fault {
        case nil: return try respond(query)
        case .heldUntilReleased:
            await withCheckedContinuation { continuation in
                let released = state.withLock { state in
                    if !state.released { state.held.append(continuation) }
                    return state.released
                }
                if released { continuation.resume() }
            }
            return try respond(query)
        case .status(404): return try Self.notFound(key: request.uri.path)
        case .status(let status):
            return Self.bytes(Array("<html><body><h1>Error \(status)</h1></body></html>".utf8), status: status, type: "text/html")
        case .malformedJSON: return Self.bytes(Array(#"{"numFound": 1, "start": 0, "docs": [{"key": "/works/OL"#.utf8))
        case .html:
            return Self.bytes(Array("<!DOCTYPE html><html><head><title>Open Library is down for maintenance</title></head><body><p>We'll be back soon.</p></body></html>".utf8), type: "text/html")
        case .decompressionBomb: return Self.bytes(PictureSamples.pngClaiming(width: 50_000, height: 50_000), type: "image/png")
        case .oversized(let bytes):
            return Response(status: .ok, headers: [.contentType: route.contentType], body: ResponseBody { writer in
                // One 64 KiB buffer written again and again, so 50 MB cost the fake 64 KiB; a
                // client that hangs up at its cap makes the next write fail, which ends this.
                let chunk = ByteBuffer(repeating: UInt8(ascii: " "), count: 65_536)
                try await writer.write(ByteBuffer(bytes: route.opening))
                var left = bytes - route.opening.count
                while left > 0 {
                    try await writer.write(chunk.getSlice(at: 0, length: min(left, chunk.readableBytes))!)
                    left -= chunk.readableBytes
                }
                try await writer.finish(nil)
            })
        case .neverFinishes:
            return Response(status: .ok, headers: [.contentType: route.contentType], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: route.opening))
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

    /// Form-decodes a query as Open Library's web.py does: `+` is a space, then percent escapes.
    private static func fields(of query: String?) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decoded = parts.map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            fields[decoded[0]] = decoded.count > 1 ? decoded[1] : ""
        }
        return fields
    }

    /// `title` and `author` each match their field, `q` either, by case-insensitive substring;
    /// `fields` is ignored, as every field answered is one the app asks for.
    private static func search(_ query: [String: String]) -> [String: Any] {
        func contains(_ text: String, _ wanted: String?) -> Bool { wanted.map { text.lowercased().contains($0.lowercased()) } ?? true }
        let found = books.filter { book in
            contains(book.title, query["title"]) && contains(book.author, query["author"])
                && (query["q"] == nil || contains(book.title, query["q"]) || contains(book.author, query["q"]))
        }
        // Open Library's default limit.
        let limit = query["limit"].flatMap { Int($0) }.map { max(0, $0) } ?? 100
        let docs: [[String: Any]] = found.prefix(limit).map { book in
            [
                "key": book.workKey, "title": book.title, "author_name": [book.author], "first_publish_year": book.year,
                "isbn": [book.isbn13] + (book.isbn10.map { [$0] } ?? []), "cover_i": book.coverID,
            ]
        }
        return ["numFound": found.count, "start": 0, "docs": docs]
    }

    private static func edition(_ book: Book) -> [String: Any] {
        var edition: [String: Any] = [
            "key": book.editionKey, "title": book.title, "works": [["key": book.workKey]], "publish_date": book.publishDate,
            "publishers": [book.publisher], "isbn_13": [book.isbn13], "covers": [book.coverID],
        ]
        edition["subtitle"] = book.subtitle
        edition["isbn_10"] = book.isbn10.map { [$0] }
        edition["authors"] = book.editionNamesAuthors ? [["key": book.authorKey]] : nil
        edition["description"] = book.description?.json
        return edition
    }

    private static func work(_ book: Book) -> [String: Any] {
        var work: [String: Any] = ["key": book.workKey, "title": book.title, "authors": [["author": ["key": book.authorKey]]]]
        work["description"] = book.description?.json
        return work
    }

    /// Answers `<id>.json` in `folder` with what `found` makes of the id, or with Open Library's
    /// 404 naming `/<folder>/<id>`. A name without `.json` is a web page at Open Library, which
    /// the fake does not serve.
    private static func item(_ folder: String, file: String?, _ found: (_ id: String) throws -> Response?) throws -> Response {
        let file = file ?? ""
        let id = file.hasSuffix(".json") ? String(file.dropLast(".json".count)) : nil
        if let id, let response = try found(id) { return response }
        return try notFound(key: "/\(folder)/\(id ?? file)")
    }

    private static func notFound(key: String) throws -> Response {
        try json(["error": "notfound", "key": key], status: 404)
    }

    private static func json(_ object: [String: Any], status: Int = 200) throws -> Response {
        bytes(Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])), status: status)
    }

    private static func bytes(_ body: [UInt8], status: Int = 200, type: String = "application/json") -> Response {
        Response(status: .init(code: status), headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
