import GRDB

// Migration "29-authors"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-29.sql`.
extension Migrations {
    /// Authors (issue 52): each list's book's credits, one row a person its byline names
    /// (``Byline``), matched by ``AuthorKey``; and the authors members follow. The credits of the
    /// books already stored are read from their bylines here; from now on the catalog writes them
    /// with each book (`CatalogStore.upsert`). A change to how bylines are read needs a migration
    /// that reads them again, as this one first did.
    static func createAuthors(_ db: Database) throws {
        try db.create(table: "book_credit") { table in
            table.column("book_id", .text).notNull().references("book", onDelete: .cascade)
            table.column("position", .integer).notNull()
            table.column("author_key", .text).notNull()
            // As the byline writes it, for the author's page.
            table.column("name", .text).notNull()
            table.column("role", .text).notNull()
            table.primaryKey(["book_id", "position"])
        }
        try db.create(index: "book_credit_by_author", on: "book_credit", columns: ["author_key", "book_id"])
        try db.create(table: "followed_author") { table in
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("author_key", .text).notNull()
            table.column("name", .text).notNull()
            table.column("followed_at", .datetime).notNull()
            table.primaryKey(["user_id", "author_key"])
        }
        let books = try Row.fetchAll(db, sql: "SELECT id, author, contributor FROM book WHERE source = 'nyt'")
        for book in books {
            try AuthorStore.writeCredits(bookID: book["id"], author: book["author"], contributor: book["contributor"], db)
        }
    }
}
