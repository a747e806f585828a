import GRDB

// Migration "4-wishlist"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-04.sql`.
extension Migrations {
    /// Wishlist items keep their own copy of what the user saw, so they outlive the catalog's
    /// lists; and each user may choose the list that opens after sign-in.
    static func createWishlist(_ db: Database) throws {
        try db.create(table: "wishlist_item") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            // The catalog's id, or NULL for a book imported from elsewhere.
            table.column("book_id", .text)
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("publisher", .text).notNull()
            table.column("description", .text).notNull()
            table.column("isbn10", .text).notNull()
            table.column("isbn13", .text).notNull()
            table.column("image_url", .text)
            table.column("image_width", .integer).notNull()
            table.column("image_height", .integer).notNull()
            table.column("buy_links", .text).notNull()
            table.column("reading_links", .text).notNull()
            table.column("note", .text).notNull().defaults(to: "")
            table.column("added_at", .datetime).notNull()
        }
        try db.create(index: "wishlist_item_unique_book", on: "wishlist_item", columns: ["user_id", "book_id"], unique: true)
        try db.create(index: "wishlist_item_by_added", on: "wishlist_item", columns: ["user_id", "added_at"])
        try db.execute(sql: "CREATE INDEX wishlist_item_by_title ON wishlist_item (user_id, title COLLATE NOCASE)")
        try db.execute(sql: "CREATE INDEX wishlist_item_by_author ON wishlist_item (user_id, author COLLATE NOCASE)")
        try db.alter(table: "user") { table in
            table.add(column: "default_list", .text)
        }
    }
}
