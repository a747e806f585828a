import GRDB

// Migration "32-first-week"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-32.sql`.
extension Migrations {
    /// A family's first week (issue 57): the setup link that makes a new server's first admin
    /// (``SetupLinks``). At most one row: each start replaces it while the server has no admin.
    /// Only the token's SHA-256 is kept, and the row stays after use so its page can say "used".
    static func createFirstWeek(_ db: Database) throws {
        try db.create(table: "setup_link") { table in
            table.column("token_hash", .blob).notNull().primaryKey()
            table.column("created_at", .datetime).notNull()
            table.column("used_at", .datetime)
        }
    }
}
