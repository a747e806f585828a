import GRDB

// Migration "28-data-review"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-28.sql`.
extension Migrations {
    /// Issue 50, two changes.
    ///
    /// A Goodreads import is written in short transactions, so that nobody else waits on the one
    /// writer for its whole run (`GoodreadsImporter`). It stays all or nothing for its member:
    /// each row it writes (a wish, a reading, a book it had to add) carries its `import_id`, and
    /// its `goodreads_import` row lives until the import has finished. A failure, or a process
    /// that stopped in the middle, leaves that row behind, and whatever carries its id is deleted.
    /// The ids stay on the rows afterwards (clearing them would write every row again); the
    /// table's ids are never reused, so a finished import's id never names a new one.
    ///
    /// A received book wished for again is a new wish and stays received: the date she wished
    /// for it again is kept on the received book, for its givers' "Given" history.
    static func trackImportsAndWishesAgain(_ db: Database) throws {
        try db.create(table: "goodreads_import") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("started_at", .datetime).notNull()
        }
        for table in ["wishlist_item", "reading", "book"] {
            try db.alter(table: table) { $0.add(column: "import_id", .integer) }
            try db.execute(sql: "CREATE INDEX \(table)_by_import ON \(table) (import_id) WHERE import_id IS NOT NULL")
        }
        try db.alter(table: "received_item") { $0.add(column: "wished_again_at", .datetime) }
    }
}
