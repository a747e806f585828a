import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// `wishlist sync --history` against the fake NYT server over libcurl: a dated chain of Hardcover
/// Fiction editions with a missing week, faults on one edition, Ctrl-C, and a malformed book.
/// Rate-limit waits move a manual clock.
@Suite("Back-fill over libcurl: chains, gaps, faults and resumption", .removesTemporaryDirectories)
struct BackfillTests {
    /// Newest first. The week of 2023-02-26 is missing: 2023-03-05 names 2023-02-19 as the one before.
    static let chain = ["2023-03-26", "2023-03-19", "2023-03-12", "2023-03-05", "2023-02-19", "2023-02-12"]

    static func datedRequests(_ fake: FakeNYTServer) -> [String] {
        fake.requests.map(\.path).filter { $0.hasSuffix("/hardcover-fiction.json") && !$0.contains("/current/") }
            .map { String($0.dropFirst("/svc/books/v3/lists/".count).prefix(10)) }
    }

    static func stored(_ database: AppDatabase) async throws -> [String] {
        try await EditionHistoryTests.editions(database, "hardcover-fiction").reversed()
    }

    /// Runs `body` with a synced catalog (the fixture's 18 lists) and a fake serving `chain`.
    /// Every request has the generous timeout, the stalled one included, which therefore takes its
    /// thirty seconds: a shorter one would have to be met by every edition answered before and
    /// after the stall in the same run, whatever else the machine's cores are doing.
    static func withCatalog(_ body: @Sendable (FakeNYTServer, CatalogSync, AppDatabase) async throws -> Void) async throws {
        let time = ManualClock()
        let fake = FakeNYTServer(clock: time.clock)
        fake.serveHistory(chain)
        let database = try CatalogSyncTests.database()
        try await fake.run { baseURL in
            #expect(await CatalogSyncTests.makeSync(baseURL, database: database, time: time).refresh().error == nil)
            try await body(fake, CatalogSyncTests.makeSync(baseURL, database: database, time: time), database)
        }
    }

    @Test func aBackFillFollowsTheChainAcrossAMissingWeekAndStopsWhereTheAPIHasNothing() async throws {
        try await Self.withCatalog { fake, sync, database in
            let report = await sync.backfill(editions: 6)
            #expect(report.error == nil)
            // The current edition (to learn the date before it), the five before, and the 404 past them.
            #expect(Self.datedRequests(fake) == Self.chain + ["2023-02-05"])
            let stored1 = try await Self.stored(database)
            #expect(stored1 == Self.chain)
            let firstKnown = try await CatalogStore(database: database).storedEdition(list: "hardcover-fiction", date: "2023-02-12")
            #expect(firstKnown == .some(""), "the start of the list's history is remembered")
            let gap = try await CatalogStore(database: database).storedEdition(list: "hardcover-fiction", date: "2023-03-05")
            #expect(gap == .some("2023-02-19"), "the missing week is not asked for")

            let before = fake.requests.count
            #expect(await sync.backfill(editions: 6).requests == 0, "everything is stored or known to be absent")
            #expect(fake.requests.count == before)
        }
    }

    @Test(arguments: [
        (FakeNYTServer.Fault.status(429, fixture: "errors/429-rate-limit.json"), CatalogFetchError.rateLimited),
        (.status(503, fixture: nil), .serverError(503)),
        (.neverFinishes, .timedOut),
    ])
    func aFaultStopsTheBackFillWhichKeepsWhatItStoredAndResumes(fault: FakeNYTServer.Fault, expected: CatalogFetchError) async throws {
        try await Self.withCatalog { fake, sync, database in
            fake.fail(edition: "2023-03-05", with: fault)
            let interrupted = await sync.backfill(editions: 5)
            #expect(interrupted.error == expected)
            let stored2 = try await Self.stored(database)
            #expect(stored2 == Array(Self.chain.prefix(3)))

            fake.fail(edition: nil, with: fault)
            let already = Self.datedRequests(fake).count
            let resumed = await sync.backfill(editions: 5)
            #expect(resumed.error == nil)
            #expect(Array(Self.datedRequests(fake).dropFirst(already)) == ["2023-03-05", "2023-02-19", "2023-02-12"], "only what is missing")
            let stored3 = try await Self.stored(database)
            #expect(stored3 == Self.chain)
        }
    }

    @Test func ctrlCDuringATransferKeepsWhatWasStoredAndTheNextRunContinues() async throws {
        try await Self.withCatalog { fake, sync, database in
            fake.fail(edition: "2023-03-05", with: .neverFinishes)
            let (reached, reachedContinuation) = AsyncStream.makeStream(of: Int.self)
            let backfill = Task {
                await sync.backfill(editions: 5) { event in
                    if case .fetching(let what, _, _) = event, what.hasSuffix("2023-03-05") { reachedContinuation.yield(fake.requests.count + 1) }
                }
            }
            var iterator = reached.makeAsyncIterator()
            let request = try #require(await iterator.next())
            await fake.waitForRequests(request)
            backfill.cancel()
            let report = await backfill.value
            #expect(report.cancelled)
            #expect(report.error == nil)
            let stored4 = try await Self.stored(database)
            #expect(stored4 == Array(Self.chain.prefix(3)))

            fake.fail(edition: nil, with: .neverFinishes)
            let already = Self.datedRequests(fake).count
            #expect(await sync.backfill(editions: 5).error == nil)
            #expect(Array(Self.datedRequests(fake).dropFirst(already)) == ["2023-03-05", "2023-02-19", "2023-02-12"])
        }
    }

    @Test func anEditionWithABookThatCannotBeKeptIsRefusedWholeAndTheRestContinues() async throws {
        try await Self.withCatalog { fake, sync, database in
            fake.serveMalformedBook(on: ["2023-03-12"])
            let report = await sync.backfill(editions: 5)
            #expect(report.error == nil)
            #expect(report.refusedEditions == 1)
            let stored5 = try await Self.stored(database)
            #expect(stored5 == Self.chain.filter { $0 != "2023-03-12" }, "nothing of it, everything around it")
            let entries = try await database.pool.read {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM edition_entry WHERE published_date = '2023-03-12'")
            }
            #expect(entries == 0)

            fake.serveMalformedBook(on: [])
            let already = Self.datedRequests(fake).count
            #expect(await sync.backfill(editions: 5).refusedEditions == 0)
            #expect(Array(Self.datedRequests(fake).dropFirst(already)) == ["2023-03-12"], "the next run asks for it again")
            let stored6 = try await Self.stored(database)
            #expect(stored6 == Self.chain)
        }
    }

    @Test func progressCountsRequestsAgainstThePlanAndEstimatesTheTimeLeft() {
        let start = Date(timeIntervalSince1970: 0)
        let display = BackfillProgress(perMinute: 5, started: start)
        #expect(BackfillProgress.bar(done: 6, total: 24, width: 8) == "[##------]")
        #expect(BackfillProgress.bar(done: 30, total: 24, width: 4) == "[####]")
        // 18 left at 5 a minute is 3.6 minutes, even when the first six went faster.
        #expect(display.eta(done: 6, total: 24, now: start.addingTimeInterval(6)) == "about 4 min left")
        // Slower than the limit (a slow network): the pace so far decides.
        #expect(display.eta(done: 2, total: 4, now: start.addingTimeInterval(120)) == "about 2 min left")
        #expect(display.eta(done: 23, total: 24, now: start.addingTimeInterval(60)) == "under a minute left")
        #expect(display.terminalLine(what: "Hardcover Fiction, 2023-03-05", done: 6, total: 24, now: start)
            == "[######------------------] 6/24  Hardcover Fiction, 2023-03-05  about 4 min left")
        #expect(display.plainLine(what: "Hardcover Fiction, 2023-03-05", done: 6, total: 24) == "[7/24] Hardcover Fiction, 2023-03-05")
    }
}
