import GRDB

// Migration "6-household"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-06.sql`.
extension Migrations {
    /// Sharing with the household, gift reservations, item priorities and share links.
    ///
    /// A reservation keeps copies of the owner's name and the book's title, because it outlives
    /// what it points at: when the owner removes the item (or deletes the account) the foreign
    /// keys become NULL and the giver is told what happened until they dismiss it.
    static func createHousehold(_ db: Database) throws {
        try db.alter(table: "user") { table in
            table.add(column: "sharing", .text).notNull().defaults(to: "private")
        }
        try db.alter(table: "wishlist_item") { table in
            // 1 high, 0 normal, -1 low: "high first" is a descending sort on an index.
            table.add(column: "priority", .integer).notNull().defaults(to: 0)
        }
        try db.create(index: "wishlist_item_by_priority", on: "wishlist_item", columns: ["user_id", "priority", "added_at"])
        try db.create(index: "user_by_sharing", on: "user", columns: ["sharing", "username_key"])
        try db.create(table: "reservation") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("item_id", .integer).unique().references("wishlist_item", onDelete: .setNull)
            table.column("giver_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("owner_id", .integer).indexed().references("user", onDelete: .setNull)
            table.column("owner_name", .text).notNull()
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("reserved_at", .datetime).notNull()
        }
        try db.create(table: "share_link") { table in
            table.primaryKey("user_id", .integer).references("user", onDelete: .cascade)
            // SHA-256 of the link's token, as for sessions.
            table.column("token_hash", .blob).notNull().unique()
            table.column("created_at", .datetime).notNull()
        }
    }
}
