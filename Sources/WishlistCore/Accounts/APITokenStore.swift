import Foundation
import GRDB
import Synchronization

/// What an API token may do: `read` answers GETs only; `read-write` may change what its member could change on the pages.
public enum APIScope: String, Sendable, CaseIterable {
    case read
    case readWrite = "read-write"
}

/// A personal API token as Settings lists it: never its secret, which is shown once when made.
public struct APIToken: Sendable, Equatable {
    public let id: APITokenID
    public let name: String
    public let scope: APIScope
    public let createdAt: Date
    /// Nil: it never expires.
    public let expiresAt: Date?
    public let lastUsedAt: Date?
    /// The client address of the last use.
    public let lastUsedFrom: String?
}

/// The member a valid token speaks for.
public struct APICaller: Sendable, Equatable {
    public let userID: UserID
    public let username: String
    public let tokenID: APITokenID
    public let scope: APIScope
}

/// Personal API tokens (issue 54). A token is `bw_` and 43 characters of base64url (256 random
/// bits): the prefix lets a secret scanner or a person recognise one in a paste. Only its SHA-256
/// is kept, so the token is shown once, when made, and a copy of the database does not reveal it.
public struct APITokenStore: Sendable {
    /// The expiries Settings offers, in days; nil (never) is offered too.
    public static let expiryDays = [30, 90, 365]
    public static let prefix = "bw_"
    public static let nameLengths = 1...60
    /// The last use is written at most this often per token, so a script's reads stay reads.
    static let lastUsedInterval: TimeInterval = 60

    public enum CreateOutcome: Sendable, Equatable {
        /// The token's secret, to show this once.
        case created(secret: String, APIToken)
        case throttled(retryAfter: Int)
    }

    let database: AppDatabase
    let clock: WallClock
    let throttle: LoginThrottle
    /// Last uses being written behind the answers that made them.
    let lastUses = WritesBehind()

    /// Makes a token for the member; `name` is trimmed and checked by the caller (``nameProblem(_:)``).
    public func create(userID: UserID, name: String, scope: APIScope, expiryDays: Int?) async throws -> CreateOutcome {
        if case .throttled(let wait) = try await throttle.admit([.apiTokens(userID)]) { return .throttled(retryAfter: wait) }
        let now = clock.now()
        let secret = Self.prefix + SecureRandom.token()
        let expiresAt = expiryDays.map { now.addingTimeInterval(TimeInterval($0) * 86_400) }
        let id = try await database.write { db in
            try db.execute(
                sql: "INSERT INTO api_token (user_id, name, scope, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [userID, name, scope.rawValue, SessionStore.fingerprint(secret), StoredDate(now), expiresAt.map(StoredDate.init)]
            )
            return APITokenID(db.lastInsertedRowID)
        }
        let token = APIToken(id: id, name: name, scope: scope, createdAt: now, expiresAt: expiresAt, lastUsedAt: nil, lastUsedFrom: nil)
        return .created(secret: secret, token)
    }

    /// What is wrong with a token's name, or nil.
    public static func nameProblem(_ name: String) -> String? {
        nameLengths.contains(name.count) ? nil : "Give the token a name of 1 to 60 characters, such as the script or device that uses it."
    }

    /// The member's tokens, newest first.
    public func tokens(userID: UserID) async throws -> [APIToken] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM api_token WHERE user_id = ? ORDER BY id DESC", arguments: [userID]).map(Self.token)
        }
    }

    /// Revokes one of the member's tokens; false when she has none by that id.
    public func revoke(id: APITokenID, userID: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM api_token WHERE id = ? AND user_id = ?", arguments: [id, userID])
            return db.changesCount == 1
        }
    }

    /// Revokes every token of the member (a password reset offers it).
    public func revokeAll(userID: UserID) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM api_token WHERE user_id = ?", arguments: [userID])
        }
    }

    /// How many tokens each member has, for `/admin`; members without any are left out.
    public func countsByMember() async throws -> [UserID: Int] {
        try await database.pool.read { db in
            var counts: [UserID: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT user_id, COUNT(*) AS count FROM api_token GROUP BY user_id") {
                counts[row["user_id"]] = row["count"]
            }
            return counts
        }
    }

    /// The member a presented token speaks for, or nil for a malformed, unknown, revoked or expired
    /// one, or one whose account is disabled (it stops at once, as her sessions do). The row is
    /// found by the token's hash and the hash compared again in constant time, as share links are.
    /// Records the use (when, from `address`) at most once a minute.
    public func caller(token: String, from address: String) async throws -> APICaller? {
        guard Self.isWellFormed(token) else { return nil }
        let fingerprint = SessionStore.fingerprint(token)
        let now = clock.now()
        // The read hands back Sendable values, not a Row: with a Row the closure took GRDB's
        // blocking `read` on the event loop, and eight clients at once held every loop waiting
        // for a reader whose own answer needed a loop to go on.
        let found: (caller: APICaller, lastUsed: Date?)? = try await database.read { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT api_token.id, api_token.user_id, api_token.scope, api_token.token_hash, api_token.last_used_at, user.username
                    FROM api_token JOIN user ON user.id = api_token.user_id
                    WHERE token_hash = ? AND user.disabled_at IS NULL AND (expires_at IS NULL OR expires_at > ?)
                    """,
                arguments: [fingerprint, StoredDate(now)]
            ) else { return nil }
            let stored: Data = row["token_hash"]
            guard constantTimeEquals(stored, fingerprint), let scope = APIScope(rawValue: row["scope"]) else { return nil }
            return (APICaller(userID: row["user_id"], username: row["username"], tokenID: row["id"], scope: scope), row.optionalDate("last_used_at"))
        }
        guard let (caller, lastUsed) = found else { return nil }
        if lastUsed.map({ now.timeIntervalSince($0) >= Self.lastUsedInterval }) ?? true {
            // Behind the answer: a read waiting for the writer waits behind other members'
            // synced commits (issue 58: a sixth of the household mix's API reads did, and made
            // their p99). A use lost to a crash is a minute of "last used", nothing acknowledged.
            let database = database, from = String(address.prefix(100))
            lastUses.start {
                _ = try? await database.write { db in
                    try db.execute(
                        sql: "UPDATE api_token SET last_used_at = ?, last_used_from = ? WHERE id = ?",
                        arguments: [StoredDate(now), from, caller.tokenID]
                    )
                }
            }
        }
        return caller
    }

    /// Returns once every last use recorded so far is written.
    public func lastUsesWritten() async {
        await lastUses.settled()
    }

    /// `bw_` and 43 base64url characters: anything else is refused before the database is asked.
    static func isWellFormed(_ token: String) -> Bool {
        let body = token.utf8.dropFirst(prefix.utf8.count)
        return token.hasPrefix(prefix) && body.count == 43
            && body.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    private static func token(_ row: Row) -> APIToken {
        APIToken(
            id: row["id"], name: row["name"], scope: APIScope(rawValue: row["scope"]) ?? .read,
            createdAt: row.date("created_at"), expiresAt: row.optionalDate("expires_at"),
            lastUsedAt: row.optionalDate("last_used_at"), lastUsedFrom: row["last_used_from"]
        )
    }
}

/// Writes that must not delay the answer that asked for them, each run in a task of its own; what is
/// running can be waited for (a test, to read what they wrote).
final class WritesBehind: Sendable {
    private let running = Mutex<(next: Int, tasks: [Int: Task<Void, Never>])>((0, [:]))

    func start(_ write: @escaping @Sendable () async -> Void) {
        running.withLock { state in
            let id = state.next
            state.next += 1
            // The task's own end waits for this lock, so it is removed only after it is added.
            state.tasks[id] = Task { [self] in
                await write()
                running.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
        }
    }

    func settled() async {
        for task in running.withLock({ Array($0.tasks.values) }) { await task.value }
    }
}
