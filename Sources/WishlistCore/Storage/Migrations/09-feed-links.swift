import GRDB

// Migration "9-feed-links"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-09.sql`.
extension Migrations {
    /// The Atom feed's secret link, one per user, kept like the share link: only the token's SHA-256.
    static func createFeedLinks(_ db: Database) throws {
        try db.create(table: "feed_link") { table in
            table.primaryKey("user_id", .integer).references("user", onDelete: .cascade)
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
        }
    }
}
