import Crypto
import Foundation
import GRDB

/// A passkey as Settings lists it.
public struct Passkey: Sendable, Equatable {
    public let id: PasskeyID
    public let name: String
    public let createdAt: Date
    public let lastUsedAt: Date?
    /// Base64url of the credential id, as the command line shows it.
    public let credentialID: String
}

/// A stored credential, as a sign-in checks it.
struct StoredCredential: Sendable {
    let id: PasskeyID
    let userID: UserID
    let publicKey: COSEKey
    let signCount: UInt32
    let userHandle: [UInt8]
}

/// Passkeys, the per-user handle authenticators keep, and the single-use challenges of the
/// ceremonies, in SQLite.
public struct PasskeyStore: Sendable {
    public enum Purpose: String, Sendable {
        case registration, signIn = "sign-in"
    }

    /// Who asked for a challenge: the browser (the SHA-256 of its cookie token, so that the row
    /// does not hold the token) and its client address.
    public struct Asker: Sendable, Equatable {
        let browser: [UInt8]
        let address: String

        public init(cookieToken: String, address: String) {
            browser = Array(SHA256.hash(data: Array(cookieToken.utf8)))
            self.address = address
        }
    }

    /// A browser's live challenges beyond this are dropped, oldest first: a person starts a
    /// ceremony or two again, not dozens.
    static let liveChallengesPerBrowser = 3
    /// An address with this many live challenges is asking in a loop: refuse it more until some
    /// expire (five minutes), which leaves everyone else's passkeys working.
    static let liveChallengesPerAddress = 30

    enum Conflict: Error {
        case credentialRegistered
        case tooManyChallenges
    }

    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    // MARK: Challenges

    /// Stores a new challenge for `asker` (deleting expired ones, and the browser's oldest beyond
    /// its few, on the way) and returns it; refuses an address that holds too many.
    func issueChallenge(_ purpose: Purpose, userID: UserID?, for asker: Asker, expiresAt: Date, now: Date) async throws -> [UInt8] {
        let challenge = SecureRandom.bytes(32)
        try await database.write { db in
            try db.execute(sql: "DELETE FROM passkey_challenge WHERE expires_at <= ?", arguments: [StoredDate(now)])
            let fromAddress = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM passkey_challenge WHERE address = ?", arguments: [asker.address]) ?? 0
            guard fromAddress < Self.liveChallengesPerAddress else { throw Conflict.tooManyChallenges }
            try db.execute(
                sql: """
                    DELETE FROM passkey_challenge WHERE browser = ?1 AND rowid NOT IN
                        (SELECT rowid FROM passkey_challenge WHERE browser = ?1 ORDER BY expires_at DESC LIMIT ?2)
                    """,
                arguments: [Data(asker.browser), Self.liveChallengesPerBrowser - 1]
            )
            try db.execute(
                sql: "INSERT INTO passkey_challenge (challenge, purpose, user_id, browser, address, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [Data(challenge), purpose.rawValue, userID, Data(asker.browser), asker.address, StoredDate(expiresAt)]
            )
        }
        return challenge
    }

    /// Deletes the challenge and says whether it was live, for this purpose, user and browser: it
    /// can be used once, whatever the outcome of the ceremony that spends it, and only by the
    /// browser that asked for it (a challenge lured out of another browser is worth nothing).
    func spendChallenge(_ challenge: [UInt8], _ purpose: Purpose, userID: UserID?, browser: [UInt8], now: Date) async throws -> Bool {
        try await database.write { db in
            let row = try Row.fetchOne(
                db, sql: "DELETE FROM passkey_challenge WHERE challenge = ? RETURNING purpose, user_id, browser, expires_at",
                arguments: [Data(challenge)]
            )
            guard let row else { return false }
            let expiresAt = row.date("expires_at")
            return row["purpose"] == purpose.rawValue && row["user_id"] == userID && row["browser"] == Data(browser) && expiresAt > now
        }
    }

    // MARK: Credentials

    /// The user's handle (random, made on first use): what a passkey stores to name its account.
    func userHandle(userID: UserID) async throws -> [UInt8] {
        try await database.write { db in
            if let handle = try Data.fetchOne(db, sql: "SELECT handle FROM passkey_user WHERE user_id = ?", arguments: [userID]) {
                return Array(handle)
            }
            let handle = SecureRandom.bytes(32)
            try db.execute(sql: "INSERT INTO passkey_user (user_id, handle) VALUES (?, ?)", arguments: [userID, Data(handle)])
            return handle
        }
    }

    func add(userID: UserID, name: String, credentialID: [UInt8], publicKey: COSEKey, signCount: UInt32, at now: Date) async throws {
        try await database.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM passkey WHERE credential_id = ?", arguments: [Data(credentialID)]) == nil else {
                throw Conflict.credentialRegistered
            }
            try db.execute(
                sql: "INSERT INTO passkey (user_id, credential_id, public_key, sign_count, name, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [userID, Data(credentialID), Data(publicKey.coseBytes), Int64(signCount), name, StoredDate(now)]
            )
        }
    }

    func credential(id credentialID: [UInt8]) async throws -> StoredCredential? {
        try await database.pool.read { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT passkey.id, passkey.user_id, passkey.public_key, passkey.sign_count, passkey_user.handle
                    FROM passkey JOIN passkey_user ON passkey_user.user_id = passkey.user_id WHERE passkey.credential_id = ?
                    """,
                arguments: [Data(credentialID)]
            ) else { return nil }
            let key: Data = row["public_key"], handle: Data = row["handle"], count: Int64 = row["sign_count"]
            return StoredCredential(
                id: row["id"], userID: row["user_id"], publicKey: try COSEKey(cbor: Array(key)),
                signCount: UInt32(clamping: count), userHandle: Array(handle)
            )
        }
    }

    /// Records a use: the new sign count, if it still moves forward (two sign-ins racing with the
    /// same counter cannot both pass), and the time. Returns false when another use got there first.
    func recordUse(passkeyID: PasskeyID, previousCount: UInt32, newCount: UInt32, at now: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE passkey SET sign_count = ?, last_used_at = ? WHERE id = ? AND sign_count = ?",
                arguments: [Int64(newCount), StoredDate(now), passkeyID, Int64(previousCount)]
            )
            return db.changesCount == 1
        }
    }

    public func passkeys(userID: UserID) async throws -> [Passkey] {
        try await database.pool.read { try Self.passkeys(userID: userID, $0) }
    }

    /// The same on a connection that a longer read holds.
    static func passkeys(userID: UserID, _ db: Database) throws -> [Passkey] {
        try Row.fetchAll(
            db, sql: "SELECT id, name, created_at, last_used_at, credential_id FROM passkey WHERE user_id = ? ORDER BY created_at, id",
            arguments: [userID]
        ).map { row in
            let credential: Data = row["credential_id"]
            return Passkey(
                id: row["id"], name: row["name"], createdAt: row.date("created_at"), lastUsedAt: row.optionalDate("last_used_at"),
                credentialID: Base64URL.encode(Array(credential))
            )
        }
    }

    /// The credential ids a new registration must not repeat (the browser skips those authenticators).
    func credentialIDs(userID: UserID) async throws -> [[UInt8]] {
        try await database.pool.read { db in
            try Data.fetchAll(db, sql: "SELECT credential_id FROM passkey WHERE user_id = ?", arguments: [userID]).map { Array($0) }
        }
    }

    /// The passkeys of the user named `username`, or nil when there is no such user: for the
    /// command line, which helps someone who lost the device that holds one.
    public func passkeys(username: String) async throws -> (userID: UserID, passkeys: [Passkey])? {
        let userID = try await database.pool.read { db in
            try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username_key = ?", arguments: [AccountRules.key(username)])
        }
        guard let userID else { return nil }
        return (userID, try await passkeys(userID: userID))
    }

    /// Removes one of the user's passkeys; false when the user has no such passkey.
    public func remove(passkeyID: PasskeyID, userID: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM passkey WHERE id = ? AND user_id = ?", arguments: [passkeyID, userID])
            return db.changesCount == 1
        }
    }
}
