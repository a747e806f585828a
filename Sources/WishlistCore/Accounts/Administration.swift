import Foundation
import GRDB

/// What admins do to accounts, each change written to the audit log in the same transaction.
/// Admins see who has an account and how much they use it, never what is on their lists.
public struct Administration: Sendable {
    /// One account as `/admin` lists it.
    public struct Account: Sendable, Equatable {
        public let id: UserID
        public let username: String
        /// What the member chose to be known by, nil for none: `/admin` shows both names.
        public let displayName: String?
        public let createdAt: Date
        public let lastSeenAt: Date?
        public let itemCount: Int
        public let isAdmin: Bool
        public let isDisabled: Bool
        /// How the account can sign in: password, passkeys, single sign-on.
        public let waysIn: SignInIdentities.WaysIn
    }

    /// The admin doing something, as the audit log names them.
    public struct Actor: Sendable, Equatable {
        public let userID: UserID
        public let username: String

        public init(userID: UserID, username: String) {
            self.userID = userID
            self.username = username
        }
    }

    public struct AuditEvent: Sendable, Equatable {
        public let at: Date
        public let actor: String
        public let action: String
        public let subject: String
    }

    /// Why an admin's change was refused, changing nothing. The web layer words each in the
    /// reader's language (`Administration.Refusal.page`); the command line, in its own English.
    public enum Refusal: Error, Equatable {
        case noSuchUser
        case lastAdmin
        case yourself
        /// The acting admin was demoted, disabled or deleted meanwhile (by another admin, or by
        /// `wishlist user` in a shell) and may no longer change accounts.
        case noLongerAdmin
        /// The account is the last manager of a child's profile, which would be left to nobody
        /// (docs/decisions/the-last-manager-stays.md).
        case lastManager
    }

    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Page `number` (from 1) of the accounts whose username or display name contains `filter`
    /// (case-insensitive; all accounts when it is empty), with the last visit and book count of
    /// each account on it: the wants on her household lists, since a private list is hers alone,
    /// an admin's eyes included.
    public func accounts(containing filter: String = "", page number: Int = 1) async throws -> PagedList<Account> {
        let key = MemberName.key(filter)
        let matching = "?1 = '' OR instr(username_key, ?1) > 0 OR instr(display_name_key, ?1) > 0"
        return try await database.pool.read { db in
            // instr() scans the names, which at ten thousand accounts takes about a millisecond;
            // the per-account subqueries run only for the page's rows.
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE \(matching)", arguments: [key]) ?? 0
            let accounts = try Row.fetchAll(db, sql: """
                SELECT user.id, user.username, user.display_name, user.created_at, user.is_admin, user.disabled_at,
                    (SELECT MAX(last_seen_at) FROM session WHERE session.user_id = user.id) AS last_seen_at,
                    (SELECT COUNT(*) FROM wishlist_item WHERE wishlist_item.user_id = user.id AND shared) AS item_count,
                    user.password_hash <> '' AS has_password,
                    (SELECT COUNT(*) FROM passkey WHERE passkey.user_id = user.id) AS passkeys,
                    (SELECT COUNT(*) FROM sign_in_identity WHERE sign_in_identity.user_id = user.id) AS identities
                FROM user WHERE \(matching)
                ORDER BY username_key LIMIT ?2 OFFSET ?3
                """, arguments: [key, PagedList<Account>.size, PagedList<Account>.offset(number)]
            ).map { row in
                Account(
                    id: row["id"], username: row["username"], displayName: row["display_name"], createdAt: row.date("created_at"), lastSeenAt: row.optionalDate("last_seen_at"),
                    itemCount: row["item_count"], isAdmin: row["is_admin"], isDisabled: row.optionalDate("disabled_at") != nil,
                    waysIn: .init(password: row["has_password"], passkeys: row["passkeys"], identities: row["identities"])
                )
            }
            return PagedList(items: accounts, total: total, number: number)
        }
    }

    /// The account's name, or nil when there is no such account.
    public func username(userID: UserID) async throws -> String? {
        try await database.pool.read { db in try String.fetchOne(db, sql: "SELECT username FROM user WHERE id = ?", arguments: [userID]) }
    }

    /// Disables (ending every session at once) or enables an account.
    public func setDisabled(_ disabled: Bool, userID: UserID, by actor: Administration.Actor) async throws {
        if disabled && userID == actor.userID { throw Refusal.yourself }
        let now = clock.now()
        try await database.write { db in
            try Self.requireAdmin(actor, db)
            let name = try Self.username(userID, db)
            try Self.keepingAnAdmin(whileChanging: userID, db) {
                try db.execute(sql: "UPDATE user SET disabled_at = ? WHERE id = ?", arguments: [disabled ? StoredDate(now) : nil, userID])
            }
            if disabled { try db.execute(sql: "DELETE FROM session WHERE user_id = ?", arguments: [userID]) }
            try Self.record(actor: actor.username, action: disabled ? "disabled" : "enabled", subject: name, at: now, db)
        }
    }

    /// Removes every passkey and single sign-on identity of the account, with a password reset
    /// the admin suspects is needed because someone else got in: either, added through a stolen
    /// session, would outlive the new password. Returns how many of each went.
    @discardableResult
    public func removePasskeysAndIdentities(userID: UserID, by actor: Administration.Actor) async throws -> (passkeys: Int, identities: Int) {
        let now = clock.now()
        return try await database.write { db in
            try Self.requireAdmin(actor, db)
            let name = try Self.username(userID, db)
            try db.execute(sql: "DELETE FROM passkey WHERE user_id = ?", arguments: [userID])
            let passkeys = db.changesCount
            try db.execute(sql: "DELETE FROM sign_in_identity WHERE user_id = ?", arguments: [userID])
            let identities = db.changesCount
            var removed = [passkeys == 1 ? "1 passkey" : "\(passkeys) passkeys"]
            if identities > 0 { removed.append(identities == 1 ? "1 single sign-on identity" : "\(identities) single sign-on identities") }
            try Self.record(actor: actor.username, action: "removed \(removed.joined(separator: " and ")) of", subject: name, at: now, db)
            return (passkeys, identities)
        }
    }

    /// Deletes an account and everything of theirs; never the last active admin.
    public func delete(userID: UserID, by actor: Administration.Actor) async throws {
        let now = clock.now()
        let worthRewriting = try await database.write { db in
            try Self.requireAdmin(actor, db)
            let name = try Self.username(userID, db)
            let worthRewriting = try AccountDeletion.delete(userID: userID, username: name, db)
            try Self.record(actor: actor.username, action: "deleted", subject: name, at: now, db)
            return worthRewriting
        }
        await AccountDeletion.erase(database, rewriting: worthRewriting)
    }

    /// Makes an account an admin or not, for `wishlist user promote|demote`. The last admin stays one.
    public func setAdmin(_ admin: Bool, username: String) async throws {
        let now = clock.now()
        try await database.write { db in
            guard let id = try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username_key = ?", arguments: [AccountRules.key(username)]) else {
                throw Refusal.noSuchUser
            }
            try Self.keepingAnAdmin(whileChanging: id, db) {
                try db.execute(sql: "UPDATE user SET is_admin = ? WHERE id = ?", arguments: [admin, id])
            }
            try Self.record(actor: "command line", action: admin ? "made admin" : "no longer admin", subject: username, at: now, db)
        }
    }

    public func recentEvents(limit: Int = 50) async throws -> [AuditEvent] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM audit_event ORDER BY happened_at DESC, id DESC LIMIT ?", arguments: [limit]).map {
                AuditEvent(at: $0.date("happened_at"), actor: $0["actor"], action: $0["action"], subject: $0["subject"])
            }
        }
    }

    static func record(actor: String, action: String, subject: String, at now: Date, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO audit_event (happened_at, actor, action, subject) VALUES (?, ?, ?, ?)",
            arguments: [StoredDate(now), actor, action, subject]
        )
    }

    static func username(_ userID: UserID, _ db: Database) throws -> String {
        guard let name = try String.fetchOne(db, sql: "SELECT username FROM user WHERE id = ?", arguments: [userID]) else { throw Refusal.noSuchUser }
        return name
    }

    /// Runs `change` to `userID`'s account, then refuses (rolling the transaction back) if it
    /// took away the server's last active admin. Checked in the writer's transaction after the
    /// change, so two admins removing each other at once cannot both pass: SQLite runs one write
    /// at a time, and the second sees the first.
    static func keepingAnAdmin(whileChanging userID: UserID, _ db: Database, _ change: () throws -> Void) throws {
        let wasAdmin = try isActiveAdmin(userID, db)
        try change()
        if wasAdmin, try activeAdminCount(db) == 0 { throw Refusal.lastAdmin }
    }

    /// The acting admin must still be one when the change is written, not only when the request began.
    private static func requireAdmin(_ actor: Actor, _ db: Database) throws {
        guard try isActiveAdmin(actor.userID, db) else { throw Refusal.noLongerAdmin }
    }

    private static func isActiveAdmin(_ userID: UserID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT is_admin AND disabled_at IS NULL FROM user WHERE id = ?", arguments: [userID]) ?? false
    }

    private static func activeAdminCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE is_admin AND disabled_at IS NULL") ?? 0
    }
}
