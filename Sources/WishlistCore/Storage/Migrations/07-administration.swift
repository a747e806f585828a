import GRDB

// Migration "7-administration"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-07.sql`.
extension Migrations {
    /// Admins, disabled accounts, one-time links (password resets and invites) and the audit log.
    /// Links keep only their token's SHA-256, and stay after use so their pages can say "used".
    /// The audit log names people as text: it outlives the accounts it mentions.
    static func createAdministration(_ db: Database) throws {
        try db.alter(table: "user") { table in
            table.add(column: "is_admin", .boolean).notNull().defaults(to: false)
            table.add(column: "disabled_at", .datetime)
        }
        try db.create(table: "password_reset") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
            table.column("expires_at", .datetime).notNull()
            table.column("used_at", .datetime)
        }
        try db.create(table: "invite") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_by", .text).notNull()
            table.column("created_at", .datetime).notNull()
            table.column("expires_at", .datetime).notNull()
            table.column("used_at", .datetime)
            table.column("used_by", .text)
        }
        try db.create(table: "audit_event") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("happened_at", .datetime).notNull().indexed()
            table.column("actor", .text).notNull()
            table.column("action", .text).notNull()
            table.column("subject", .text).notNull()
        }
    }
}
