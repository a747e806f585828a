import CivilTime
import Foundation
import GRDB
import Logging
import Synchronization

/// What a refresh is doing, for `wishlist sync`'s progress display.
public enum SyncEvent: Sendable, Equatable {
    case fetching(what: String, done: Int, total: Int)
    case waitingForRateLimit(seconds: Int)
}

/// The outcome of one refresh.
public struct SyncReport: Sendable, Equatable {
    public var listsUpdated = 0
    public var requests = 0
    public var error: CatalogFetchError?
    /// What exactly failed, in libcurl's or SQLite's words, for the log; never shown on a page.
    public var cause: String?
    /// Stopped because its task was cancelled (the server is shutting down): not a failure, so
    /// neither recorded nor counted towards the back-off.
    public var cancelled = false
    /// Back-fill only: editions not stored because a book in them, or the answer, was malformed.
    public var refusedEditions = 0

    /// What a refresh or a back-fill failed with, in the report's words: sources throw only the
    /// fetch errors; anything else came from the database.
    mutating func failed(with error: any Error) {
        switch error {
        case let failure as CatalogFetchFailure: (self.error, cause) = (failure.reason, failure.cause)
        case let fetchError as CatalogFetchError: (self.error, cause) = (fetchError, fetchError.phrase)
        default: (self.error, cause) = (.notSaved, "\(error)")
        }
    }
}

/// A back-fill's progress: each request it is about to make, counted against the plan.
struct BackfillWalk {
    let planned: Int
    let progress: @Sendable (SyncEvent) -> Void

    func next(_ what: String, requestsSoFar done: Int) {
        progress(.fetching(what: what, done: done, total: max(planned, done + 1)))
    }
}

/// Refreshes the cached catalog from its source: `names` + `full-overview` + one `current/{list}`
/// for each current list the overview lacks, within the API's rate limits. A failure keeps what
/// is cached; each list's new edition replaces the old in one transaction.
public final class CatalogSync: Sendable {
    let source: any CatalogSource
    let store: CatalogStore
    package let limiter: APIRateLimiter
    let clock: WallClock
    /// Waits while the minute's quota refills; tests advance a manual clock instead.
    let sleep: @Sendable (Int) async throws -> Void
    let refreshInterval: TimeInterval
    /// Editions older than this many weeks before a list's newest are deleted after a refresh.
    let historyWeeks: Int
    let logger: Logger
    private let statusLine = Mutex<String?>(nil)

    /// Whether the catalog is the bundled sample rather than the live API.
    package var servesSample: Bool { source.isSample }

    init(
        source: any CatalogSource, database: AppDatabase, clock: WallClock, refreshHours: Int, logger: Logger,
        requestsPerMinute: Int = 5, requestsPerDay: Int = 500, historyWeeks: Int = 104,
        sleep: @escaping @Sendable (Int) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) {
        self.source = source
        self.historyWeeks = historyWeeks
        self.logger = logger
        self.store = CatalogStore(database: database)
        self.limiter = APIRateLimiter(database: database, clock: clock, perMinute: requestsPerMinute, perDay: requestsPerDay)
        self.clock = clock
        self.sleep = sleep
        self.refreshInterval = TimeInterval(refreshHours) * 3600
    }

    /// The sync for a configuration: the NYT API when a key is set, else the bundled sample.
    public static func make(
        config: AppConfig, database: AppDatabase, logger: Logger, clock: WallClock = .system,
        httpLimits: CurlHTTPClient.Limits = .init(),
        sleep: @escaping @Sendable (Int) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) -> CatalogSync {
        let source: any CatalogSource = config.nyt.apiKey.isEmpty
            ? SampleCatalogSource()
            : NYTAPISource(client: CurlHTTPClient(limits: httpLimits), baseURL: config.nyt.baseURL, apiKey: config.nyt.apiKey)
        return CatalogSync(
            source: source, database: database, clock: clock, refreshHours: config.nyt.refreshHours, logger: logger,
            requestsPerMinute: config.nyt.requestsPerMinute, requestsPerDay: config.nyt.requestsPerDay,
            historyWeeks: config.nyt.historyWeeks, sleep: sleep
        )
    }

    var sourceName: String { source.isSample ? "sample" : "nyt" }

    /// The sentence for signed-in users when the last refresh failed, else nil.
    public var currentStatusLine: String? { statusLine.withLock { $0 } }

    // MARK: Refreshing

    /// Cancelling the calling task ends the refresh promptly, in a rate-limit wait or a transfer
    /// alike; what was already replaced stays, and the attempt is not recorded.
    public func refresh(progress: @Sendable (SyncEvent) -> Void = { _ in }) async -> SyncReport {
        var report = SyncReport()
        do {
            progress(.fetching(what: "list names", done: 0, total: 2))
            let names = try await request(&report, progress) { try await self.source.names() }.results
            let current = Self.currentLists(names)
            try await store.recordLists(names, current: Set(current.map(\.listNameEncoded)))

            progress(.fetching(what: "overview", done: 1, total: 2))
            let overview = try await request(&report, progress) { try await self.source.overview() }.results
            let frequencies = Dictionary(current.map { ($0.listNameEncoded, ListFrequency(rawValue: $0.updated) ?? .weekly) }, uniquingKeysWith: { first, _ in first })
            for list in overview.lists {
                guard let frequency = frequencies[list.listNameEncoded] else { continue }
                try await store.store(CatalogEdition(list, publishedDate: overview.publishedDate, frequency: frequency), fetchedAt: clock.now())
                report.listsUpdated += 1
            }

            let covered = Set(overview.lists.map(\.listNameEncoded))
            let missing = current.filter { !covered.contains($0.listNameEncoded) }
            for (index, name) in missing.enumerated() {
                progress(.fetching(what: name.displayName, done: 2 + index, total: 2 + missing.count))
                let list = try await request(&report, progress) { try await self.source.currentList(name.listNameEncoded) }.results
                let edition = CatalogEdition(
                    list, publishedDate: list.publishedDate ?? name.newestPublishedDate,
                    frequency: ListFrequency(rawValue: name.updated) ?? .monthly
                )
                try await store.store(edition, fetchedAt: clock.now())
                report.listsUpdated += 1
            }
            if source.isSample {
                try await loadSampleHistory()
            }
            _ = try await store.pruneEditions(keepingWeeks: historyWeeks)
        } catch let error where error is CancellationError || Task.isCancelled {
            report.cancelled = true
            return report
        } catch {
            report.failed(with: error)
        }
        await record(report)
        return report
    }

    // MARK: History

    /// Fetches the `count` editions before the current one of every current list, following each
    /// answer's `previous_published_date`, within the rate limits. Editions already stored cost
    /// nothing, so an interrupted back-fill (a fault, the daily limit, Ctrl-C) resumes where it
    /// stopped; what was stored stays.
    public func backfill(editions count: Int, progress: @escaping @Sendable (SyncEvent) -> Void = { _ in }) async -> SyncReport {
        var report = SyncReport()
        do {
            try await walkBack(editions: count, &report, progress)
        } catch let error where error is CancellationError || Task.isCancelled {
            report.cancelled = true
        } catch {
            report.failed(with: error)
        }
        return report
    }

    /// The sample's earlier editions cost nothing and its files cannot change, so a refresh loads
    /// them all, in one transaction, so that history works without a key.
    private func loadSampleHistory() async throws {
        var history: [(CatalogEdition, previousDate: String)] = []
        for list in try await store.currentLists() {
            var date = list.publishedDate
            for _ in 0...historyWeeks {
                let answer: NYTList
                do {
                    answer = try await source.edition(list: list.nameEncoded, date: date).results
                } catch CatalogFetchError.unexpectedStatus(404) {
                    break
                }
                let previous = answer.previousPublishedDate ?? ""
                history.append((CatalogEdition(answer, publishedDate: date, frequency: list.frequency), previous))
                if previous.isEmpty { break }
                date = previous
            }
        }
        try await store.store(history: history, fetchedAt: clock.now())
    }

    /// At most how many requests a back-fill of `count` editions makes: one for each edition not
    /// stored, plus one per list for the current edition when no answer named the one before it.
    public func backfillCost(editions count: Int) async throws -> Int {
        var cost = 0
        for list in try await store.currentLists() {
            let stored = try await store.editionCount(list: list.nameEncoded)
            let knowsPrevious = try await store.storedEdition(list: list.nameEncoded, date: list.publishedDate).flatMap { $0 } != nil
            cost += max(0, count + 1 - stored) + (knowsPrevious ? 0 : 1)
        }
        return cost
    }

    private func walkBack(editions count: Int, _ report: inout SyncReport, _ progress: @escaping @Sendable (SyncEvent) -> Void) async throws {
        let planned = try await backfillCost(editions: count)
        let walk = BackfillWalk(planned: planned, progress: progress)
        for list in try await store.currentLists() {
            do {
                try await walkBack(list, editions: count, walk, &report)
            } catch where CatalogFetchFailure.reason(of: error) == .malformed {
                // Unreadable, so the chain past it is unknown: this list stops, the others go on.
                report.refusedEditions += 1
                logger.warning("back-fill: an edition of \(list.nameEncoded) could not be read; its earlier history is skipped this time")
            }
        }
    }

    /// Follows one list's chain back `count` editions from its current one.
    private func walkBack(_ list: ListSummary, editions count: Int, _ walk: BackfillWalk, _ report: inout SyncReport) async throws {
        var date = list.publishedDate
        // The date before `date` when the answer just fetched said it (even if refused).
        var learned: String?
        for _ in 0..<count {
            try Task.checkCancellation()
            let before: String
            do {
                if let learned { before = learned } else {
                    guard let known = try await previousDate(of: list, date, walk, &report) else { break }
                    before = known
                }
                guard !before.isEmpty else { break }
                learned = nil
                if try await store.storedEdition(list: list.nameEncoded, date: before) == nil {
                    learned = try await fetchEdition(of: list, before, walk, &report)
                }
            } catch where CatalogFetchFailure.reason(of: error) == .unexpectedStatus(404) {
                // The source has nothing that far back: the list's history starts at `date`.
                try await store.markFirstEdition(list: list.nameEncoded, date: date)
                break
            }
            date = before
        }
    }

    /// The date of the edition before `date`: from the history when an answer named it, else
    /// from the API's answer for `date` (which is stored on the way).
    private func previousDate(of list: ListSummary, _ date: String, _ walk: BackfillWalk, _ report: inout SyncReport) async throws -> String? {
        if let known = try await store.storedEdition(list: list.nameEncoded, date: date).flatMap({ $0 }) { return known }
        return try await fetchEdition(of: list, date, walk, &report)
    }

    /// Fetches one edition and stores it, unless a book in it cannot be kept: an edition is kept
    /// whole or not at all, so a chart never shows a week with books missing. Returns the date of
    /// the edition before ("" when none), which the answer gives either way.
    @discardableResult
    private func fetchEdition(of list: ListSummary, _ date: String, _ walk: BackfillWalk, _ report: inout SyncReport) async throws -> String {
        walk.next("\(list.displayName), \(date)", requestsSoFar: report.requests)
        let answer = try await request(&report, walk.progress) { try await self.source.edition(list: list.nameEncoded, date: date) }.results
        let previous = answer.previousPublishedDate ?? ""
        let edition = CatalogEdition(answer, publishedDate: date, frequency: list.frequency)
        guard edition.entries.count == answer.books.count else {
            report.refusedEditions += 1
            logger.warning("back-fill: the \(date) edition of \(list.nameEncoded) has a book that cannot be kept; the edition is not stored")
            return previous
        }
        try await store.store(edition, previousDate: previous, fetchedAt: clock.now())
        return previous
    }

    /// Lists whose newest edition is recent next to the newest edition of any list: a weekly
    /// list more than five weeks behind, or a monthly one more than ten, is no longer published.
    static func currentLists(_ names: [NYTListName]) -> [NYTListName] {
        guard let newest = names.compactMap({ day($0.newestPublishedDate) }).max() else { return [] }
        return names.filter { name in
            guard let published = day(name.newestPublishedDate) else { return false }
            let allowance = name.updated == ListFrequency.monthly.rawValue ? 70 : 35
            return newest - published <= allowance
        }
    }

    /// Days since 1970 for a `yyyy-MM-dd` date.
    static func day(_ text: String) -> Int? {
        guard text.utf8.count == 10, let midnight = ISODateParser.date(from: text) else { return nil }
        return Int(midnight.timeIntervalSince1970 / 86_400)
    }

    /// "March 26" for `2023-03-26`.
    static func monthAndDay(_ text: String) -> String? {
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return nil }
        return "\(months[parts[1] - 1]) \(parts[2])"
    }

    /// Runs one API call once the rate limiter allows it.
    private func request<Result>(
        _ report: inout SyncReport, _ progress: @Sendable (SyncEvent) -> Void, _ call: () async throws -> Result
    ) async throws -> Result {
        if !source.isSample {
            while true {
                switch try await limiter.acquire() {
                case .granted:
                    report.requests += 1
                    return try await call()
                case .wait(let seconds):
                    progress(.waitingForRateLimit(seconds: seconds))
                    try await sleep(seconds)
                case .exhausted:
                    throw CatalogFetchError.dailyLimitReached
                }
            }
        }
        return try await call()
    }

    // MARK: State

    /// Stores the outcome for the status line and the back-off. A failure to store it is logged:
    /// the next refresh then comes on the previous schedule.
    private func record(_ report: SyncReport) async {
        do {
            try await writeState(report)
        } catch {
            logger.error("could not record the catalog refresh's outcome: \(error)")
        }
        await loadStatusLine()
    }

    private func writeState(_ report: SyncReport) async throws {
        let now = clock.now()
        let source = sourceName
        try await store.database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO catalog_sync_state (id, source, last_attempt_at, last_success_at, last_error, consecutive_failures)
                    VALUES (1, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET source = excluded.source, last_attempt_at = excluded.last_attempt_at,
                        last_success_at = COALESCE(excluded.last_success_at, last_success_at), last_error = excluded.last_error,
                        consecutive_failures = CASE WHEN excluded.last_error IS NULL THEN 0 ELSE consecutive_failures + 1 END
                    """,
                arguments: [source, StoredDate(now), report.error == nil ? StoredDate(now) : nil, report.error?.phrase, report.error == nil ? 0 : 1]
            )
        }
    }

    /// Reads the last outcome from the database into the status line. When it cannot be read, the
    /// line stays as it was.
    public func loadStatusLine() async {
        // Sendable values, not a Row, so that GRDB's async read (not its blocking one) is used.
        let state: (error: String?, newest: String?)?
        do {
            state = try await store.database.pool.read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT last_error, (SELECT MAX(published_date) FROM catalog_list WHERE is_current) AS newest
                        FROM catalog_sync_state WHERE id = 1
                        """
                ).map { row -> (error: String?, newest: String?) in (row["last_error"], row["newest"]) }
            }
        } catch {
            logger.error("could not read the catalog's sync state for the status line: \(error)")
            return
        }
        let line: String? = state.flatMap { state -> String? in
            guard let error = state.error else { return nil }
            guard let newest = state.newest, let date = Self.monthAndDay(newest) else { return "No lists yet: \(error)." }
            return "Showing lists from \(date); \(error)."
        }
        statusLine.withLock { $0 = line }
    }

    /// Seconds until the next refresh is due: now when the source changed or nothing is cached,
    /// else `refreshHours` after the last success, sooner after a failure, with back-off.
    public func secondsUntilDue() async throws -> TimeInterval {
        let now = clock.now()
        // Sendable values, not a Row, so that GRDB's async read (not its blocking one) is used.
        let state = try await store.database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM catalog_sync_state WHERE id = 1")
                .map { row -> (source: String, attempt: Date?, success: Date?, failures: Int) in
                    (row["source"], row.optionalDate("last_attempt_at"), row.optionalDate("last_success_at"), row["consecutive_failures"])
                }
        }
        guard let state, state.source == sourceName else { return 0 }
        if source.isSample { return state.success == nil ? 0 : .infinity }
        if state.failures > 0, let attempt = state.attempt {
            let backOff = min(refreshInterval, 300 * pow(2, Double(min(state.failures - 1, 10))))
            return max(0, attempt.addingTimeInterval(backOff).timeIntervalSince(now))
        }
        guard let success = state.success else { return 0 }
        return max(0, success.addingTimeInterval(refreshInterval).timeIntervalSince(now))
    }
}
