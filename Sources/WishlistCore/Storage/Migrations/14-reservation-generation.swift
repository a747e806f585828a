import GRDB

// Migration "14-reservation-generation"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-14.sql`.
extension Migrations {
    /// Reservations move out of the wishlist generation into one of their own. The owner's pages
    /// were cached under a number every reservation grew, so her next page after a giver reserved
    /// was rendered afresh, and its timing told her (issue 27). Her pages are now kept under what
    /// only her items and the accounts change; a giver's view of a member's list under both.
    static func separateReservationGeneration(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE reservation_generation (value INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO reservation_generation (value) VALUES (0)")
        for event in ["INSERT", "UPDATE", "DELETE"] {
            try db.execute(sql: """
                DROP TRIGGER reservation_\(event.lowercased())_wishlist_generation;
                CREATE TRIGGER reservation_\(event.lowercased())_reservation_generation AFTER \(event) ON reservation
                BEGIN UPDATE reservation_generation SET value = value + 1; END
                """)
        }
    }
}
