import Foundation
import GRDB

/// The `user` table.
struct UserStore: Sendable {
    enum Conflict: Error, Equatable {
        case username
        /// The invite was spent, expired or revoked between the form and the write.
        case invite(LinkState)
        /// The setup link was used, or an admin appeared, between the form and the write.
        case setupLink(LinkState)
    }

    let database: AppDatabase
    let clock: WallClock

    func find(username: String) async throws -> User? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM user WHERE username_key = ?", arguments: [AccountRules.key(username)])
                .map(User.init(row:))
        }
    }

    func find(id: UserID) async throws -> User? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM user WHERE id = ?", arguments: [id]).map(User.init(row:))
        }
    }

    /// Inserts a user; a name already taken (in any letter case) throws `Conflict`. An address is
    /// stored unconfirmed, whoever else gave it: it is unique only once confirmed
    /// (``AccountMail/verify(token:)``), so sign-up tells nobody whether it is known.
    /// With `invite`, the invite is spent in the same transaction, or nothing is created; with
    /// `setupLink`, likewise the setup link, and the account is the server's first admin.
    func create(
        username: String, email: String?, passwordHash: String, isAdmin: Bool = false, invite: String? = nil, setupLink: String? = nil
    ) async throws -> User {
        let now = clock.now()
        return try await database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE username_key = ?", arguments: [AccountRules.key(username)]) == true {
                throw Conflict.username
            }
            if let invite {
                let state = try Invites.spend(invite, for: username, now: now, db)
                guard state == .valid else { throw Conflict.invite(state) }
            }
            var isAdmin = isAdmin
            if let setupLink {
                let state = try SetupLinks.spend(setupLink, now: now, db)
                guard state == .valid else { throw Conflict.setupLink(state) }
                isAdmin = true
            }
            try db.execute(
                sql: """
                    INSERT INTO user (username, username_key, username_skeleton, email, password_hash, created_at, is_admin)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [username, AccountRules.key(username), NameSkeleton.of(username), email, passwordHash, StoredDate(now), isAdmin]
            )
            return try Row.fetchOne(db, sql: "SELECT * FROM user WHERE id = ?", arguments: [db.lastInsertedRowID]).map(User.init(row:))!
        }
    }

    /// Upgrades the hash of the same password to the configured parameters.
    func updatePasswordHash(userID: UserID, to hash: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE user SET password_hash = ? WHERE id = ?", arguments: [hash, userID])
        }
    }

    /// Sets a new hash and ends every session of the user but `keptSessionID`, in one transaction:
    /// a password that changed never leaves another browser signed in.
    func updatePasswordHash(userID: UserID, to hash: String, endingSessionsExcept keptSessionID: SessionID?) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE user SET password_hash = ? WHERE id = ?", arguments: [hash, userID])
            try db.execute(sql: "DELETE FROM session WHERE user_id = ? AND id IS NOT ?", arguments: [userID, keptSessionID])
        }
    }

    /// The distinct Argon2 parameter fields (`m=…,t=…,p=…`) of the stored hashes.
    func passwordParameterSets() async throws -> [String] {
        try await database.pool.read { db in
            // Every hash starts `$argon2id$v=19$`; the parameters run from there to the next `$`.
            try String.fetchAll(db, sql: """
                SELECT DISTINCT substr(password_hash, 16, instr(substr(password_hash, 16), '$') - 1) FROM user
                WHERE password_hash LIKE '$argon2id$v=19$%'
                """)
        }
    }

    /// Removes the user; every row that belongs to them goes with it: foreign keys cascade, and
    /// the failed sign-ins counted under their name, which refer to them by name, go here.
    /// Throws `Administration.Refusal.lastAdmin`, changing nothing, for the last active admin.
    /// The member's language: a shipped language's code, or nil to follow her browser.
    func setLanguage(userID: UserID, _ code: String?) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE user SET language = ? WHERE id = ?", arguments: [code, userID])
        }
    }

    func delete(userID: UserID) async throws {
        let worthRewriting = try await database.write { db in
            guard let username = try String.fetchOne(db, sql: "SELECT username FROM user WHERE id = ?", arguments: [userID]) else { return false }
            return try AccountDeletion.delete(userID: userID, username: username, db)
        }
        await AccountDeletion.erase(database, rewriting: worthRewriting)
    }
}
