import GRDB

// Migration "27-mail-review"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-27.sql`.
extension Migrations {
    /// Issue 50. The outbox's messages are sealed from now on (``OutboxKey``); the ones written
    /// before were readable, links and all, so their words go, zeroed in the file, and a message
    /// that still waited fails with a sentence for `/admin`: its link can be asked for again.
    /// And `email_key` becomes the key of a confirmed address only, so that its UNIQUE holds
    /// among confirmed addresses and an unconfirmed one blocks nobody (dropping the column's
    /// constraint instead would mean rebuilding `user`, its triggers and every reference to it).
    static func sealMailAndFreeUnconfirmedAddresses(_ db: Database) throws {
        let secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 0
        try db.execute(sql: "PRAGMA secure_delete = ON")
        try db.execute(sql: """
            UPDATE mail_outbox SET state = 'failed', finished_at = strftime('%Y-%m-%d %H:%M:%f', 'now'),
                last_reply = 'not sent: written before an upgrade that keeps no message readable in the database; ask for it again'
                WHERE state = 'waiting';
            UPDATE mail_outbox SET message = X'';
            UPDATE user SET email_key = NULL WHERE email_verified_at IS NULL;
            """)
        try db.execute(sql: "PRAGMA secure_delete = \(secureDelete)")
    }
}
