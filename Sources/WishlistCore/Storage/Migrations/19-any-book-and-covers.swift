import GRDB

// Migration "19-any-book-and-covers"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-19.sql`.
extension Migrations {
    /// Books no list carries, added by a member through Open Library or by hand, and the covers
    /// the server fetches and serves itself (issue 30).
    ///
    /// An added book is a `book` row like a list's, `source` 'added', under its ISBN-13 when it
    /// has one: the NYT's books have their primary ISBN-13 as id, so when a list later carries it
    /// the list's upsert finds the same row, and wishes, reservations and readings stay on it.
    /// Adding one grows no generation: no cached page shows a book before it exists, and the
    /// catalog generation growing when a giver adds a book for an idea would re-render the
    /// owner's pages (their timing would tell her).
    ///
    /// `cover` names each image URL any page may show; pages link `/covers/{key}-{size}.jpg`
    /// with the key computed from the URL, and the files live beside the database, outside
    /// backups. Triggers add a row whenever a book or an item brings a URL, so every writer
    /// (sync, imports, the CLI) is covered. Items imported before this migration
    /// without a book get one now, so no item is a half-book without a page.
    static func createAddedBooksAndCovers(_ db: Database) throws {
        try db.alter(table: "book") { table in
            table.add(column: "source", .text).notNull().defaults(to: "nyt")
            table.add(column: "first_published", .integer)
            table.add(column: "added_at", .datetime)
        }
        for event in ["INSERT", "UPDATE"] {
            try db.execute(sql: """
                DROP TRIGGER book_\(event.lowercased())_generation;
                CREATE TRIGGER book_\(event.lowercased())_generation AFTER \(event) ON book WHEN NEW.source = 'nyt'
                BEGIN UPDATE catalog_generation SET value = value + 1; END
                """)
        }
        try db.execute(sql: """
            DROP TRIGGER book_delete_generation;
            CREATE TRIGGER book_delete_generation AFTER DELETE ON book WHEN OLD.source = 'nyt'
            BEGIN UPDATE catalog_generation SET value = value + 1; END
            """)
        try db.create(table: "cover") { table in
            table.primaryKey("url", .text)
            // `CoverKey` of the URL, which pages compute without a query; set by the cover job
            // in Swift, since SQLite has no SHA-256 for the triggers.
            table.column("key", .text).unique()
            table.column("status", .text).notNull().defaults(to: "pending")
                .check(sql: "status IN ('pending', 'ready', 'failed', 'evicted')")
            table.column("failures", .integer).notNull().defaults(to: 0)
            // NULL: due now.
            table.column("retry_at", .datetime)
            table.column("large_height", .integer)
            table.column("fetched_at", .datetime)
        }
        try db.create(index: "cover_by_status", on: "cover", columns: ["status", "retry_at"])
        // Not `INSERT OR IGNORE`: inside a trigger the outer statement's conflict policy wins, and
        // the catalog's upsert of a book would then fail on a URL already known.
        let newCover = "INSERT INTO cover (url) SELECT NEW.image_url WHERE NOT EXISTS (SELECT 1 FROM cover WHERE url = NEW.image_url)"
        for table in ["book", "wishlist_item", "received_item"] {
            try db.execute(sql: """
                CREATE TRIGGER \(table)_insert_cover AFTER INSERT ON \(table) WHEN COALESCE(NEW.image_url, '') <> ''
                BEGIN \(newCover); END;
                CREATE TRIGGER \(table)_update_cover AFTER UPDATE OF image_url ON \(table) WHEN COALESCE(NEW.image_url, '') <> ''
                BEGIN \(newCover); END;
                """)
        }
        try db.execute(sql: """
            INSERT OR IGNORE INTO cover (url)
            SELECT image_url FROM (
                SELECT image_url FROM book UNION SELECT image_url FROM wishlist_item UNION SELECT image_url FROM received_item
            ) WHERE COALESCE(image_url, '') <> ''
            """)
        for table in ["wishlist_item", "received_item", "reading"] {
            try giveBooks(toRowsWithoutOne: table, db)
        }
    }

    /// Each row of `table` without a book gets the catalog book of its ISBN-13 when there is
    /// one, else a new added book of its own copy. A member who has two rows that turn out to be
    /// one book keeps the second without a book (`UPDATE OR IGNORE`: one row a book a member).
    private static func giveBooks(toRowsWithoutOne table: String, _ db: Database) throws {
        let hasCopy = table != "reading"
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE book_id IS NULL")
        for row in rows {
            let typed: String = row["isbn13"]
            let isbn = try? ISBN(typed)
            let known = try isbn.flatMap { try String.fetchOne(db, sql: "SELECT book_id FROM book_isbn WHERE isbn = ?", arguments: [$0.isbn13]) }
            let id = known ?? isbn?.isbn13 ?? "added-" + SecureRandom.hex(byteCount: 6)
            if known == nil {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO book (id, title, author, contributor, publisher, description, isbn10, isbn13, other_isbns,
                                                    image_url, image_width, image_height, source, added_at)
                        VALUES (?, ?, ?, '', ?, ?, ?, ?, '', ?, ?, ?, 'added', ?)
                        """,
                    arguments: [
                        id, row["title"], row["author"], hasCopy ? row["publisher"] as String : "", hasCopy ? row["description"] as String : "",
                        isbn?.isbn10 ?? "", isbn?.isbn13 ?? "", hasCopy ? row["image_url"] as String? : nil,
                        hasCopy ? row["image_width"] as Int : 0, hasCopy ? row["image_height"] as Int : 0, row[hasCopy ? "added_at" : "updated_at"] as DatabaseValue,
                    ])
                if let isbn {
                    try db.execute(sql: "INSERT OR IGNORE INTO book_isbn (book_id, isbn) VALUES (?, ?)", arguments: [id, isbn.isbn13])
                }
            }
            try db.execute(sql: "UPDATE OR IGNORE \(table) SET book_id = ? WHERE id = ?", arguments: [id, row["id"]])
        }
    }
}
