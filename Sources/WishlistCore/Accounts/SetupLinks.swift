import Foundation
import GRDB

/// The one-time link that makes a new server's first admin (issue 57): `wishlist serve` makes one
/// at each start while the server has no admin and prints it, so whoever runs the server, and
/// only they, can open it. It works until it has made an account or an admin exists (made by
/// the command line, say); a newer start's link replaces it. Stored as its token's SHA-256.
/// See docs/decisions/setup-link.md.
public struct SetupLinks: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    /// A new link's token, replacing any earlier link, while the server has no admin; nil once it has one.
    public func renew() async throws -> String? {
        let now = clock.now()
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM setup_link")
            guard try !Self.adminExists(db) else { return nil }
            let token = SecureRandom.token()
            try db.execute(
                sql: "INSERT INTO setup_link (token_hash, created_at) VALUES (?, ?)",
                arguments: [SessionStore.fingerprint(token), StoredDate(now)]
            )
            return token
        }
    }

    /// The link's state: `.used` once it made an account or an admin exists by other means.
    public func check(token: String) async throws -> LinkState {
        try await database.pool.read { db in try Self.state(token, db) }
    }

    /// Spends the link inside the transaction that makes the admin; the state before (only
    /// `.valid` spent it). Two people opening the link at once: the second finds it used.
    static func spend(_ token: String, now: Date, _ db: Database) throws -> LinkState {
        let state = try Self.state(token, db)
        guard state == .valid else { return state }
        try db.execute(
            sql: "UPDATE setup_link SET used_at = ? WHERE token_hash = ?", arguments: [StoredDate(now), SessionStore.fingerprint(token)]
        )
        return .valid
    }

    private static func state(_ token: String, _ db: Database) throws -> LinkState {
        guard token.utf8.count == 43,
              let row = try Row.fetchOne(db, sql: "SELECT used_at FROM setup_link WHERE token_hash = ?", arguments: [SessionStore.fingerprint(token)])
        else { return .unknown }
        if row.optionalDate("used_at") != nil { return .used }
        return try adminExists(db) ? .used : .valid
    }

    private static func adminExists(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE is_admin = 1") == true
    }
}
