import GRDB

// Migration "31-children"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-31.sql`.
extension Migrations {
    /// Children (issue 51): a profile that parents manage is a `user` row of kind `child`, so that
    /// her lists, wants, reservations and figures are a member's in every query; she has no
    /// password (an empty hash, and password sign-in checks the dummy hash for her), no e-mail, no
    /// sessions, passkeys or sign-in identities (triggers refuse them), and a username no sign-up
    /// can take (``ChildUsername``).
    /// - `child_manager` names the members who manage her; a manager's deletion removes only the row.
    /// - `child_hand_over` holds the one-time links that turn her profile into a member's account:
    ///   seven days, single use, stored as the SHA-256 of their token, as invites are.
    static func createChildren(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE user ADD COLUMN kind TEXT NOT NULL DEFAULT 'member' CHECK (kind IN ('member', 'child'));
            CREATE TABLE child_manager (
                child_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                manager_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                added_at DATETIME NOT NULL,
                PRIMARY KEY (child_id, manager_id)
            );
            CREATE INDEX child_manager_by_manager ON child_manager (manager_id);
            CREATE TABLE child_hand_over (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                child_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                token_hash BLOB NOT NULL UNIQUE,
                created_by INTEGER REFERENCES user(id) ON DELETE SET NULL,
                created_at DATETIME NOT NULL,
                expires_at DATETIME NOT NULL,
                used_at DATETIME
            );
            CREATE INDEX child_hand_over_by_child ON child_hand_over (child_id);
            """)
        // No way into a child's profile but the hand-over, whatever code path tries.
        for table in ["session", "passkey", "sign_in_identity"] {
            try db.execute(sql: """
                CREATE TRIGGER \(table)_refuses_children BEFORE INSERT ON \(table)
                WHEN (SELECT kind FROM user WHERE id = NEW.user_id) = 'child' BEGIN
                    SELECT RAISE(ABORT, 'a child profile has no way to sign in');
                END;
                """)
        }
    }
}
