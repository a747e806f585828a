import GRDB

// Migration "5-book-isbns"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-05.sql`.
extension Migrations {
    /// Every ISBN of every catalog book, indexed, so an import matches a row with one index
    /// lookup instead of scanning `book` for an ISBN inside `other_isbns`. Filled from the books
    /// already stored; from here on the catalog keeps it up to date.
    static func createBookISBNs(_ db: Database) throws {
        try db.create(table: "book_isbn") { table in
            table.column("book_id", .text).notNull().references("book", onDelete: .cascade)
            table.column("isbn", .text).notNull().indexed()
            table.primaryKey(["book_id", "isbn"])
        }
        let books = try Row.fetchAll(db, sql: "SELECT id, isbn10, isbn13, other_isbns FROM book")
        for book in books {
            let id: String = book["id"]
            let otherISBNs: String = book["other_isbns"]
            let isbns: [String] = [book["isbn13"], book["isbn10"]] + otherISBNs.split(separator: " ").map(String.init)
            for isbn in isbns where !isbn.isEmpty {
                try db.execute(sql: "INSERT OR IGNORE INTO book_isbn (book_id, isbn) VALUES (?, ?)", arguments: [id, isbn])
            }
        }
    }
}
