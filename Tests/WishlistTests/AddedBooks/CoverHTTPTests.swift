import CPictureCodec
import Foundation
import GRDB
import Hummingbird
import Logging
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Every cover a page shows comes from us: fetched by the cover job from the fake Open Library's
/// cover host, re-encoded at two widths, kept beside the database and served under `/covers/`.
@Suite("Covers served by us: fetched, re-encoded, cached, and the placeholder meanwhile", .removesTemporaryDirectories)
struct CoverHTTPTests {
    typealias Fake = FakeOpenLibraryServer

    /// A server whose catalog has one book with `book`'s cover, looked up from the fake.
    static func withCoveredBook<Value: Sendable>(
        _ fake: Fake, clock: WallClock = .system, log: LogCapture? = nil, _ body: @Sendable (WishlistServer, _ key: String) async throws -> Value
    ) async throws -> Value {
        try await fake.run { baseURL in
            let config = try TestApp.config { config in
                config.openLibrary.baseURL = baseURL
                config.openLibrary.coversURL = baseURL
            }
            var quiet = Logger(label: "test")
            quiet.logLevel = .critical
            let server = try await WishlistServer.build(config: config, logger: log?.logger ?? quiet, clock: clock)
            let url = "\(baseURL)/b/id/\(Fake.lantern.coverID)-L.jpg?default=false"
            _ = try await AddedBookStore(database: server.database).add(
                NewBook(title: Fake.lantern.title, author: Fake.lantern.author, isbn: try ISBN(Fake.lantern.isbn13), coverURL: url), at: Date()
            )
            return try await body(server, CoverKey.of(url))
        }
    }

    static func width(ofJPEG bytes: [UInt8]) -> (Int, Int)? {
        var header = picture_header()
        var failure = picture_failure()
        let status = bytes.withUnsafeBytes { picture_read_header($0.baseAddress, $0.count, PICTURE_JPEG, &header, &failure) }
        return status == 0 ? (Int(header.width), Int(header.height)) : nil
    }

    static func status(_ server: WishlistServer, _ key: String) async throws -> String? {
        try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT status FROM cover WHERE key = ?", arguments: [key]) }
    }

    @Test func aCoverIsFetchedOnceAndServedAtTwoWidthsCachedForAYear() async throws {
        let fake = Fake(clock: .system)
        try await Self.withCoveredBook(fake) { server, key in
            // Before the app runs, so that its own job (a service, which runs with it) finds
            // nothing left to fetch and the count of fetches below is exact.
            await server.coverFetcher.fetchDue()
            #expect(try await Self.status(server, key) == "ready")
            try await TestApp.run(server) { browser in
                try await browser.signUp("reader")
                let page = try await browser.get("/books/\(Fake.lantern.isbn13)")
                let small = try await browser.get("/covers/\(key)-128.jpg")
                #expect(small.status == .ok)
                #expect(small.headers[.contentType] == "image/jpeg")
                #expect(small.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(Self.width(ofJPEG: Array(small.body.readableBytesView)).map { $0 == (128, 192) } == true, "300 × 450 kept its shape")
                let large = try await browser.get("/covers/\(key)-384.jpg")
                #expect(Self.width(ofJPEG: Array(large.body.readableBytesView)).map { $0 == (384, 576) } == true)
                #expect(page.text.contains(Self.carried(Array(large.body.readableBytesView))), "the book's own page carries the large file")
                #expect(!page.text.contains("/covers/\(key)-"), "no request of its own for it")
                let fetches = fake.requests.filter { $0.path.hasPrefix("/b/id/") }.count
                await server.coverFetcher.fetchDue()
                _ = try await browser.get("/covers/\(key)-128.jpg")
                #expect(fake.requests.filter { $0.path.hasPrefix("/b/id/") }.count == fetches, "fetched once")
                let files = try FileManager.default.contentsOfDirectory(
                    atPath: CoverCache.directory(besideDatabase: server.config.database.path).path
                ).sorted()
                #expect(files == ["\(key)-128.jpg", "\(key)-384.jpg"], "beside the database, where backups do not look")
                #expect(try await browser.get("/covers/\(key)-256.jpg").status == .notFound)
                #expect(try await browser.get("/covers/NOT-A-KEY-128.jpg").status == .notFound)
            }
        }
    }

    /// The cover as the book's own page carries it: the large file in the HTML, painted with it.
    static func carried(_ jpeg: [UInt8]) -> String {
        #"<img class="book-cover" src="data:image/jpeg;base64,"# + Data(jpeg).base64EncodedString() + "\""
    }

    @Test func aBookPageKeptBeforeItsCoverCameCarriesTheCoverOnceItHas() async throws {
        let fake = Fake(clock: .system)
        fake.failCovers(with: .status(500))
        let time = ManualClock()
        try await Self.withCoveredBook(fake, clock: time.clock) { server, key in
            await server.coverFetcher.fetchDue()
            try await TestApp.run(server) { browser in
                try await browser.signUp("reader")
                let before = try await browser.get("/books/\(Fake.lantern.isbn13)").text
                #expect(before.contains(#"srcset="/covers/\#(key)-128.jpg 128w, /covers/\#(key)-384.jpg 384w""#), "linked while the server has no file")
                #expect(!before.contains("data:image/jpeg"))
                fake.failCovers(with: nil)
                time.advance(by: 301)
                await server.coverFetcher.fetchDue()
                #expect(try await Self.status(server, key) == "ready")
                let large = try #require(await server.coverFetcher.cache.read(key, .large))
                let after = try await browser.get("/books/\(Fake.lantern.isbn13)").text
                #expect(after.contains(Self.carried(large)), "the page kept without its cover is rendered again with it")
                #expect(!after.contains("/covers/\(key)-"))
            }
        }
    }

    @Test(arguments: [Fake.Fault.html, .oversized(bytes: 50_000_000), .decompressionBomb, .status(404), .status(500)])
    func aCoverThatIsNoPictureIsThePlaceholderAndTriedAgainLater(fault: Fake.Fault) async throws {
        let fake = Fake(clock: .system)
        fake.failCovers(with: fault)
        let time = ManualClock()
        try await Self.withCoveredBook(fake, clock: time.clock) { server, key in
            await server.coverFetcher.fetchDue()
            #expect(try await Self.status(server, key) == "failed")
            try await TestApp.run(server) { browser in
                let placeholder = try await browser.get("/covers/\(key)-128.jpg")
                #expect(placeholder.status == .ok)
                #expect(placeholder.headers[.contentType] == "image/svg+xml")
                #expect(placeholder.headers[.cacheControl] == "no-cache", "asked for again next time")
            }
            fake.failCovers(with: nil)
            await server.coverFetcher.fetchDue()
            #expect(try await Self.status(server, key) == "failed", "not before its time")
            time.advance(by: 301)
            await server.coverFetcher.fetchDue()
            #expect(try await Self.status(server, key) == "ready", "tried again once its wait is over")
        }
    }

    @Test func aCoverIsCutOffPastFiveMegabytesAndTheLogSaysWhyWithoutItsAddress() async throws {
        let fake = Fake(clock: .system)
        // Past the download limit, yet under the 8 MB a picture may have: only the limit refuses it.
        fake.failCovers(with: .oversized(bytes: 6 * 1024 * 1024))
        let log = LogCapture()
        try await Self.withCoveredBook(fake, log: log) { server, key in
            await server.coverFetcher.fetchDue()
            let status = try await Self.status(server, key)
            #expect(status == "failed")
            let said = log.all.filter { $0.contains("cover not fetched") }
            #expect(said.contains { $0.contains("response larger than \(5 * 1024 * 1024) bytes") }, "\(said)")
            #expect(!said.contains { $0.contains("/b/id/") }, "the log says what failed, not which book's cover")
        }
    }

    @Test func aCoverWhoseFilesWentIsFetchedAgainWhenAPageAsksForIt() async throws {
        let fake = Fake(clock: .system)
        try await Self.withCoveredBook(fake) { server, key in
            await server.coverFetcher.fetchDue()
            #expect(try await Self.status(server, key) == "ready")
            // As after restoring a backup, which carries the table but not the folder.
            let folder = CoverCache.directory(besideDatabase: server.config.database.path)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
            try await TestApp.run(server) { browser in
                // The route finds the files gone, marks the cover due, nudges the app's job and
                // waits for it.
                let response = try await browser.get("/covers/\(key)-384.jpg")
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(Self.width(ofJPEG: Array(response.body.readableBytesView)).map { $0.0 } == 384)
                #expect(try await Self.status(server, key) == "ready")
            }
        }
    }

    @Test func pastItsCapacityTheCacheDeletesTheCoversLeastRecentlyServed() async throws {
        let folder = try temporaryDirectory().appendingPathComponent("covers")
        let cover = ProcessedCover(large: Array(repeating: 1, count: 600), small: Array(repeating: 2, count: 400), largeHeight: 576)
        let cache = try CoverCache(directory: folder, capacityBytes: 3_500)
        for key in ["a", "b", "c"] { #expect(try await cache.store(cover, key: String(repeating: key, count: 24)).isEmpty) }
        let (a, b, c, d) = (String(repeating: "a", count: 24), String(repeating: "b", count: 24), String(repeating: "c", count: 24), String(repeating: "d", count: 24))
        #expect(await cache.read(a, .small) != nil, "a is served, so b is now the least recently used")
        #expect(try await cache.store(cover, key: d) == [b])
        #expect(!cache.contains(b) && cache.contains(a) && cache.contains(c) && cache.contains(d))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(b)-128.jpg").path))
        #expect(cache.storedBytes == 3_000)
        let reopened = try CoverCache(directory: folder, capacityBytes: 3_500)
        #expect(reopened.storedBytes == 3_000, "a restart counts what is there")
    }
}
