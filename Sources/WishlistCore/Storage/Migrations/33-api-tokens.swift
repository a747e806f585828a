import GRDB

// Migration "33-api-tokens"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-33.sql`.
extension Migrations {
    /// Personal API tokens (issue 54): each a member's, named, read or read-write, with an expiry
    /// or none. Only the SHA-256 of the secret is kept, as for share links; when and from which
    /// client address it was last used is written at most once a minute per token.
    static func createAPITokens(_ db: Database) throws {
        try db.create(table: "api_token") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("name", .text).notNull()
            // `read` or `read-write` (``APIScope``).
            table.column("scope", .text).notNull()
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
            table.column("expires_at", .datetime)
            table.column("last_used_at", .datetime)
            table.column("last_used_from", .text)
        }
    }
}
