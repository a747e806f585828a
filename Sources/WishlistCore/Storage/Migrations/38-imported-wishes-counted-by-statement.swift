import GRDB

// Migration "38-imported-wishes-counted-by-statement"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-38.sql`.
extension Migrations {
    /// The four triggers that count a new want (the wishlists' generation, the owner's `wishes`
    /// generation, her default list, the household's count of the book) leave out the rows of an
    /// import, those with an `import_id`: the import counts its wishes itself, a statement for
    /// each statement of up to 16 wishes (``WishlistStore/countImported(_:userID:importID:_:)``),
    /// and leaves every figure the triggers would have left (issue 58). Run for each row, they
    /// were a third of a wish's insert in a replay of a 50,000-row import (Benchmarks/history.md,
    /// "An import's wishes written several a statement"). Nothing else writes `import_id` on a
    /// want, so every other way of adding one is counted by the triggers as before.
    static func countImportedWishesByStatement(_ db: Database) throws {
        let notImported = "NEW.import_id IS NULL"
        let member = "(SELECT 1 FROM user WHERE user.id = NEW.user_id AND user.sharing = 'household' AND user.disabled_at IS NULL)"
        try db.execute(sql: """
            DROP TRIGGER wishlist_item_insert_wishlist_generation;
            DROP TRIGGER wishlist_item_insert_owner_generation;
            DROP TRIGGER wishlist_item_insert_default_list;
            DROP TRIGGER wishlist_item_insert_household;

            CREATE TRIGGER wishlist_item_insert_wishlist_generation AFTER INSERT ON wishlist_item WHEN \(notImported)
            BEGIN UPDATE wishlist_generation SET value = value + 1; END;
            CREATE TRIGGER wishlist_item_insert_owner_generation AFTER INSERT ON wishlist_item WHEN \(notImported) BEGIN
                INSERT INTO owner_generation (user_id, wishes) SELECT NEW.user_id, 1 WHERE NEW.user_id IS NOT NULL
                    ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1;
            END;
            CREATE TRIGGER wishlist_item_insert_default_list AFTER INSERT ON wishlist_item WHEN \(notImported) BEGIN
                INSERT INTO wish_list_item (list_id, item_id) SELECT id, NEW.id FROM wish_list WHERE user_id = NEW.user_id AND is_default;
            END;
            CREATE TRIGGER wishlist_item_insert_household AFTER INSERT ON wishlist_item
            WHEN \(notImported) AND NEW.book_id IS NOT NULL AND NEW.shared AND \(member) BEGIN
                INSERT INTO book_household (book_id, wanted) VALUES (NEW.book_id, 1)
                    ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
            END;
            """)
    }
}
