import GRDB

// Migration "37-wishlist-by-book-shared"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-37.sql`.
extension Migrations {
    /// A book's page lists the members who share a want of it (``HouseholdStore/Reader/wants(bookID:viewerID:readingWhole:)``):
    /// with `shared` in the book's index, it finds them without reading an item row per want,
    /// and reads whole only those it names (issue 58). The index replaces migration 23's, which it
    /// begins with, so a want still costs one index of the book to write.
    static func indexWishlistByBookUserAndShared(_ db: Database) throws {
        try db.create(index: "wishlist_item_by_book_user_and_shared", on: "wishlist_item", columns: ["book_id", "user_id", "shared"])
        try db.drop(index: "wishlist_item_by_book_and_user")
    }
}
