import GRDB

// Migration "3-catalog"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-03.sql`.
extension Migrations {
    /// The cached catalog, the API request log, and each user's favourite lists.
    static func createCatalog(_ db: Database) throws {
        try db.create(table: "catalog_list") { table in
            table.primaryKey("name_encoded", .text)
            table.column("display_name", .text).notNull()
            table.column("frequency", .text).notNull()
            table.column("newest_published_date", .text).notNull()
            // Lists the API still publishes; dead ones stay for history but are not shown.
            table.column("is_current", .boolean).notNull().defaults(to: false)
            table.column("published_date", .text)
            table.column("fetched_at", .datetime)
        }
        try db.create(table: "book") { table in
            table.primaryKey("id", .text)
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("contributor", .text).notNull()
            table.column("publisher", .text).notNull()
            table.column("description", .text).notNull()
            table.column("price", .text)
            table.column("isbn10", .text).notNull()
            table.column("isbn13", .text).notNull()
            table.column("other_isbns", .text).notNull()
            table.column("image_url", .text)
            table.column("image_width", .integer).notNull()
            table.column("image_height", .integer).notNull()
        }
        try db.create(table: "book_link") { table in
            table.column("book_id", .text).notNull().references("book", onDelete: .cascade)
            table.column("kind", .text).notNull()
            table.column("position", .integer).notNull()
            table.column("name", .text).notNull()
            table.column("url", .text).notNull()
            table.primaryKey(["book_id", "kind", "position"])
        }
        try db.create(table: "list_entry") { table in
            table.column("list_name_encoded", .text).notNull().references("catalog_list", onDelete: .cascade)
            table.column("rank", .integer).notNull()
            table.column("book_id", .text).notNull().indexed().references("book")
            table.column("rank_last_week", .integer).notNull()
            table.column("weeks_on_list", .integer).notNull()
            table.primaryKey(["list_name_encoded", "rank"])
        }
        // Full-text search over title and author that ignores case and accents.
        try db.execute(sql: """
            CREATE VIRTUAL TABLE book_search USING fts5(book_id UNINDEXED, title, author, tokenize = 'unicode61 remove_diacritics 2')
            """)
        try db.create(table: "favorite_list") { table in
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("list_name_encoded", .text).notNull()
            table.column("created_at", .datetime).notNull()
            table.primaryKey(["user_id", "list_name_encoded"])
        }
        try db.create(table: "api_request") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("requested_at", .datetime).notNull().indexed()
        }
        try db.create(table: "catalog_sync_state") { table in
            table.primaryKey("id", .integer).check { $0 == 1 }
            table.column("source", .text).notNull()
            table.column("last_attempt_at", .datetime)
            table.column("last_success_at", .datetime)
            table.column("last_error", .text)
            table.column("consecutive_failures", .integer).notNull().defaults(to: 0)
        }
    }
}
