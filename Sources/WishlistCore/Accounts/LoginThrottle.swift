import Foundation
import GRDB

/// Counts password attempts (per account and per client address) and sign-ups (per address) in a
/// sliding window, in the database so that a restart does not reset them.
///
/// An attempt is admitted and recorded in one write transaction, before the password is hashed:
/// however many requests arrive together, no more than the limit are ever evaluated in a window.
struct LoginThrottle: Sendable {
    enum Scope {
        case account(String), address(String), signup(String)
        /// Mail a client asked for ("Forgot your password?"), and mail one account receives on
        /// request (reset and verification links): so no one can turn the server into a sender of spam.
        case mailFromAddress(String), mailToAccount(UserID)
        /// API tokens a member makes (issue 54): a stolen session cannot mint a stream of them.
        case apiTokens(UserID)
        /// Reservations a guest makes on share links (issue 57), per client address.
        case guestReservations(String)

        var key: String {
            switch self {
            case .account(let username): return "login-account:" + AccountRules.key(username)
            case .address(let address): return "login-address:" + address
            case .signup(let address): return "signup-address:" + address
            case .mailFromAddress(let address): return "mail-address:" + address
            case .mailToAccount(let userID): return "mail-account:\(userID)"
            case .apiTokens(let userID): return "api-tokens:\(userID)"
            case .guestReservations(let address): return "guest-reservations:" + address
            }
        }
    }

    /// The events one admitted attempt recorded, so that a success can take its own back.
    struct Attempt: Sendable {
        fileprivate let eventIDs: [String: Int64]
    }

    enum Admission: Sendable {
        case admitted(Attempt)
        /// Seconds until one more attempt would be admitted in every scope.
        case throttled(retryAfter: Int)
    }

    /// In each throttle window: enough for a typo and a retry, too few to flood a mailbox.
    static let mailsPerAddress = 5
    static let mailsPerAccount = 3
    /// Enough for a script, a phone and a home server, and a few mistakes.
    static let apiTokensPerAccount = 10
    /// A family's gifts from one grandparent, and a few mistakes; too few to try every want.
    static let guestReservationsPerAddress = 10

    let database: AppDatabase
    let clock: WallClock
    let window: TimeInterval
    let limits: AppConfig.Accounts

    init(database: AppDatabase, clock: WallClock, settings: AppConfig.Accounts) {
        self.database = database
        self.clock = clock
        self.window = TimeInterval(settings.throttleWindowMinutes) * 60
        self.limits = settings
    }

    private func limit(_ scope: Scope) -> Int {
        switch scope {
        case .account: return limits.failedLoginsPerAccount
        case .address: return limits.failedLoginsPerAddress
        case .signup: return limits.signupsPerAddress
        case .mailFromAddress: return Self.mailsPerAddress
        case .mailToAccount: return Self.mailsPerAccount
        case .apiTokens: return Self.apiTokensPerAccount
        case .guestReservations: return Self.guestReservationsPerAddress
        }
    }

    /// Records one attempt in every scope when each has room for it; otherwise records nothing.
    func admit(_ scopes: [Scope]) async throws -> Admission {
        let now = clock.now()
        return try await database.write { db in
            let waits = try scopes.compactMap { try wait(for: $0, now: now, in: db) }
            if let longest = waits.max() { return .throttled(retryAfter: max(1, Int(longest.rounded(.up)))) }
            var eventIDs: [String: Int64] = [:]
            for scope in scopes {
                try db.execute(sql: "INSERT INTO throttle_event (scope, happened_at) VALUES (?, ?)", arguments: [scope.key, StoredDate(now)])
                eventIDs[scope.key] = db.lastInsertedRowID
            }
            return .admitted(Attempt(eventIDs: eventIDs))
        }
    }

    /// After a successful sign-in: the account's failures are forgiven, and the attempt no longer
    /// counts against the client's address either.
    func succeeded(_ attempt: Attempt, clearing scope: Scope) async throws {
        try await database.write { db in try succeeded(attempt, clearing: scope, db) }
    }

    /// ``succeeded(_:clearing:)`` inside a write the caller holds.
    func succeeded(_ attempt: Attempt, clearing scope: Scope, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM throttle_event WHERE scope = ?", arguments: [scope.key])
        for id in attempt.eventIDs.values {
            try db.execute(sql: "DELETE FROM throttle_event WHERE id = ?", arguments: [id])
        }
    }

    /// Deletes the events that have left every window; run periodically.
    func deleteExpired() async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-window)
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM throttle_event WHERE happened_at <= ?", arguments: [StoredDate(cutoff)])
            return db.changesCount
        }
    }

    /// Seconds until the scope has room for one more attempt, or nil when it has room now.
    private func wait(for scope: Scope, now: Date, in db: Database) throws -> TimeInterval? {
        let recent = try StoredDate.fetchAll(
            db.cachedStatement(sql: "SELECT happened_at FROM throttle_event WHERE scope = ? AND happened_at > ? ORDER BY happened_at DESC LIMIT ?"),
            arguments: [scope.key, StoredDate(now.addingTimeInterval(-window)), limit(scope)]
        )
        guard recent.count >= limit(scope), let oldestCounted = recent.last else { return nil }
        return oldestCounted.date.addingTimeInterval(window).timeIntervalSince(now)
    }
}
