import GRDB

// Migration "13-search-current-books"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-13.sql`.
extension Migrations {
    /// Search finds books on the current lists, yet every book the history ever stored stayed in
    /// `book_search`, so each prefix query grew with the years kept. Now the index holds the books
    /// of `list_entry` (the current editions, a few hundred), kept so by triggers whichever
    /// process writes. The book's rowid is not used as the index's: `VACUUM INTO` (backups) may
    /// renumber a table without an integer primary key.
    static func searchCurrentBooksOnly(_ db: Database) throws {
        try db.create(index: "list_entry_by_book", on: "list_entry", columns: ["book_id"])
        try db.execute(sql: """
            DELETE FROM book_search;
            INSERT INTO book_search (book_id, title, author)
                SELECT id, title, author FROM book WHERE id IN (SELECT book_id FROM list_entry);
            CREATE TRIGGER list_entry_insert_search AFTER INSERT ON list_entry
                WHEN NOT EXISTS (SELECT 1 FROM book_search WHERE book_id = NEW.book_id)
                BEGIN INSERT INTO book_search (book_id, title, author) SELECT id, title, author FROM book WHERE id = NEW.book_id; END;
            CREATE TRIGGER list_entry_delete_search AFTER DELETE ON list_entry
                WHEN NOT EXISTS (SELECT 1 FROM list_entry WHERE book_id = OLD.book_id)
                BEGIN DELETE FROM book_search WHERE book_id = OLD.book_id; END;
            CREATE TRIGGER book_update_search AFTER UPDATE OF title, author ON book
                BEGIN UPDATE book_search SET title = NEW.title, author = NEW.author WHERE book_id = NEW.id; END;
            """)
    }
}
