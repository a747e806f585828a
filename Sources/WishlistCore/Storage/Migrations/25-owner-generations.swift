import GRDB

// Migration "25-owner-generations"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-25.sql`.
extension Migrations {
    /// A generation per member, in place of the household-wide ones her pages were kept under
    /// (issue 34). Every wish, reading or reservation by anyone grew the wishlists' or the
    /// reservations' generation, so in a busy household her wishlist and her page as the others
    /// see it were rendered again on almost every view. Now each counts only what its page shows:
    ///
    /// - `wishes`: her items. Her own wishlist page is kept under it and the catalog's alone;
    ///   nothing a giver does touches it (issue 27's rule, ``HouseholdStore/Reader``).
    /// - `about`: her account row, readings, favourites and picture, which her member page shows.
    /// - `givers`: reservations and gift ideas for her (the reservation's `owner_id`).
    /// - `name_generation`: every account's name as pages show it, since a reserver's shown name
    ///   depends on whether anyone else took it (``MemberName``); names change rarely.
    ///
    /// The row outlives the account (no foreign key, and deleting the account grows it), so a new
    /// account that reuses the id never meets a page kept under the old one's numbers. The
    /// reservations' generation, which nothing reads any more, goes.
    static func createOwnerGenerations(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE owner_generation (
                user_id INTEGER PRIMARY KEY NOT NULL,
                wishes INTEGER NOT NULL DEFAULT 0,
                about INTEGER NOT NULL DEFAULT 0,
                givers INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE name_generation (value INTEGER NOT NULL);
            INSERT INTO name_generation (value) VALUES (0);
            """)
        // Grows `counter` of the member `user` names (an expression, NULL for none).
        let grow = { (counter: String, user: String) in
            """
            INSERT INTO owner_generation (user_id, \(counter)) SELECT \(user), 1 WHERE \(user) IS NOT NULL
                ON CONFLICT (user_id) DO UPDATE SET \(counter) = \(counter) + 1;
            """
        }
        let counted = [("wishlist_item", "user_id", "wishes"), ("reading", "user_id", "about"), ("favorite_book", "user_id", "about"),
                       ("profile_picture", "user_id", "about"), ("reservation", "owner_id", "givers"), ("gift_idea", "owner_id", "givers")]
        for (table, owner, counter) in counted {
            try db.execute(sql: """
                CREATE TRIGGER \(table)_insert_owner_generation AFTER INSERT ON \(table) BEGIN \(grow(counter, "NEW.\(owner)")) END;
                CREATE TRIGGER \(table)_delete_owner_generation AFTER DELETE ON \(table) BEGIN \(grow(counter, "OLD.\(owner)")) END;
                CREATE TRIGGER \(table)_update_owner_generation AFTER UPDATE ON \(table) BEGIN
                    \(grow(counter, "NEW.\(owner)"))
                    \(grow(counter, "(CASE WHEN OLD.\(owner) IS NOT NEW.\(owner) THEN OLD.\(owner) END)"))
                END;
                """)
        }
        try db.execute(sql: """
            CREATE TRIGGER user_update_owner_generation AFTER UPDATE ON user BEGIN \(grow("about", "NEW.id")) END;
            CREATE TRIGGER user_delete_owner_generation AFTER DELETE ON user BEGIN
                \(grow("wishes", "OLD.id")) \(grow("about", "OLD.id")) \(grow("givers", "OLD.id"))
                UPDATE name_generation SET value = value + 1;
            END;
            CREATE TRIGGER user_insert_name_generation AFTER INSERT ON user BEGIN UPDATE name_generation SET value = value + 1; END;
            CREATE TRIGGER user_rename_name_generation AFTER UPDATE OF username, display_name, display_name_key ON user
                BEGIN UPDATE name_generation SET value = value + 1; END;
            """)
        for event in ["insert", "update", "delete"] {
            try db.execute(sql: "DROP TRIGGER reservation_\(event)_reservation_generation; DROP TRIGGER gift_idea_\(event)_reservation_generation")
        }
        try db.execute(sql: "DROP TABLE reservation_generation")
    }
}
