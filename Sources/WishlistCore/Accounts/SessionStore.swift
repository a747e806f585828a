import Foundation
import GRDB

/// A signed-in browser, as the settings page lists it.
public struct ActiveSession: Sendable, Equatable {
    public let id: SessionID
    public let userID: UserID
    public let username: String
    /// The member's name as pages show it (``MemberName``).
    public let name: String
    public let createdAt: Date
    public let lastSeenAt: Date
    public let userAgent: String
    public let isAdmin: Bool
    /// The member's chosen language's code; nil follows the browser (migration 35).
    public var language: String? = nil
}

/// Server-side sessions. The browser holds a random 256-bit token; the table holds only its
/// SHA-256, so reading the database does not let anyone sign in.
public struct SessionStore: Sendable {
    let database: AppDatabase
    let clock: WallClock
    let idleLifetime: TimeInterval
    let absoluteLifetime: TimeInterval
    /// `last_seen_at` is written at most this often, so reading a page is not a write.
    static let lastSeenResolution: TimeInterval = 300

    public init(database: AppDatabase, clock: WallClock, idleDays: Int, absoluteDays: Int) {
        self.database = database
        self.clock = clock
        self.idleLifetime = TimeInterval(idleDays) * 86_400
        self.absoluteLifetime = TimeInterval(absoluteDays) * 86_400
    }

    static func fingerprint(_ token: String) -> Data {
        Data(Digests.sha256(Array(token.utf8)))
    }

    /// The sessions a member may hold at once: one more ends the one seen least recently, so that
    /// nothing (a loop of sign-ins, a script behind an authenticating proxy that sends back a
    /// cookie it never takes) grows the table without bound (issue 50).
    static let maximumPerUser = 50

    /// Starts a session for `userID` and returns the token for the cookie.
    package func create(userID: UserID, userAgent: String) async throws -> String {
        try await database.write { db in try create(userID: userID, userAgent: userAgent, db) }
    }

    /// ``create(userID:userAgent:)`` inside a write the caller holds, so that a sign-in records
    /// its success and starts the session in one turn of the writer.
    func create(userID: UserID, userAgent: String, _ db: Database) throws -> String {
        let token = SecureRandom.token()
        let now = clock.now()
        try db.execute(
            sql: "INSERT INTO session (user_id, token_hash, created_at, last_seen_at, user_agent) VALUES (?, ?, ?, ?, ?)",
            arguments: [userID, Self.fingerprint(token), StoredDate(now), StoredDate(now), String(userAgent.prefix(300))]
        )
        try db.execute(
            sql: """
                DELETE FROM session WHERE user_id = ? AND id NOT IN
                    (SELECT id FROM session WHERE user_id = ? ORDER BY last_seen_at DESC, id DESC LIMIT ?)
                """,
            arguments: [userID, userID, Self.maximumPerUser]
        )
        return token
    }

    /// The live session for a cookie token, or nil. An expired session is deleted on sight.
    public func find(token: String) async throws -> ActiveSession? {
        try await find(token: token) { _, _ in () }?.session
    }

    /// The live session for a cookie token and what `alsoRead` reads for it in the same read
    /// transaction (what every page shows of the user, such as the wishlist's count, and the
    /// page's own reads), or nil.
    public func find<Extra: Sendable>(
        token: String, alsoReading alsoRead: @escaping @Sendable (PageRead, ActiveSession) throws -> Extra
    ) async throws -> (session: ActiveSession, extra: Extra)? {
        let fingerprint = Self.fingerprint(token)
        let now = clock.now()
        let found = try await database.read { db -> (ActiveSession, Extra)? in
            guard let session = try Row.decodeOne(
                db.cachedStatement(sql: Self.sessionByFingerprint), arguments: [fingerprint],
                Self.session(from:)
            ) else { return nil }
            return (session, try alsoRead(PageRead(db: db), session))
        }
        guard let (session, extra) = found else { return nil }
        let (createdAfter, seenAfter) = liveSince(now)
        if session.createdAt < createdAfter || session.lastSeenAt < seenAfter {
            try await delete(id: session.id)
            return nil
        }
        if now.timeIntervalSince(session.lastSeenAt) > Self.lastSeenResolution {
            try await database.write { db in
                try db.execute(sql: "UPDATE session SET last_seen_at = ? WHERE id = ?", arguments: [StoredDate(now), session.id])
            }
        }
        return (session, extra)
    }

    /// Every request's first statement, made once: the statement cache finds it by its text.
    private static let sessionByFingerprint = """
        SELECT session.*, user.username, \(MemberName.shownSQL("user")) AS name, user.is_admin, user.language FROM session JOIN user ON user.id = session.user_id
        WHERE session.token_hash = ? AND user.disabled_at IS NULL
        """

    /// How pages name `userID` (``MemberName``) and what `alsoRead` reads for them, in one read
    /// transaction, as ``find(token:alsoReading:)`` gives them for a session: for a member signed
    /// in for one request without one (an authenticating proxy's). Nil for an account that is
    /// gone or disabled.
    public func member<Extra: Sendable>(
        userID: UserID, alsoReading alsoRead: @escaping @Sendable (PageRead) throws -> Extra
    ) async throws -> (name: String, extra: Extra)? {
        try await database.read { db in
            guard let name = try String.fetchOne(
                db, sql: "SELECT \(MemberName.shownSQL("user")) FROM user WHERE id = ? AND disabled_at IS NULL", arguments: [userID]
            ) else { return nil }
            return (name, try alsoRead(PageRead(db: db)))
        }
    }

    /// Whether a session read earlier may be used as it was read: still live, and not yet due for
    /// its `last_seen_at` write (``PageReadMemo``).
    public func isCurrent(_ session: ActiveSession) -> Bool {
        let now = clock.now()
        let (createdAfter, seenAfter) = liveSince(now)
        return session.createdAt >= createdAfter && session.lastSeenAt >= seenAfter
            && now.timeIntervalSince(session.lastSeenAt) <= Self.lastSeenResolution
    }

    /// When the session began, that is when its browser signed in; nil when it is gone.
    func signedInAt(sessionID: SessionID) async throws -> Date? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT created_at FROM session WHERE id = ?", arguments: [sessionID])?.date("created_at")
        }
    }

    /// The user's sessions that have not expired, most recently used first.
    package func list(userID: UserID) async throws -> [ActiveSession] {
        let now = clock.now()
        return try await database.pool.read { db in try list(userID: userID, at: now, db) }
    }

    /// The same on a connection that a longer read holds.
    func list(userID: UserID, at now: Date, _ db: Database) throws -> [ActiveSession] {
        let (createdAfter, seenAfter) = liveSince(now)
        return try Row.fetchAll(
            db,
            sql: """
                SELECT session.*, user.username, \(MemberName.shownSQL("user")) AS name, user.is_admin, user.language FROM session JOIN user ON user.id = session.user_id
                WHERE session.user_id = ? AND session.created_at >= ? AND session.last_seen_at >= ?
                ORDER BY session.last_seen_at DESC
                """,
            arguments: [userID, StoredDate(createdAfter), StoredDate(seenAfter)]
        ).map(Self.session(from:))
    }

    /// Deletes every expired session; run periodically, since an abandoned one is never looked up again.
    func deleteExpired() async throws -> Int {
        let (createdAfter, seenAfter) = liveSince(clock.now())
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM session WHERE created_at < ? OR last_seen_at < ?", arguments: [StoredDate(createdAfter), StoredDate(seenAfter)])
            return db.changesCount
        }
    }

    /// A session is live while it was created after the first date and seen after the second.
    private func liveSince(_ now: Date) -> (created: Date, seen: Date) {
        (now.addingTimeInterval(-absoluteLifetime), now.addingTimeInterval(-idleLifetime))
    }

    package func delete(id: SessionID) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id])
        }
    }

    /// Signs the user out of every browser but the one with `keptSessionID`.
    package func deleteAll(userID: UserID, except keptSessionID: SessionID?) async throws {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM session WHERE user_id = ? AND id IS NOT ?",
                arguments: [userID, keptSessionID]
            )
        }
    }

    private static func session(from row: Row) -> ActiveSession {
        ActiveSession(
            id: row["id"], userID: row["user_id"], username: row["username"], name: row["name"],
            createdAt: row.date("created_at"), lastSeenAt: row.date("last_seen_at"), userAgent: row["user_agent"], isAdmin: row["is_admin"],
            language: row["language"]
        )
    }
}
