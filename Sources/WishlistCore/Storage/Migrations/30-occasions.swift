import GRDB

// Migration "30-occasions"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-30.sql`.
extension Migrations {
    /// Occasions (issue 51): a member's wants grouped in lists, each with an occasion and a
    /// visibility; a want (one `wishlist_item` row, with its note, priority and reservation) may
    /// sit on several lists.
    ///
    /// - Every account has exactly one default list ("Wishlist", no occasion, shared with the
    ///   household), made by a trigger when the account is, and a new want starts on it (the
    ///   store moves it to another list in the same transaction). So every way of adding a want
    ///   (the catalog, an import, a received book wished for again) puts it on a list.
    /// - `wishlist_item.shared` says whether the want is on at least one `household` list, kept by
    ///   triggers on the membership and on a list's visibility. Others see a want only when it is
    ///   shared and its owner shares and is not disabled; the household figures count only those.
    /// - The share link opens a list: the default one, after the upgrade with the same token, and
    ///   for a link made later (a trigger names it, so that the links' store stays one for both kinds).
    ///
    /// The upgrade makes each member's default list and puts every want on it, so that every want
    /// stays shared exactly as before and no figure moves.
    static func createOccasions(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE wish_list (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                occasion TEXT NOT NULL DEFAULT 'none',
                occasion_date TEXT,
                visibility TEXT NOT NULL DEFAULT 'household',
                is_default BOOLEAN NOT NULL DEFAULT 0,
                position INTEGER NOT NULL DEFAULT 0,
                created_at DATETIME NOT NULL
            );
            CREATE INDEX wish_list_by_user ON wish_list (user_id, position);
            CREATE UNIQUE INDEX wish_list_one_default ON wish_list (user_id) WHERE is_default;
            CREATE TABLE wish_list_item (
                list_id INTEGER NOT NULL REFERENCES wish_list(id) ON DELETE CASCADE,
                item_id INTEGER NOT NULL REFERENCES wishlist_item(id) ON DELETE CASCADE,
                PRIMARY KEY (list_id, item_id)
            );
            CREATE INDEX wish_list_item_by_item ON wish_list_item (item_id);
            ALTER TABLE wishlist_item ADD COLUMN shared BOOLEAN NOT NULL DEFAULT 0;
            ALTER TABLE share_link ADD COLUMN list_id INTEGER REFERENCES wish_list(id) ON DELETE CASCADE;

            INSERT INTO wish_list (user_id, name, occasion, visibility, is_default, position, created_at)
                SELECT id, 'Wishlist', 'none', 'household', 1, 0, created_at FROM user;
            INSERT INTO wish_list_item (list_id, item_id)
                SELECT wish_list.id, wishlist_item.id FROM wishlist_item JOIN wish_list ON wish_list.user_id = wishlist_item.user_id AND wish_list.is_default;
            UPDATE share_link SET list_id = (SELECT id FROM wish_list WHERE wish_list.user_id = share_link.user_id AND is_default);
            """)
        // Before the figures' triggers learn of `shared`: every want was counted, and still is.
        try db.execute(sql: "UPDATE wishlist_item SET shared = 1")
        try createListTriggers(db)
        try countSharedWantsOnly(db)
    }

    /// Whether the want `item` (an expression) is on a list the household sees.
    static func onHouseholdList(_ item: String) -> String {
        """
        EXISTS (SELECT 1 FROM wish_list_item JOIN wish_list ON wish_list.id = wish_list_item.list_id
                WHERE wish_list_item.item_id = \(item) AND wish_list.visibility = 'household')
        """
    }

    private static func createListTriggers(_ db: Database) throws {
        // Grows the owner's `wishes` generation, which keeps her own wishlist page (migration 25).
        let grow = { (user: String) in
            """
            INSERT INTO owner_generation (user_id, wishes) SELECT \(user), 1 WHERE \(user) IS NOT NULL
                ON CONFLICT (user_id) DO UPDATE SET wishes = wishes + 1;
            """
        }
        let listOwner = { (list: String) in "(SELECT user_id FROM wish_list WHERE id = \(list))" }
        try db.execute(sql: """
            CREATE TRIGGER user_insert_default_list AFTER INSERT ON user BEGIN
                INSERT INTO wish_list (user_id, name, occasion, visibility, is_default, position, created_at)
                VALUES (NEW.id, 'Wishlist', 'none', 'household', 1, 0, NEW.created_at);
            END;
            CREATE TRIGGER wishlist_item_insert_default_list AFTER INSERT ON wishlist_item BEGIN
                INSERT INTO wish_list_item (list_id, item_id) SELECT id, NEW.id FROM wish_list WHERE user_id = NEW.user_id AND is_default;
            END;
            CREATE TRIGGER wish_list_item_insert_shared AFTER INSERT ON wish_list_item BEGIN
                UPDATE wishlist_item SET shared = 1 WHERE id = NEW.item_id AND NOT shared
                    AND (SELECT visibility FROM wish_list WHERE id = NEW.list_id) = 'household';
                \(grow(listOwner("NEW.list_id")))
            END;
            CREATE TRIGGER wish_list_item_delete_shared AFTER DELETE ON wish_list_item BEGIN
                UPDATE wishlist_item SET shared = 0 WHERE id = OLD.item_id AND shared AND NOT \(onHouseholdList("OLD.item_id"));
                \(grow(listOwner("OLD.list_id")))
            END;
            CREATE TRIGGER wish_list_update_shared AFTER UPDATE OF visibility ON wish_list BEGIN
                UPDATE wishlist_item SET shared = \(onHouseholdList("wishlist_item.id"))
                    WHERE id IN (SELECT item_id FROM wish_list_item WHERE list_id = NEW.id) AND shared IS NOT \(onHouseholdList("wishlist_item.id"));
            END;
            CREATE TRIGGER share_link_insert_default_list AFTER INSERT ON share_link WHEN NEW.list_id IS NULL BEGIN
                UPDATE share_link SET list_id = (SELECT id FROM wish_list WHERE user_id = NEW.user_id AND is_default) WHERE user_id = NEW.user_id;
            END;
            CREATE TRIGGER wish_list_insert_owner_generation AFTER INSERT ON wish_list BEGIN \(grow("NEW.user_id")) END;
            CREATE TRIGGER wish_list_update_owner_generation AFTER UPDATE ON wish_list BEGIN \(grow("NEW.user_id")) END;
            CREATE TRIGGER wish_list_delete_owner_generation AFTER DELETE ON wish_list BEGIN \(grow("OLD.user_id")) END;
            """)
    }

    /// The household figures (migration 24) count a want only while it is shared: its triggers
    /// are made again with that condition, and a want's `shared` changing moves it in or out.
    private static func countSharedWantsOnly(_ db: Database) throws {
        let member = { (id: String) in "(SELECT 1 FROM user WHERE user.id = \(id) AND user.sharing = 'household' AND user.disabled_at IS NULL)" }
        let wish = { (book: String, sign: String) in
            """
            INSERT INTO book_household (book_id, wanted) VALUES (\(book), \(sign))
                ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
            """
        }
        let isMember = { (row: String) in "(\(row).sharing = 'household' AND \(row).disabled_at IS NULL)" }
        let everything = { (user: String, sign: String) in
            """
            INSERT INTO book_household (book_id, wanted)
                SELECT book_id, \(sign) * COUNT(*) FROM wishlist_item WHERE user_id = \(user) AND book_id IS NOT NULL AND shared GROUP BY book_id
                ON CONFLICT (book_id) DO UPDATE SET wanted = wanted + excluded.wanted;
            INSERT INTO book_household (book_id, rating_sum, rating_count)
                SELECT book_id, \(sign) * SUM(rating), \(sign) * COUNT(*) FROM reading
                WHERE user_id = \(user) AND book_id IS NOT NULL AND rating IS NOT NULL GROUP BY book_id
                ON CONFLICT (book_id) DO UPDATE SET rating_sum = rating_sum + excluded.rating_sum, rating_count = rating_count + excluded.rating_count;
            """
        }
        try db.execute(sql: """
            DROP TRIGGER wishlist_item_insert_household;
            DROP TRIGGER wishlist_item_delete_household;
            DROP TRIGGER wishlist_item_update_household_old;
            DROP TRIGGER wishlist_item_update_household_new;
            DROP TRIGGER user_joins_household;
            DROP TRIGGER user_leaves_household;
            DROP TRIGGER user_delete_household;

            CREATE TRIGGER wishlist_item_insert_household AFTER INSERT ON wishlist_item
            WHEN NEW.book_id IS NOT NULL AND NEW.shared AND \(member("NEW.user_id")) BEGIN \(wish("NEW.book_id", "1")) END;
            CREATE TRIGGER wishlist_item_delete_household AFTER DELETE ON wishlist_item
            WHEN OLD.book_id IS NOT NULL AND OLD.shared AND \(member("OLD.user_id")) BEGIN \(wish("OLD.book_id", "-1")) END;
            CREATE TRIGGER wishlist_item_update_household_old AFTER UPDATE OF book_id, user_id, shared ON wishlist_item
            WHEN OLD.book_id IS NOT NULL AND OLD.shared AND \(member("OLD.user_id")) BEGIN \(wish("OLD.book_id", "-1")) END;
            CREATE TRIGGER wishlist_item_update_household_new AFTER UPDATE OF book_id, user_id, shared ON wishlist_item
            WHEN NEW.book_id IS NOT NULL AND NEW.shared AND \(member("NEW.user_id")) BEGIN \(wish("NEW.book_id", "1")) END;

            CREATE TRIGGER user_joins_household AFTER UPDATE OF sharing, disabled_at ON user
            WHEN NOT \(isMember("OLD")) AND \(isMember("NEW")) BEGIN \(everything("NEW.id", "1")) END;
            CREATE TRIGGER user_leaves_household AFTER UPDATE OF sharing, disabled_at ON user
            WHEN \(isMember("OLD")) AND NOT \(isMember("NEW")) BEGIN \(everything("OLD.id", "-1")) END;
            CREATE TRIGGER user_delete_household BEFORE DELETE ON user
            WHEN \(isMember("OLD")) BEGIN \(everything("OLD.id", "-1")) END;
            """)
    }
}
