import GRDB

// Migration "17-gift-cycle"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-17.sql`.
extension Migrations {
    /// The rest of a gift's life (issue 29): a giver marks a reservation bought and may write a
    /// card; the owner's "I got it" moves the item out of `wishlist_item` into `received_item`
    /// (same id: `wishlist_item`'s ids are never reused, so a move back restores the item as it
    /// was) and points its reservation there, so the giver sees it given and the owner, now, the
    /// card. Bought and card are columns of `reservation`, so they grow only the reservation
    /// generation and no page of the owner's; received items grow the wishlist generation.
    static func createGiftCycle(_ db: Database) throws {
        try db.create(table: "received_item") { table in
            table.primaryKey("id", .integer)
            table.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("book_id", .text)
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("publisher", .text).notNull()
            table.column("description", .text).notNull()
            table.column("isbn10", .text).notNull()
            table.column("isbn13", .text).notNull()
            table.column("image_url", .text)
            table.column("image_width", .integer).notNull()
            table.column("image_height", .integer).notNull()
            table.column("buy_links", .text).notNull()
            table.column("reading_links", .text).notNull()
            table.column("note", .text).notNull()
            table.column("priority", .integer).notNull()
            table.column("added_at", .datetime).notNull()
            table.column("received_at", .datetime).notNull()
        }
        try db.create(index: "received_item_by_user", on: "received_item", columns: ["user_id", "received_at"])
        try db.alter(table: "reservation") { table in
            table.add(column: "bought_at", .datetime)
            table.add(column: "card", .text).notNull().defaults(to: "")
            table.add(column: "received_item_id", .integer).references("received_item", onDelete: .setNull)
        }
        try db.create(index: "reservation_by_received_item", on: "reservation", columns: ["received_item_id"])
        for event in ["INSERT", "UPDATE", "DELETE"] {
            try db.execute(sql: """
                CREATE TRIGGER received_item_\(event.lowercased())_wishlist_generation AFTER \(event) ON received_item
                BEGIN UPDATE wishlist_generation SET value = value + 1; END
                """)
        }
    }
}
