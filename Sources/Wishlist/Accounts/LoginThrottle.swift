import Foundation
import GRDB

/// Counts failed sign-ins (per account and per client address) and sign-ups (per address) in a
/// sliding window, in the database so that a restart does not reset them.
struct LoginThrottle: Sendable {
    enum Scope {
        case account(String), address(String), signup(String)

        var key: String {
            switch self {
            case .account(let username): return "login-account:" + AccountRules.key(username)
            case .address(let address): return "login-address:" + address
            case .signup(let address): return "signup-address:" + address
            }
        }
    }

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
        }
    }

    /// Seconds until one more attempt is allowed in every scope, or nil when it is allowed now.
    func retryAfter(_ scopes: [Scope]) async throws -> Int? {
        let now = clock.now()
        let windowStart = now.addingTimeInterval(-window)
        let waits = try await database.pool.read { db in
            try scopes.compactMap { scope -> TimeInterval? in
                let recent = try Date.fetchAll(
                    db,
                    sql: "SELECT happened_at FROM throttle_event WHERE scope = ? AND happened_at > ? ORDER BY happened_at DESC LIMIT ?",
                    arguments: [scope.key, windowStart, limit(scope)]
                )
                guard recent.count >= limit(scope), let oldestCounted = recent.last else { return nil }
                return oldestCounted.addingTimeInterval(window).timeIntervalSince(now)
            }
        }
        return waits.max().map { max(1, Int($0.rounded(.up))) }
    }

    func record(_ scopes: [Scope]) async throws {
        let now = clock.now()
        try await database.pool.write { db in
            for scope in scopes {
                try db.execute(sql: "INSERT INTO throttle_event (scope, happened_at) VALUES (?, ?)", arguments: [scope.key, now])
            }
            // Events older than the window no longer count for anything.
            try db.execute(sql: "DELETE FROM throttle_event WHERE happened_at <= ?", arguments: [now.addingTimeInterval(-window)])
        }
    }

    func clear(_ scope: Scope) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "DELETE FROM throttle_event WHERE scope = ?", arguments: [scope.key])
        }
    }
}
