import GRDB

// Migration "16-readers"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-16.sql`.
extension Migrations {
    /// What each member has read, rated and thought, and their profile: a bio, a birthday, a
    /// picture and favourite books (issue 28). A reading keeps its own copy of the title and
    /// author, as a wishlist item does, so a book imported from Goodreads that the catalog does
    /// not know is still a reading with a name. Readings, favourites and pictures are household
    /// pages' content, so they grow the wishlist generation like items do.
    static func createReaders(_ db: Database) throws {
        try db.create(table: "reading") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("book_id", .text)
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("isbn13", .text).notNull().defaults(to: "")
            table.column("rating", .integer).check { $0 == nil || ($0 >= 1 && $0 <= 5) }
            table.column("review", .text).notNull().defaults(to: "")
            // YYYY-MM-DD, or NULL when the reader did not say.
            table.column("finished_on", .text)
            table.column("updated_at", .datetime).notNull()
        }
        try db.create(index: "reading_unique_book", on: "reading", columns: ["user_id", "book_id"], unique: true)
        try db.create(index: "reading_by_book", on: "reading", columns: ["book_id"])
        try db.create(index: "reading_by_finished", on: "reading", columns: ["user_id", "finished_on"])
        // "How many here want it" counts a book's items across members.
        try db.create(index: "wishlist_item_by_book", on: "wishlist_item", columns: ["book_id"])
        try db.alter(table: "user") { table in
            table.add(column: "bio", .text).notNull().defaults(to: "")
            // MM-DD: a birthday without the year.
            table.add(column: "birthday", .text)
        }
        try db.create(table: "favorite_book") { table in
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("position", .integer).notNull()
            table.column("reading_id", .integer).notNull().indexed().references("reading", onDelete: .cascade)
            table.primaryKey(["user_id", "position"])
        }
        try db.create(table: "profile_picture") { table in
            table.primaryKey("user_id", .integer).references("user", onDelete: .cascade)
            // Random and new with every upload: the picture's address, cached for a year.
            table.column("key", .text).notNull().unique()
            table.column("large", .blob).notNull()
            table.column("small", .blob).notNull()
            table.column("uploaded_at", .datetime).notNull()
        }
        for table in ["reading", "favorite_book", "profile_picture"] {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_\(event.lowercased())_wishlist_generation AFTER \(event) ON \(table)
                    BEGIN UPDATE wishlist_generation SET value = value + 1; END
                    """)
            }
        }
    }
}
