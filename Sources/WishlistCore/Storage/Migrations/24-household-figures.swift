import GRDB

// Migration "24-household-figures"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-24.sql`.
extension Migrations {
    /// Each book's household figures (how many sharing members want it, the sum and number of
    /// their ratings), kept by triggers as wishes, readings and members change. Counted live, a
    /// list's figures read every wish of its 15 books and each wisher's member row: on a big
    /// household's popular books thousands of rows, 1-2 ms of every list, book and search page
    /// (issue 34). Kept, they are one row a book. `HouseholdFiguresTests` checks the kept figures
    /// against the live count after every kind of change.
    ///
    /// "A sharing member" is `sharing = 'household' AND disabled_at IS NULL`, as
    /// ``ReadingStore/Reader/sharingMember`` says. A member's own change of sharing, or her being
    /// disabled or enabled, moves all her wishes and ratings in or out at once. Deleting a member
    /// takes hers out first (`BEFORE DELETE`): the cascade then deletes her items and readings
    /// when her row is gone, and their triggers, finding no sharing member, leave the figures be.
    static func createHouseholdFigures(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE book_household (
                book_id TEXT PRIMARY KEY NOT NULL,
                wanted INTEGER NOT NULL DEFAULT 0,
                rating_sum INTEGER NOT NULL DEFAULT 0,
                rating_count INTEGER NOT NULL DEFAULT 0
            )
            """)
        let member = { (id: String) in "(SELECT 1 FROM user WHERE user.id = \(id) AND user.sharing = 'household' AND user.disabled_at IS NULL)" }
        // Adds `sign` times a wish of `book` (an expression).
        let wish = { (book: String, sign: String) in
            """
            INSERT INTO book_household (book_id, wanted) VALUES (\(book), \(sign))
                ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
            """
        }
        let rating = { (book: String, rating: String, sign: String) in
            """
            INSERT INTO book_household (book_id, rating_sum, rating_count) VALUES (\(book), \(sign) * \(rating), \(sign))
                ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count;
            """
        }
        try db.execute(sql: """
            CREATE TRIGGER wishlist_item_insert_household AFTER INSERT ON wishlist_item
            WHEN NEW.book_id IS NOT NULL AND \(member("NEW.user_id")) BEGIN \(wish("NEW.book_id", "1")) END;
            CREATE TRIGGER wishlist_item_delete_household AFTER DELETE ON wishlist_item
            WHEN OLD.book_id IS NOT NULL AND \(member("OLD.user_id")) BEGIN \(wish("OLD.book_id", "-1")) END;
            CREATE TRIGGER wishlist_item_update_household_old AFTER UPDATE OF book_id, user_id ON wishlist_item
            WHEN OLD.book_id IS NOT NULL AND \(member("OLD.user_id")) BEGIN \(wish("OLD.book_id", "-1")) END;
            CREATE TRIGGER wishlist_item_update_household_new AFTER UPDATE OF book_id, user_id ON wishlist_item
            WHEN NEW.book_id IS NOT NULL AND \(member("NEW.user_id")) BEGIN \(wish("NEW.book_id", "1")) END;

            CREATE TRIGGER reading_insert_household AFTER INSERT ON reading
            WHEN NEW.book_id IS NOT NULL AND NEW.rating IS NOT NULL AND \(member("NEW.user_id"))
            BEGIN \(rating("NEW.book_id", "NEW.rating", "1")) END;
            CREATE TRIGGER reading_delete_household AFTER DELETE ON reading
            WHEN OLD.book_id IS NOT NULL AND OLD.rating IS NOT NULL AND \(member("OLD.user_id"))
            BEGIN \(rating("OLD.book_id", "OLD.rating", "-1")) END;
            CREATE TRIGGER reading_update_household_old AFTER UPDATE OF book_id, user_id, rating ON reading
            WHEN OLD.book_id IS NOT NULL AND OLD.rating IS NOT NULL AND \(member("OLD.user_id"))
            BEGIN \(rating("OLD.book_id", "OLD.rating", "-1")) END;
            CREATE TRIGGER reading_update_household_new AFTER UPDATE OF book_id, user_id, rating ON reading
            WHEN NEW.book_id IS NOT NULL AND NEW.rating IS NOT NULL AND \(member("NEW.user_id"))
            BEGIN \(rating("NEW.book_id", "NEW.rating", "1")) END;
            """)
        // A member joining or leaving the household brings or takes all her figures.
        let isMember = { (row: String) in "(\(row).sharing = 'household' AND \(row).disabled_at IS NULL)" }
        let everything = { (user: String, sign: String) in
            """
            INSERT INTO book_household (book_id, wanted)
                SELECT book_id, \(sign) * COUNT(*) FROM wishlist_item WHERE user_id = \(user) AND book_id IS NOT NULL GROUP BY book_id
                ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
            INSERT INTO book_household (book_id, rating_sum, rating_count)
                SELECT book_id, \(sign) * SUM(rating), \(sign) * COUNT(*) FROM reading
                WHERE user_id = \(user) AND book_id IS NOT NULL AND rating IS NOT NULL GROUP BY book_id
                ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count;
            """
        }
        try db.execute(sql: """
            CREATE TRIGGER user_joins_household AFTER UPDATE OF sharing, disabled_at ON user
            WHEN NOT \(isMember("OLD")) AND \(isMember("NEW")) BEGIN \(everything("NEW.id", "1")) END;
            CREATE TRIGGER user_leaves_household AFTER UPDATE OF sharing, disabled_at ON user
            WHEN \(isMember("OLD")) AND NOT \(isMember("NEW")) BEGIN \(everything("OLD.id", "-1")) END;
            CREATE TRIGGER user_delete_household BEFORE DELETE ON user
            WHEN \(isMember("OLD")) BEGIN \(everything("OLD.id", "-1")) END;
            """)
        try db.execute(sql: """
            INSERT INTO book_household (book_id, wanted)
                SELECT book_id, COUNT(*) FROM wishlist_item CROSS JOIN user ON user.id = wishlist_item.user_id
                WHERE book_id IS NOT NULL AND \(isMember("user")) GROUP BY book_id;
            INSERT INTO book_household (book_id, rating_sum, rating_count)
                SELECT book_id, SUM(rating), COUNT(*) FROM reading CROSS JOIN user ON user.id = reading.user_id
                WHERE book_id IS NOT NULL AND rating IS NOT NULL AND \(isMember("user")) GROUP BY book_id
                ON CONFLICT (book_id) DO UPDATE SET rating_sum = excluded.rating_sum, rating_count = excluded.rating_count;
            """)
    }
}
