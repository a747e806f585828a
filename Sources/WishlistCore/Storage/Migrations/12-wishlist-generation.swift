import GRDB

// Migration "12-wishlist-generation"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-12.sql`.
extension Migrations {
    /// What a wishlist page shows besides the catalog: the items, their reservations, and the
    /// people (who shares, who gives).
    private static let wishlistTables = ["wishlist_item", "reservation", "user"]

    /// One number that grows with every change to the wishlist tables, by any process: rendered
    /// wishlist pages are cached under it and the catalog generation, as list pages are under the
    /// latter alone.
    static func createWishlistGeneration(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE wishlist_generation (value INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO wishlist_generation (value) VALUES (0)")
        for table in wishlistTables {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_\(event.lowercased())_wishlist_generation AFTER \(event) ON \(table)
                    BEGIN UPDATE wishlist_generation SET value = value + 1; END
                    """)
            }
        }
    }
}
