import GRDB

// Migration "1-secrets"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-01.sql`.
extension Migrations {
    /// Server-side secrets that must survive restarts (the CSRF key).
    static func createSecrets(_ db: Database) throws {
        try db.create(table: "secret") { table in
            table.primaryKey("name", .text)
            table.column("value", .blob).notNull()
        }
    }
}
