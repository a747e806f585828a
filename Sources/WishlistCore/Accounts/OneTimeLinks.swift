import Foundation
import GRDB

/// What a one-time link's token leads to. The page behind an expired, used or unknown link says
/// which, so the person knows whether to ask for a new one.
public enum LinkState: Sendable, Equatable {
    case valid
    case expired
    case used
    case unknown
}

/// Password-reset links: an admin's, handed over by hand, valid 24 hours; or one asked for
/// through "Forgot your password?" and mailed (``AccountMail``), valid an hour.
/// Single use, stored as the SHA-256 of their token. A new link for a user replaces any earlier one.
public struct PasswordResetLinks: Sendable {
    public static let lifetime: TimeInterval = 24 * 3600

    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Makes a link for `userID` and returns its token, recording who made it.
    public func create(userID: UserID, by actor: Administration.Actor) async throws -> String {
        let now = clock.now()
        return try await database.write { db in
            let name = try Administration.username(userID, db)
            let token = try Self.insert(userID: userID, lifetime: Self.lifetime, now: now, db)
            try Administration.record(actor: actor.username, action: "made a password-reset link for", subject: name, at: now, db)
            return token
        }
    }

    /// A new link for `userID`, replacing any earlier one; returns its token.
    static func insert(userID: UserID, lifetime: TimeInterval, now: Date, _ db: Database) throws -> String {
        let token = SecureRandom.token()
        try db.execute(sql: "DELETE FROM password_reset WHERE user_id = ?", arguments: [userID])
        try db.execute(
            sql: "INSERT INTO password_reset (user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?)",
            arguments: [userID, SessionStore.fingerprint(token), StoredDate(now), StoredDate(now.addingTimeInterval(lifetime))]
        )
        return token
    }

    /// The link's state and, when valid, whose password it resets.
    public func check(token: String) async throws -> (LinkState, username: String?) {
        let now = clock.now()
        return try await database.pool.read { db in
            guard let row = try Self.row(token, db) else { return (.unknown, nil) }
            return (Self.state(row, now: now), row["username"])
        }
    }

    /// How many single sign-on identities the link's account has linked, which the reset page
    /// offers to unlink; 0 for no such link.
    public func linkedIdentities(token: String) async throws -> Int {
        try await database.pool.read { db in
            guard let row = try Self.row(token, db) else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sign_in_identity WHERE user_id = ?", arguments: [row["user_id"]]) ?? 0
        }
    }

    /// How many API tokens the link's account has, which the reset page offers to revoke; 0 for no such link.
    public func apiTokens(token: String) async throws -> Int {
        try await database.pool.read { db in
            guard let row = try Self.row(token, db) else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM api_token WHERE user_id = ?", arguments: [row["user_id"]]) ?? 0
        }
    }

    /// Sets the new hash, ends every session of the user and spends the link, in one transaction;
    /// with `unlinkingIdentities`, also unlinks every single sign-on identity of the account
    /// (someone else may have linked one), and with `revokingTokens` revokes its API tokens (someone
    /// who got in may have made one). Returns the link's state before (only `.valid` changed anything).
    func spend(token: String, newHash: String, unlinkingIdentities: Bool = false, revokingTokens: Bool = false) async throws -> LinkState {
        let now = clock.now()
        return try await database.write { db in
            guard let row = try Self.row(token, db) else { return .unknown }
            let state = Self.state(row, now: now)
            guard state == .valid else { return state }
            let userID: UserID = row["user_id"]
            try db.execute(sql: "UPDATE password_reset SET used_at = ? WHERE id = ?", arguments: [StoredDate(now), row["id"]])
            try db.execute(sql: "UPDATE user SET password_hash = ? WHERE id = ?", arguments: [newHash, userID])
            try db.execute(sql: "DELETE FROM session WHERE user_id = ?", arguments: [userID])
            try Administration.record(actor: row["username"], action: "set a new password through a reset link", subject: "", at: now, db)
            if unlinkingIdentities {
                try db.execute(sql: "DELETE FROM sign_in_identity WHERE user_id = ?", arguments: [userID])
                try Administration.record(actor: row["username"], action: "unlinked single sign-on with the reset", subject: "", at: now, db)
            }
            if revokingTokens {
                try db.execute(sql: "DELETE FROM api_token WHERE user_id = ?", arguments: [userID])
                try Administration.record(actor: row["username"], action: "revoked the API tokens with the reset", subject: "", at: now, db)
            }
            return .valid
        }
    }

    private static func row(_ token: String, _ db: Database) throws -> Row? {
        guard token.utf8.count == 43 else { return nil }
        return try Row.fetchOne(
            db,
            sql: "SELECT password_reset.*, user.username FROM password_reset JOIN user ON user.id = password_reset.user_id WHERE token_hash = ?",
            arguments: [SessionStore.fingerprint(token)]
        )
    }

    private static func state(_ row: Row, now: Date) -> LinkState {
        if row.optionalDate("used_at") != nil { return .used }
        return row.date("expires_at") <= now ? .expired : .valid
    }
}

/// Sign-up invitations for `accounts.signup: invite`: single-use links valid 7 days, listed and
/// revocable on `/admin`, stored as the SHA-256 of their token.
public struct Invites: Sendable {
    public static let lifetime: TimeInterval = 7 * 86_400

    public struct Invite: Sendable, Equatable {
        public let id: InviteID
        public let createdBy: String
        public let createdAt: Date
        public let expiresAt: Date
        public let usedBy: String?
    }

    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    public func create(by actor: Administration.Actor) async throws -> String {
        let token = SecureRandom.token()
        let now = clock.now()
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO invite (token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [SessionStore.fingerprint(token), actor.username, StoredDate(now), StoredDate(now.addingTimeInterval(Self.lifetime))]
            )
            try Administration.record(actor: actor.username, action: "made invite", subject: "#\(db.lastInsertedRowID)", at: now, db)
        }
        return token
    }

    /// Every invite, newest first.
    public func all() async throws -> [Invite] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM invite ORDER BY created_at DESC, id DESC").map {
                Invite(id: $0["id"], createdBy: $0["created_by"], createdAt: $0.date("created_at"), expiresAt: $0.date("expires_at"), usedBy: $0["used_by"])
            }
        }
    }

    /// Revokes an unused invite; false when there is no such unused invite.
    public func revoke(id: InviteID, by actor: Administration.Actor) async throws -> Bool {
        let now = clock.now()
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM invite WHERE id = ? AND used_at IS NULL", arguments: [id])
            guard db.changesCount == 1 else { return false }
            try Administration.record(actor: actor.username, action: "revoked invite", subject: "#\(id)", at: now, db)
            return true
        }
    }

    public func check(token: String) async throws -> LinkState {
        let now = clock.now()
        return try await database.pool.read { db in try Self.state(hash: Self.hash(token), now: now, db) }
    }

    /// What an invite is kept under: the SHA-256 of its token; nil for what cannot be a token.
    public static func hash(_ token: String) -> Data? {
        token.utf8.count == 43 ? SessionStore.fingerprint(token) : nil
    }

    static func state(hash: Data?, now: Date, _ db: Database) throws -> LinkState {
        guard let hash, let row = try Row.fetchOne(db, sql: "SELECT used_at, expires_at FROM invite WHERE token_hash = ?", arguments: [hash])
        else { return .unknown }
        if row.optionalDate("used_at") != nil { return .used }
        return row.date("expires_at") <= now ? .expired : .valid
    }

    /// Spends the invite for `username` inside the transaction that creates the account.
    static func spend(_ token: String, for username: String, now: Date, _ db: Database) throws -> LinkState {
        try spend(hash: hash(token), for: username, now: now, db)
    }

    /// Spends the invite kept under `hash` (a sign-in through single sign-on carries no token).
    static func spend(hash: Data?, for username: String, now: Date, _ db: Database) throws -> LinkState {
        let state = try state(hash: hash, now: now, db)
        guard state == .valid, let hash else { return state }
        try db.execute(sql: "UPDATE invite SET used_at = ?, used_by = ? WHERE token_hash = ?", arguments: [StoredDate(now), username, hash])
        return .valid
    }
}
