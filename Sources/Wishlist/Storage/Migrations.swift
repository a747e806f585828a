import GRDB

extension AppDatabase {
    /// The schema's history. Append new migrations; never edit one that has shipped, because
    /// databases from earlier versions upgrade by replaying only what they lack.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1-secrets", migrate: createSecrets)
        migrator.registerMigration("2-accounts", migrate: createAccounts)
        return migrator
    }

    /// Server-side secrets that must survive restarts (the CSRF key).
    private static func createSecrets(_ db: Database) throws {
        try db.create(table: "secret") { table in
            table.primaryKey("name", .text)
            table.column("value", .blob).notNull()
        }
    }

    /// Users, their sign-in sessions, and the events that throttle sign-in and sign-up.
    private static func createAccounts(_ db: Database) throws {
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
