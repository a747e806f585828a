import GRDB

// Migration "23-wishlist-by-book-and-user"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-23.sql`.
extension Migrations {
    /// The household's "wanted by" counts go from each book's items to their members: with the
    /// member in the index, a count reads only the index, not an item row per wish (issue 34).
    /// It leads with `book_id`, so it also answers everything `wishlist_item_by_book` did.
    static func indexWishlistByBookAndUser(_ db: Database) throws {
        try db.create(index: "wishlist_item_by_book_and_user", on: "wishlist_item", columns: ["book_id", "user_id"])
        try db.drop(index: "wishlist_item_by_book")
    }
}
