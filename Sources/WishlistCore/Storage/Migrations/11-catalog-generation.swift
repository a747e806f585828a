import GRDB

// Migration "11-catalog-generation"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-11.sql`.
extension Migrations {
    /// The catalog tables whose rows a list page shows.
    private static let catalogTables = ["catalog_list", "list_entry", "book", "edition", "edition_entry"]

    /// A number that grows with every change to the catalog, whichever process makes it (the
    /// server's refresh or `wishlist sync` beside it): rendered catalog pages are cached under it.
    static func createCatalogGeneration(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE catalog_generation (value INTEGER NOT NULL)")
        try db.execute(sql: "INSERT INTO catalog_generation (value) VALUES (0)")
        for table in catalogTables {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_\(event.lowercased())_generation AFTER \(event) ON \(table)
                    BEGIN UPDATE catalog_generation SET value = value + 1; END
                    """)
            }
        }
    }
}
