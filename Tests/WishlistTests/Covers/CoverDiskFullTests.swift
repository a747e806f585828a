import Foundation
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// The cover cache on a disk that will not take its files: the pages carry on with placeholders,
/// the log says so once, and the covers come back once the disk takes writes again.
@Suite("Cover cache on a full disk: placeholders, one log line, recovery", .removesTemporaryDirectories)
struct CoverDiskFullTests {
    typealias Fake = FakeOpenLibraryServer
    static let books = [Fake.lantern, Fake.cartographer, Fake.saltHymns]

    @Test func pagesShowPlaceholdersTheLogSaysSoOnceAndCoversReturnWithRoom() async throws {
        let fake = Fake(clock: .system)
        let time = ManualClock()
        let log = LogCapture()
        try await fake.run { baseURL in
            let server = try await Self.server(coversFrom: baseURL, clock: time.clock, logger: log.logger)
            let keys = try await Self.addBooks(server, coversFrom: baseURL)
            let folder = server.coverFetcher.cache.directory
            // Every write into the folder now fails, as on a full disk (the tests run as root,
            // whom a read-only folder would not stop).
            try FileManager.default.removeItem(at: folder)
            try Data().write(to: folder)

            await server.coverFetcher.fetchDue()
            for key in keys { #expect(try await CoverHTTPTests.status(server, key) == "failed") }
            try await TestApp.run(server) { browser in
                try await browser.signUp("reader")
                for _ in 0..<2 {
                    for (book, key) in zip(Self.books, keys) {
                        #expect(try await browser.get("/books/\(book.isbn13)").status == .ok)
                        let cover = try await browser.get("/covers/\(key)-128.jpg")
                        #expect(cover.headers[.contentType] == "image/svg+xml", "the placeholder")
                    }
                }
            }
            // The next tries fail too, and the log has nothing new to say.
            time.advance(by: 301)
            await server.coverFetcher.fetchDue()
            for key in keys { #expect(try await CoverHTTPTests.status(server, key) == "failed") }
            #expect(log.all.filter { $0.contains("the cover cache cannot write") }.count == 1, "\(log.all)")
            #expect(log.all.filter { $0.contains("cover not fetched") }.isEmpty, "the disk's fault, not each cover's")

            try FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            // Five minutes after the last try, however many failed: a bad cover's wait would have doubled.
            time.advance(by: 301)
            await server.coverFetcher.fetchDue()
            for key in keys { #expect(try await CoverHTTPTests.status(server, key) == "ready") }
            #expect(log.all.filter { $0.contains("the cover cache can write again") }.count == 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(files.count == 2 * keys.count && !files.contains { $0.hasSuffix(".partial") })
        }
    }

    @Test func aFailedWriteLeavesNoPartialFileAndIsAWriteFailure() async throws {
        let folder = try temporaryDirectory().appendingPathComponent("covers")
        let cache = try CoverCache(directory: folder, capacityBytes: 1_000_000)
        let key = String(repeating: "c", count: CoverKey.length)
        // The large size's final name is taken by a folder, so its rename fails after its bytes
        // were written to the temporary name.
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(CoverCache.fileName(key, .large)).appendingPathComponent("occupied"),
            withIntermediateDirectories: true
        )
        let cover = ProcessedCover(large: Array(repeating: 1, count: 600), small: Array(repeating: 2, count: 400), largeHeight: 576)
        await #expect(throws: CoverCache.WriteFailure.self) { try await cache.store(cover, key: key) }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.hasSuffix(".partial") }, "\(names)")
        #expect(!cache.contains(key) && cache.storedBytes == 0)
    }

    static func server(coversFrom baseURL: String, clock: WallClock, logger: Logger) async throws -> WishlistServer {
        let config = try TestApp.config { config in
            config.openLibrary.baseURL = baseURL
            config.openLibrary.coversURL = baseURL
        }
        return try await WishlistServer.build(config: config, logger: logger, clock: clock)
    }

    /// The books, each with its cover wanted; their cover keys in the same order.
    static func addBooks(_ server: WishlistServer, coversFrom baseURL: String) async throws -> [String] {
        for book in books {
            _ = try await AddedBookStore(database: server.database).add(
                NewBook(title: book.title, author: book.author, isbn: try ISBN(book.isbn13), coverURL: coverURL(book, baseURL)), at: Date()
            )
        }
        return coverKeys(coversFrom: baseURL)
    }

    static func coverKeys(coversFrom baseURL: String) -> [String] {
        books.map { CoverKey.of(coverURL($0, baseURL)) }
    }

    private static func coverURL(_ book: Fake.Book, _ baseURL: String) -> String {
        "\(baseURL)/b/id/\(book.coverID)-L.jpg?default=false"
    }
}
