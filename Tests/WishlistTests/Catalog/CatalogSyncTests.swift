import Foundation
import GRDB
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Catalog sync over libcurl against a fake NYT server", .removesTemporaryDirectories)
struct CatalogSyncTests {
    static func overviewLists() throws -> [String] {
        try JSONDecoder().decode(NYTOverviewResponse.self, from: Fixtures.data("full-overview-2023-03-26.json"))
            .results.lists.map(\.listNameEncoded)
    }

    /// A sync pointed at `baseURL` whose rate-limit waits move the manual clock instead of sleeping.
    /// The timeout is generous because the fake server re-encodes a 500 KB fixture in a debug
    /// build, possibly on a busy machine; only the never-finishing response needs a short one.
    static func makeSync(
        _ baseURL: String, database: AppDatabase, time: ManualClock, timeoutSeconds: Int = 30, logger: Logger = LogCapture().logger
    ) -> CatalogSync {
        var config = AppConfig()
        config.nyt.apiKey = FakeNYTServer.apiKey
        config.nyt.baseURL = baseURL
        var limits = CurlHTTPClient.Limits()
        limits.totalTimeoutSeconds = timeoutSeconds
        limits.maximumBodyBytes = 1 << 20
        return CatalogSync.make(config: config, database: database, logger: logger, clock: time.clock, httpLimits: limits) { seconds in
            time.advance(by: TimeInterval(seconds))
        }
    }

    static func database() throws -> AppDatabase {
        try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("catalog.sqlite").path)
    }

    /// The recorded outcome of the last refresh, from which the back-off and the status line come.
    static func syncState(_ database: AppDatabase) throws -> Row? {
        try database.pool.read { try Row.fetchOne($0, sql: "SELECT * FROM catalog_sync_state") }
    }

    @Test func aFullRefreshCostsNamesOverviewAndOneRequestPerMissingList() async throws {
        let time = ManualClock()
        let fake = FakeNYTServer(clock: time.clock)
        let overviewLists = try Self.overviewLists()
        let missing = Array(overviewLists.prefix(3))
        fake.limitOverview(to: Set(overviewLists.dropFirst(3)))
        let database = try Self.database()
        let report = try await fake.run { baseURL in await Self.makeSync(baseURL, database: database, time: time).refresh() }
        #expect(report.error == nil)
        #expect(report.requests == 2 + missing.count)
        #expect(report.listsUpdated == 18)
        let paths = fake.requests.map(\.path)
        #expect(paths.prefix(2) == ["/svc/books/v3/lists/names.json", "/svc/books/v3/lists/full-overview.json"])
        #expect(Set(paths.dropFirst(2)) == Set(missing.map { "/svc/books/v3/lists/current/\($0).json" }))
        let lists = try await CatalogStore(database: database).currentLists()
        #expect(lists.count == 18)
        #expect(lists.allSatisfy { $0.bookCount > 0 })
    }

    @Test func neverMoreThanFiveRequestsInAnyMinute() async throws {
        let time = ManualClock()
        let fake = FakeNYTServer(clock: time.clock)
        fake.limitOverview(to: Set(try Self.overviewLists().prefix(6)))
        let database = try Self.database()
        let report = try await fake.run { baseURL in await Self.makeSync(baseURL, database: database, time: time).refresh() }
        #expect(report.error == nil)
        let times = fake.requests.map(\.at)
        // `#require`: with fewer requests (a refresh that failed) the range below would trap and end the whole run.
        try #require(times.count == 14)
        for index in 0..<(times.count - 5) {
            #expect(times[index + 5].timeIntervalSince(times[index]) >= 60, "requests \(index) to \(index + 5) fit in one minute")
        }
    }

    @Test func theDailyQuotaStopsARefreshWithoutLosingTheCache() async throws {
        let time = ManualClock()
        let database = try Self.database()
        let limiter = APIRateLimiter(database: database, clock: time.clock, perMinute: 1000, perDay: 3)
        for _ in 0..<3 { #expect(try await limiter.acquire() == .granted) }
        #expect(try await limiter.acquire() == .exhausted)
        time.advance(by: 86_401)
        #expect(try await limiter.acquire() == .granted)
    }

    @Test("a failing refresh keeps the cached catalog and says why", arguments: [
        (FakeNYTServer.Fault.status(401, fixture: "errors/401-invalid-key.json"), CatalogFetchError.keyRejected),
        (.status(429, fixture: "errors/429-rate-limit.json"), .rateLimited),
        (.status(503, fixture: nil), .serverError(503)),
        (.malformedJSON, .malformed),
        (.impossibleDate, .malformed),
        (.notJSON, .malformed),
        (.oversized(bytes: 2 << 20), .tooLarge),
        (.neverFinishes, .timedOut),
    ])
    func failuresKeepTheCache(fault: FakeNYTServer.Fault, expected: CatalogFetchError) async throws {
        let time = ManualClock()
        let fake = FakeNYTServer(clock: time.clock)
        let database = try Self.database()
        let store = CatalogStore(database: database)
        let (first, second, statusLine) = try await fake.run { baseURL in
            let first = await Self.makeSync(baseURL, database: database, time: time).refresh()
            let before = try await store.list(named: "hardcover-fiction")
            time.advance(by: 3600)
            fake.fail(with: fault)
            let sync = Self.makeSync(baseURL, database: database, time: time, timeoutSeconds: fault == .neverFinishes ? 2 : 30)
            let second = await sync.refresh()
            let after = try await store.list(named: "hardcover-fiction")
            #expect(before?.0 == after?.0)
            #expect(before?.1 == after?.1)
            return (first, second, sync.currentStatusLine)
        }
        #expect(first.error == nil)
        #expect(second.error == expected)
        #expect(try await store.currentLists().count == 18)
        #expect(statusLine == "Showing lists from March 26; \(expected.phrase).")
        #expect(statusLine?.contains(FakeNYTServer.apiKey) == false)
        let cause = try #require(second.cause, "the log says what exactly went wrong")
        #expect(cause.hasPrefix("lists/names.json: "))
        #expect(!cause.contains(FakeNYTServer.apiKey))
    }

    @Test func failuresBackOffAndSuccessResets() async throws {
        let time = ManualClock()
        let fake = FakeNYTServer(clock: time.clock)
        let database = try Self.database()
        try await fake.run { (baseURL: String) async throws -> Void in
            let sync = Self.makeSync(baseURL, database: database, time: time)
            #expect(try await sync.secondsUntilDue() == 0, "nothing cached: due now")
            fake.fail(with: .status(500, fixture: nil))
            _ = await sync.refresh()
            #expect(try await sync.secondsUntilDue() == 300)
            time.advance(by: 300)
            _ = await sync.refresh()
            #expect(try await sync.secondsUntilDue() == 600)
            fake.fail(with: nil)
            time.advance(by: 600)
            #expect(await sync.refresh().error == nil)
            #expect(try await sync.secondsUntilDue() == 24 * 3600)
            #expect(sync.currentStatusLine == nil)
        }
    }

    @Test func aWrongKeyIsRejectedAndNeverShown() async throws {
        let time = ManualClock()
        let fake = FakeNYTServer(clock: time.clock)
        let database = try Self.database()
        let report = try await fake.run { baseURL in
            var config = AppConfig()
            config.nyt.apiKey = "wrong-key-7Hq"
            config.nyt.baseURL = baseURL
            return await CatalogSync.make(config: config, database: database, logger: LogCapture().logger, clock: time.clock).refresh()
        }
        #expect(report.error == .keyRejected)
        #expect(report.cause == "lists/names.json: HTTP 401")
        #expect(!"\(report)".contains("wrong-key-7Hq"))
    }

    @Test func anUnreachableAPIIsReportedInLibcurlsWordsWithoutTheKey() async throws {
        let time = ManualClock()
        // A fake server that has stopped: its port is closed.
        let stopped = try await FakeNYTServer(clock: time.clock).run { $0 }
        let report = await Self.makeSync(stopped, database: try Self.database(), time: time).refresh()
        #expect(report.error == .unreachable)
        let cause = try #require(report.cause)
        #expect(cause.hasPrefix("lists/names.json: "))
        #expect(cause.contains("127.0.0.1 port"), "libcurl's own message, from its error buffer: \(cause)")
        #expect(!cause.contains(FakeNYTServer.apiKey))
    }

    // MARK: Database failures

    @Test func aDatabaseFailureDuringARefreshSaysTheCatalogWasNotSaved() async throws {
        let database = try Self.database()
        try await database.pool.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse_entries BEFORE INSERT ON list_entry BEGIN SELECT RAISE(ABORT, 'entries refused by the test'); END")
        }
        let sync = CatalogSync(source: SampleCatalogSource(), database: database, clock: .system, refreshHours: 24, logger: LogCapture().logger)
        let report = await sync.refresh()
        #expect(report.error == .notSaved)
        #expect(report.cause?.contains("entries refused by the test") == true)
        #expect(sync.currentStatusLine?.contains("the catalog could not be saved to the database") == true)
    }

    @Test func aFailureToRecordTheOutcomeIsLoggedWithItsCause() async throws {
        let database = try Self.database()
        try await database.pool.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse_state BEFORE INSERT ON catalog_sync_state BEGIN SELECT RAISE(ABORT, 'state refused by the test'); END")
        }
        let log = LogCapture()
        let sync = CatalogSync(source: SampleCatalogSource(), database: database, clock: .system, refreshHours: 24, logger: log.logger)
        #expect(await sync.refresh().error == nil)
        #expect(log.all.contains { $0.hasPrefix("error: could not record the catalog refresh's outcome") && $0.contains("state refused by the test") })
    }

    // MARK: Cancellation, as at shutdown

    @Test func aRefreshStuckOnAResponseEndsWhenCancelledAndRecordsNothing() async throws {
        let time = ManualClock()
        let fake = FakeNYTServer(clock: time.clock)
        let database = try Self.database()
        try await fake.run { (baseURL: String) async throws -> Void in
            // The default 30-second timeout: only cancellation can end this refresh early.
            let sync = Self.makeSync(baseURL, database: database, time: time)
            fake.fail(with: .status(500, fixture: nil))
            _ = await sync.refresh()
            time.advance(by: 300)
            let before = try Self.syncState(database)
            fake.fail(with: .neverFinishes)
            let refresh = Task { await sync.refresh() }
            await fake.waitForRequests(2)
            refresh.cancel()
            let report = await refresh.value
            #expect(report.cancelled)
            #expect(report.error == nil)
            #expect(try Self.syncState(database) == before, "not recorded as a failure")
            #expect(try await sync.secondsUntilDue() == 0, "the back-off did not grow")
            #expect(sync.currentStatusLine?.contains(CatalogFetchError.serverError(500).phrase) == true)
        }
    }

    @Test func aRefreshWaitingForTheRateLimitEndsWhenCancelled() async throws {
        let time = ManualClock()
        let database = try Self.database()
        let limiter = APIRateLimiter(database: database, clock: time.clock)
        for _ in 0..<5 { #expect(try await limiter.acquire() == .granted) }
        var config = AppConfig()
        config.nyt.apiKey = FakeNYTServer.apiKey
        config.nyt.baseURL = "http://127.0.0.1:9/never-asked"
        // The server's own wait, a real minute: only cancellation ends it within the test.
        let sync = CatalogSync.make(config: config, database: database, logger: LogCapture().logger, clock: time.clock)
        let (events, continuation) = AsyncStream<SyncEvent>.makeStream()
        let refresh = Task { await sync.refresh { continuation.yield($0) } }
        for await event in events {
            if case .waitingForRateLimit = event { break }
        }
        refresh.cancel()
        let report = await refresh.value
        #expect(report.cancelled)
        #expect(report.error == nil)
        #expect(report.requests == 0)
        #expect(try Self.syncState(database) == nil, "not recorded as a failure")
    }

    @Test func gracefulShutdownStopsTheRefreshServiceDuringAStuckTransfer() async throws {
        let time = ManualClock()
        let fake = FakeNYTServer(clock: time.clock)
        let database = try Self.database()
        let log = LogCapture()
        try await fake.run { (baseURL: String) async throws -> Void in
            fake.fail(with: .neverFinishes)
            let sync = Self.makeSync(baseURL, database: database, time: time)
            try await testGracefulShutdown { shutdown in
                let service = Task { try await CatalogRefreshService(sync: sync, logger: log.logger).run() }
                await fake.waitForRequests(1)
                shutdown.triggerGracefulShutdown()
                try await service.value
            }
        }
        #expect(try Self.syncState(database) == nil, "a refresh stopped by shutdown is no failure")
        #expect(log.all.contains { $0.hasPrefix("info: catalog refresh stopped for shutdown") })
        #expect(!log.all.contains { $0.hasPrefix("warning") })
    }

    @Test func searchIgnoresCaseAndAccentsAndOnlyFindsCurrentBooks() async throws {
        let database = try Self.database()
        let sync = CatalogSync(source: SampleCatalogSource(), database: database, clock: .system, refreshHours: 24, logger: LogCapture().logger)
        #expect(await sync.refresh().error == nil)
        let store = CatalogStore(database: database)
        let (_, books) = try #require(try await store.list(named: "hardcover-fiction"))
        let first = books[0].book
        let byTitle = try await store.search(String(first.title.split(separator: " ").last!).uppercased())
        #expect(byTitle.contains { $0.id == first.id })
        let accented = try await store.search("cafe")
        #expect(accented.contains { $0.title.lowercased().contains("café") })
        let injected = try await store.search("\" OR 1=1 -- NEAR(*")
        #expect(try await injected == store.search("or 1 1 near"), "quotes and operators are words, not FTS syntax")
        #expect(try await store.search("zzzznotabook").isEmpty)
    }
}
