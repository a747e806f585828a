import GRDB

// Migration "34-list-share-links"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-34.sql`.
extension Migrations {
    /// Share links per list, and guests reserving on them (issue 57). A member has a link for each
    /// list she chooses, not one for her whole wishlist. The table is made again keyed by the list
    /// (SQLite cannot change a key in place); every link keeps its token and opens the list it
    /// opened before (the default list, migration 30). Deleting a list deletes its link; the
    /// list's owner is the link's owner.
    static func sharePerList(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE share_link RENAME TO share_link_by_user;
            CREATE TABLE share_link (
                list_id INTEGER PRIMARY KEY REFERENCES wish_list(id) ON DELETE CASCADE,
                token_hash BLOB NOT NULL UNIQUE,
                created_at DATETIME NOT NULL
            );
            INSERT INTO share_link (list_id, token_hash, created_at)
                SELECT list_id, token_hash, created_at FROM share_link_by_user WHERE list_id IS NOT NULL;
            DROP TABLE share_link_by_user;
            """)
        try createGuestReservations(db)
    }

    /// Guests reserve on a share link (issue 57): a want is reserved once, by a member
    /// (`reservation`) or by a guest (here), never both, which the stores check in the same write.
    /// The guest's name is the household givers' to see; the cancel link's token is kept as its
    /// SHA-256 only. A guest's reservation grows the owner's `givers` generation (migration 25),
    /// as a member's does, so her member page changes for the others and her own pages never do.
    private static func createGuestReservations(_ db: Database) throws {
        let grow = { (item: String) in
            """
            INSERT INTO owner_generation (user_id, givers) SELECT user_id, 1 FROM wishlist_item WHERE id = \(item)
                ON CONFLICT (user_id) DO UPDATE SET givers = givers + 1;
            """
        }
        try db.execute(sql: """
            CREATE TABLE guest_reservation (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                item_id INTEGER NOT NULL UNIQUE REFERENCES wishlist_item(id) ON DELETE CASCADE,
                guest_name TEXT NOT NULL,
                cancel_token_hash BLOB NOT NULL UNIQUE,
                reserved_at DATETIME NOT NULL
            );
            CREATE TRIGGER guest_reservation_insert_owner_generation AFTER INSERT ON guest_reservation BEGIN \(grow("NEW.item_id")) END;
            CREATE TRIGGER guest_reservation_delete_owner_generation AFTER DELETE ON guest_reservation BEGIN \(grow("OLD.item_id")) END;
            """)
    }
}
