import Foundation
import GRDB

/// An identity at a provider linked to an account, as Settings lists it.
public struct LinkedIdentity: Sendable, Equatable {
    public let id: IdentityID
    public let issuer: String
    public let subject: String
    public let createdAt: Date
    public let lastUsedAt: Date?
}

/// The `sign_in_identity` table: which account an identity `(issuer, sub)` signs in to. Only
/// these two name a person at a provider; an e-mail address or a name never links anything.
public struct SignInIdentities: Sendable {
    public enum Refusal: Error, Equatable, Sendable {
        /// The identity is linked to another account.
        case linkedElsewhere
        /// Unlinking it would leave the account no way in (no password, passkey or other identity).
        case lastWayIn
        case notFound
    }

    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    /// The account the identity signs in to, its use recorded.
    func user(issuer: String, subject: String, _ db: Database) throws -> User? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT user.* FROM sign_in_identity JOIN user ON user.id = sign_in_identity.user_id
            WHERE issuer = ? AND subject = ?
            """, arguments: [issuer, subject]) else { return nil }
        try db.execute(
            sql: "UPDATE sign_in_identity SET last_used_at = ? WHERE issuer = ? AND subject = ?",
            arguments: [StoredDate(clock.now()), issuer, subject]
        )
        return User(row: row)
    }

    static func insert(userID: UserID, issuer: String, subject: String, at now: Date, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO sign_in_identity (user_id, issuer, subject, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [userID, issuer, subject, StoredDate(now), StoredDate(now)]
        )
    }

    /// Links the identity to `userID`; linking it again to the same account changes nothing.
    public func link(userID: UserID, issuer: String, subject: String) async throws {
        let now = clock.now()
        try await database.write { db in
            let owner = try UserID.fetchOne(
                db, sql: "SELECT user_id FROM sign_in_identity WHERE issuer = ? AND subject = ?", arguments: [issuer, subject]
            )
            if owner == userID { return }
            guard owner == nil else { throw Refusal.linkedElsewhere }
            try Self.insert(userID: userID, issuer: issuer, subject: subject, at: now, db)
        }
    }

    /// Unlinks one of the account's identities while the account keeps another way in.
    public func unlink(identityID: IdentityID, userID: UserID) async throws {
        try await database.write { db in
            guard try Bool.fetchOne(
                db, sql: "SELECT 1 FROM sign_in_identity WHERE id = ? AND user_id = ?", arguments: [identityID, userID]
            ) == true else { throw Refusal.notFound }
            guard try Self.waysIn(userID: userID, db).count(excludingIdentity: true) > 0 else { throw Refusal.lastWayIn }
            try db.execute(sql: "DELETE FROM sign_in_identity WHERE id = ?", arguments: [identityID])
        }
    }

    /// Unlinks every identity of the account (after a password reset, or signing out everywhere,
    /// when a stolen session may have linked one), while it keeps a password or a passkey;
    /// returns how many went.
    @discardableResult
    public func unlinkAll(userID: UserID) async throws -> Int {
        try await database.write { db in
            let ways = try Self.waysIn(userID: userID, db)
            guard ways.identities == 0 || ways.password || ways.passkeys > 0 else { throw Refusal.lastWayIn }
            try db.execute(sql: "DELETE FROM sign_in_identity WHERE user_id = ?", arguments: [userID])
            return db.changesCount
        }
    }

    public func identities(of userID: UserID) async throws -> [LinkedIdentity] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sign_in_identity WHERE user_id = ? ORDER BY id", arguments: [userID]).map { row in
                LinkedIdentity(
                    id: row["id"], issuer: row["issuer"], subject: row["subject"], createdAt: row.date("created_at"),
                    lastUsedAt: row.optionalDate("last_used_at")
                )
            }
        }
    }

    /// How an account can sign in.
    public struct WaysIn: Sendable, Equatable {
        public let password: Bool
        public let passkeys: Int
        public let identities: Int

        /// The ways in left if one identity went.
        func count(excludingIdentity: Bool) -> Int {
            (password ? 1 : 0) + passkeys + identities - (excludingIdentity ? 1 : 0)
        }
    }

    static func waysIn(userID: UserID, _ db: Database) throws -> WaysIn {
        let row = try Row.fetchOne(db, sql: """
            SELECT password_hash <> '' AS password,
                   (SELECT COUNT(*) FROM passkey WHERE user_id = user.id) AS passkeys,
                   (SELECT COUNT(*) FROM sign_in_identity WHERE user_id = user.id) AS identities
            FROM user WHERE id = ?
            """, arguments: [userID])
        return WaysIn(password: row?["password"] ?? false, passkeys: row?["passkeys"] ?? 0, identities: row?["identities"] ?? 0)
    }

    public func waysIn(userID: UserID) async throws -> WaysIn {
        try await database.pool.read { db in try Self.waysIn(userID: userID, db) }
    }
}
