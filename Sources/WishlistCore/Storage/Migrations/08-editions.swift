import GRDB

// Migration "8-editions"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-08.sql`.
extension Migrations {
    /// Every edition of every list, kept by published date, so books have a rank history and old
    /// editions can be read. `list_entry` stays the current edition (the pages' fast path); the
    /// current editions already stored become the first history.
    static func createEditions(_ db: Database) throws {
        try db.create(table: "edition") { table in
            table.column("list_name_encoded", .text).notNull().references("catalog_list", onDelete: .cascade)
            table.column("published_date", .text).notNull()
            // The date of the edition before, as the API named it; NULL until an answer says it.
            table.column("previous_published_date", .text)
            table.column("fetched_at", .datetime).notNull()
            table.primaryKey(["list_name_encoded", "published_date"])
        }
        try db.create(table: "edition_entry") { table in
            table.column("list_name_encoded", .text).notNull()
            table.column("published_date", .text).notNull()
            table.column("rank", .integer).notNull()
            table.column("book_id", .text).notNull().references("book")
            table.column("rank_last_week", .integer).notNull()
            table.column("weeks_on_list", .integer).notNull()
            table.primaryKey(["list_name_encoded", "published_date", "rank"])
            table.foreignKey(["list_name_encoded", "published_date"], references: "edition", onDelete: .cascade)
        }
        // A book's history: its entries by list and date, in one index range.
        try db.create(index: "edition_entry_by_book", on: "edition_entry", columns: ["book_id", "list_name_encoded", "published_date"])
        try db.execute(sql: """
            INSERT INTO edition (list_name_encoded, published_date, fetched_at)
            SELECT name_encoded, published_date, COALESCE(fetched_at, CURRENT_TIMESTAMP) FROM catalog_list WHERE published_date IS NOT NULL
            """)
        try db.execute(sql: """
            INSERT INTO edition_entry (list_name_encoded, published_date, rank, book_id, rank_last_week, weeks_on_list)
            SELECT list_entry.list_name_encoded, catalog_list.published_date, list_entry.rank, list_entry.book_id,
                list_entry.rank_last_week, list_entry.weeks_on_list
            FROM list_entry JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded
            WHERE catalog_list.published_date IS NOT NULL
            """)
    }
}
