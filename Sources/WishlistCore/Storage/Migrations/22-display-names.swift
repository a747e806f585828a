import GRDB

// Migration "22-display-names"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-22.sql`.
extension Migrations {
    /// The name a member chooses to be known by (issue 36), NULL for "use my username", and its
    /// comparison key (``MemberName/key(_:)``), which pages look up to tell namesakes apart.
    /// Changing it updates `user`, so it grows the wishlist generation and every cached page
    /// that shows names is rendered again.
    static func createDisplayNames(_ db: Database) throws {
        try db.alter(table: "user") { table in
            table.add(column: "display_name", .text)
            table.add(column: "display_name_key", .text)
        }
        try db.create(index: "user_by_display_name_key", on: "user", columns: ["display_name_key"])
    }
}
