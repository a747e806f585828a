import Foundation
import GRDB
import Hummingbird
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// A source whose lists go back weekly without end: the sample's current lists, and for any
/// earlier date the sample's edition of 2026-10-04 renamed to that date. It counts the dated
/// requests and can fail one of them.
final class EndlessHistorySource: CatalogSource, Sendable {
    let sample = SampleCatalogSource()
    let datedRequests = Mutex<[String]>([])
    /// The dated request (counted from 1) that fails, with the error it throws.
    let fault = Mutex<(Int, any Error)?>(nil)

    var isSample: Bool { false }
    func names() async throws -> NYTNamesResponse { try await sample.names() }
    func overview() async throws -> NYTOverviewResponse { try await sample.overview() }
    func currentList(_ listNameEncoded: String) async throws -> NYTListResponse { try await sample.currentList(listNameEncoded) }

    func edition(list listNameEncoded: String, date: String) async throws -> NYTListResponse {
        let count = datedRequests.withLock { $0.append("\(date)/\(listNameEncoded)"); return $0.count }
        if let (failing, error) = fault.withLock({ $0 }), failing == count { throw error }
        return try Self.renamed(listNameEncoded, to: date)
    }

    /// The template's JSON with the dates changed, decoded again as the API's answer would be.
    static func renamed(_ list: String, to date: String) throws -> NYTListResponse {
        let path = repositoryRoot.appendingPathComponent("Sources/WishlistCore/Catalog/SampleCatalog/lists/2026-10-04/\(list).json")
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as! [String: Any]
        var results = object["results"] as! [String: Any]
        results["published_date"] = date
        results["previous_published_date"] = Self.weekBefore(date)
        object["results"] = results
        return try JSONDecoder().decode(NYTListResponse.self, from: JSONSerialization.data(withJSONObject: object))
    }

    static func weekBefore(_ date: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: formatter.date(from: date)!.addingTimeInterval(-7 * 86_400))
    }
}

@Suite("History: every edition kept, earlier editions, back-fill", .removesTemporaryDirectories)
struct EditionHistoryTests {
    static func database() throws -> AppDatabase {
        try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("history.sqlite").path)
    }

    static func editions(_ database: AppDatabase, _ list: String) async throws -> [String] {
        try await database.pool.read {
            try String.fetchAll($0, sql: "SELECT published_date FROM edition WHERE list_name_encoded = ? ORDER BY published_date", arguments: [list])
        }
    }

    /// A sync over `source` whose rate-limit waits move the clock instead of sleeping.
    static func sync(_ source: EndlessHistorySource, _ database: AppDatabase, _ time: ManualClock, historyWeeks: Int = 104) -> CatalogSync {
        CatalogSync(
            source: source, database: database, clock: time.clock, refreshHours: 24, logger: LogCapture().logger,
            historyWeeks: historyWeeks, sleep: { time.advance(by: TimeInterval($0)) }
        )
    }

    @Test func theSampleCarriesItsEarlierEditionsIntoTheHistory() async throws {
        let database = try Self.database()
        let sync = CatalogSync(source: SampleCatalogSource(), database: database, clock: .system, refreshHours: 24, logger: LogCapture().logger)
        #expect(await sync.refresh().error == nil)
        let fiction = try await Self.editions(database, "hardcover-fiction")
        #expect(fiction.count == 8 && fiction.first == "2026-09-27" && fiction.last == "2026-11-15")
        #expect(try await Self.editions(database, "audio-fiction") == ["2026-09-06", "2026-10-04", "2026-11-01"])
        #expect(await sync.refresh().error == nil)
        #expect(try await Self.editions(database, "hardcover-fiction") == fiction, "a second refresh stores nothing twice")
    }

    @Test func anOlderEditionJoinsTheHistoryWithoutReplacingTheCurrentOne() async throws {
        let database = try Self.database()
        let sync = CatalogSync(source: SampleCatalogSource(), database: database, clock: .system, refreshHours: 24, logger: LogCapture().logger)
        _ = await sync.refresh()
        let store = CatalogStore(database: database)
        let current = try #require(try await store.list(named: "hardcover-fiction"))
        #expect(current.0.publishedDate == "2026-11-15")
        let old = try #require(try await store.edition(list: "hardcover-fiction", date: "2026-10-04"))
        #expect(old.previousDate == "2026-09-27" && old.nextDate == "2026-10-11")
        #expect(old.books.count == 15 && old.books.map(\.rank) == Array(1...15))
        #expect(try await store.edition(list: "hardcover-fiction", date: "2026-10-05") == nil)
        #expect(try await store.previousEditionDate(list: "hardcover-fiction") == "2026-11-08")
    }

    @Test func editionsOlderThanTheHistoryWindowArePrunedAfterARefresh() async throws {
        let database = try Self.database()
        let sync = CatalogSync(
            source: SampleCatalogSource(), database: database, clock: .system, refreshHours: 24, logger: LogCapture().logger, historyWeeks: 3
        )
        #expect(await sync.refresh().error == nil)
        #expect(try await Self.editions(database, "hardcover-fiction") == ["2026-10-25", "2026-11-01", "2026-11-08", "2026-11-15"])
        let orphans = try await database.pool.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM edition_entry WHERE published_date < '2026-10-25' AND list_name_encoded = 'hardcover-fiction'")
        }
        #expect(orphans == 0, "the entries go with their edition")
    }

    @Test func aBackFillCostsOneRequestPerMissingEditionAndResumesAfterAFault() async throws {
        let database = try Self.database()
        let time = ManualClock()
        let source = EndlessHistorySource()
        let sync = Self.sync(source, database, time)
        #expect(await sync.refresh().error == nil)
        // Each list: its current edition (to learn the date before it) and three more.
        #expect(try await sync.backfillCost(editions: 3) == 6 * 4)

        source.fault.withLock { $0 = (10, CatalogFetchError.serverError(503)) }
        let interrupted = await sync.backfill(editions: 3)
        #expect(interrupted.error == .serverError(503))
        #expect(interrupted.requests == 10, "the failing request counted, and nothing after it")
        let storedBefore = try await database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM edition")! }

        let resumed = await sync.backfill(editions: 3)
        #expect(resumed.error == nil)
        #expect(resumed.requests == 6 * 4 - 9, "only what the first run did not store")
        #expect(try await Self.editions(database, "hardcover-fiction") == ["2026-10-25", "2026-11-01", "2026-11-08", "2026-11-15"])
        let storedAfter = try await database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM edition")! }
        #expect(storedAfter > storedBefore)

        let again = await sync.backfill(editions: 3)
        #expect(again.requests == 0, "everything is stored")
        #expect(try await sync.backfillCost(editions: 3) == 0)
        // Twenty-four requests at five a minute: the limiter made the back-fill wait, on the manual clock.
        #expect(time.clock.now().timeIntervalSince(Date(timeIntervalSince1970: 1_790_000_000)) >= 4 * 60)
    }

    @Test func theCurrentEditionsOfAnOlderDatabaseBecomeItsFirstHistory() async throws {
        let path = try temporaryDirectory().appendingPathComponent("old.sqlite").path
        let pool = try DatabasePool(path: path, configuration: AppDatabase.configuration)
        try AppDatabase.migrator.migrate(pool, upTo: "7-administration")
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO catalog_list (name_encoded, display_name, frequency, newest_published_date, is_current, published_date, fetched_at)
                VALUES ('fiction', 'Fiction', 'WEEKLY', '2026-01-04', 1, '2026-01-04', '2026-01-05 10:00:00.000')
                """)
            try db.execute(sql: """
                INSERT INTO book (id, title, author, contributor, publisher, description, isbn10, isbn13, other_isbns, image_width, image_height)
                VALUES ('9780000000001', 'Old Book', 'An Author', '', '', '', '', '9780000000001', '', 0, 0)
                """)
            try db.execute(sql: "INSERT INTO list_entry (list_name_encoded, rank, book_id, rank_last_week, weeks_on_list) VALUES ('fiction', 1, '9780000000001', 2, 9)")
        }
        try pool.close()
        let database = try AppDatabase.open(path: path)
        let entry = try await database.pool.read {
            try Row.fetchOne($0, sql: "SELECT * FROM edition_entry JOIN edition USING (list_name_encoded, published_date)")
        }
        let (date, rank, weeks): (String?, Int?, Int?) = (entry?["published_date"], entry?["rank"], entry?["weeks_on_list"])
        #expect(date == "2026-01-04")
        #expect(rank == 1 && weeks == 9)
    }

    @Test func anEarlierEditionHasItsOwnPageWithLinksToItsNeighbours() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("historian")
            let current = try await browser.get("/lists/hardcover-fiction")
            #expect(current.text.contains(#"<a id="previous-edition" rel="prev" href="/lists/hardcover-fiction?date=2026-11-08">"#))
            #expect(!current.text.contains("next-edition"))

            let old = try await browser.get("/lists/hardcover-fiction?date=2026-10-04")
            #expect(old.status == .ok)
            #expect(old.text.contains("An earlier edition."))
            #expect(old.text.contains(#"href="/lists/hardcover-fiction?date=2026-09-27""#))
            #expect(old.text.contains(#"href="/lists/hardcover-fiction?date=2026-10-11""#))
            #expect(old.text.contains(#"href="/lists/hardcover-fiction?sort=weeks&amp;date=2026-10-04""#), "sorting stays on the edition")
            #expect(old.text.contains("<title>Hardcover Fiction, 2026-10-04 · Bestseller Wishlist</title>"))

            let newest = try await browser.get("/lists/hardcover-fiction?date=2026-11-08")
            #expect(newest.text.contains(#"<a id="next-edition" rel="next" href="/lists/hardcover-fiction">"#), "the newest earlier edition leads to the current page")

            #expect(try await browser.get("/lists/hardcover-fiction?date=2026-10-05").status == .notFound)
            #expect(try await browser.get("/lists/hardcover-fiction?date=2019-01-01").status == .notFound)
            for bad in ["yesterday", "2026-10-4", "2026-10-04x", "%00", "2026/10/04", "2026-10-0%D9%A4"] {
                #expect(try await browser.get("/lists/hardcover-fiction?date=\(bad)").status == .badRequest, "date \(bad)")
            }
        }
    }
}
