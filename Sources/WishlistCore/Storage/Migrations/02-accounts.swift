import GRDB

// Migration "2-accounts"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-02.sql`.
extension Migrations {
    /// Users, their sign-in sessions, and the events that throttle sign-in and sign-up.
    static func createAccounts(_ db: Database) throws {
        try db.create(table: "user") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("username", .text).notNull()
            // Lower-cased copies make "Alice" and "alice" the same account.
            table.column("username_key", .text).notNull().unique()
            table.column("email", .text)
            table.column("email_key", .text).unique()
            table.column("password_hash", .text).notNull()
            table.column("created_at", .datetime).notNull()
        }
        try db.create(table: "session") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            // SHA-256 of the cookie's token: a copy of the database cannot be used to sign in.
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
            table.column("last_seen_at", .datetime).notNull()
            table.column("user_agent", .text).notNull().defaults(to: "")
        }
        try db.create(table: "throttle_event") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("scope", .text).notNull()
            table.column("happened_at", .datetime).notNull()
        }
        try db.create(index: "throttle_event_on_scope_time", on: "throttle_event", columns: ["scope", "happened_at"])
        try db.create(index: "throttle_event_on_time", on: "throttle_event", columns: ["happened_at"])
    }
}
