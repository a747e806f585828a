import GRDB

// Migration "18-gift-ideas"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-18.sql`.
extension Migrations {
    /// Gift ideas (issue 29): a book the others suggest for a member, with a note, which they
    /// can reserve as they reserve her items. An idea is never the owner's row: it lives in a
    /// table of its own that no query on her behalf reads, and it grows only the reservation
    /// generation, so neither her pages' bytes nor their timing change when one is added. When
    /// she wishes for the same book, the idea's reservation moves to her new item and the idea
    /// goes, in the same transaction as her add.
    static func createGiftIdeas(_ db: Database) throws {
        try db.create(table: "gift_idea") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("owner_id", .integer).notNull().references("user", onDelete: .cascade)
            table.column("suggested_by", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("book_id", .text).notNull()
            table.column("title", .text).notNull()
            table.column("author", .text).notNull()
            table.column("note", .text).notNull()
            table.column("created_at", .datetime).notNull()
        }
        try db.create(index: "gift_idea_unique_book", on: "gift_idea", columns: ["owner_id", "book_id"], unique: true)
        try db.alter(table: "reservation") { table in
            table.add(column: "idea_id", .integer).references("gift_idea", onDelete: .setNull)
        }
        try db.create(index: "reservation_unique_idea", on: "reservation", columns: ["idea_id"], unique: true)
        for event in ["INSERT", "UPDATE", "DELETE"] {
            try db.execute(sql: """
                CREATE TRIGGER gift_idea_\(event.lowercased())_reservation_generation AFTER \(event) ON gift_idea
                BEGIN UPDATE reservation_generation SET value = value + 1; END
                """)
        }
    }
}
