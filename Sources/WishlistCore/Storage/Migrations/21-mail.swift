import GRDB

// Migration "21-mail"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-21.sql`.
extension Migrations {
    /// The outbox, address verification, the weekly digest's choice and its unsubscribe links.
    /// Addresses given before mail existed start unverified: nobody has shown they are theirs.
    static func createMail(_ db: Database) throws {
        try db.create(table: "mail_outbox") { table in
            table.autoIncrementedPrimaryKey("id")
            // verification, password-reset, invite, digest, test
            table.column("kind", .text).notNull()
            // Deleting an account takes its unsent mail with it.
            table.column("user_id", .integer).references("user", onDelete: .cascade)
            table.column("recipient", .text).notNull()
            table.column("message", .blob).notNull()
            table.column("created_at", .datetime).notNull()
            table.column("next_attempt_at", .datetime).notNull()
            table.column("attempts", .integer).notNull().defaults(to: 0)
            // waiting, sent, failed
            table.column("state", .text).notNull().defaults(to: "waiting")
            table.column("last_reply", .text)
            table.column("finished_at", .datetime)
        }
        try db.create(index: "mail_outbox_due", on: "mail_outbox", columns: ["state", "next_attempt_at"])
        try db.create(table: "email_verification") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("email", .text).notNull()
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
            table.column("expires_at", .datetime).notNull()
            table.column("used_at", .datetime)
        }
        try db.create(index: "email_verification_by_user", on: "email_verification", columns: ["user_id"])
        try db.create(table: "unsubscribe_link") { table in
            table.column("token_hash", .blob).primaryKey()
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("created_at", .datetime).notNull()
        }
        try db.create(index: "unsubscribe_link_by_user", on: "unsubscribe_link", columns: ["user_id"])
        try db.alter(table: "user") { table in
            table.add(column: "email_verified_at", .datetime)
            table.add(column: "digest_weekly", .boolean).notNull().defaults(to: false)
            // The Monday (yyyy-MM-dd) of the last week a digest was queued for.
            table.add(column: "digest_week", .text)
        }
    }
}
