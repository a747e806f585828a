import GRDB

// Migration "36-reading-goal"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-36.sql`.
extension Migrations {
    /// The books a member is reading now and her yearly goal (issue 57, item 7). A book read now
    /// is a catalog book (or an added one) until she marks it read, which ends it; one the catalog
    /// loses goes with it. A goal belongs to a year, so a new year starts without one. What she
    /// reads now is on her member page, so it grows her `about` generation (migration 25).
    static func createReadingNowAndGoals(_ db: Database) throws {
        try db.create(table: "reading_now") { table in
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("book_id", .text).notNull().indexed().references("book", onDelete: .cascade)
            table.column("started_at", .datetime).notNull()
            table.primaryKey(["user_id", "book_id"])
        }
        try db.create(table: "reading_goal") { table in
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("year", .integer).notNull()
            table.column("books", .integer).notNull().check { $0 >= 1 && $0 <= 1000 }
            table.primaryKey(["user_id", "year"])
        }
        let grow = { (user: String) in
            """
            INSERT INTO owner_generation (user_id, about) SELECT \(user), 1
                ON CONFLICT (user_id) DO UPDATE SET about = about + 1;
            """
        }
        try db.execute(sql: """
            CREATE TRIGGER reading_now_insert_owner_generation AFTER INSERT ON reading_now BEGIN \(grow("NEW.user_id")) END;
            CREATE TRIGGER reading_now_delete_owner_generation AFTER DELETE ON reading_now BEGIN \(grow("OLD.user_id")) END;
            """)
    }
}
