import Fluent
import Vapor

/// `wishlist_item`: a book a user wants. The list page needs only which catalog books they are.
final class WishlistItem: Model, @unchecked Sendable {
    static let schema = "wishlist_item"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Parent(key: "user_id")
    var user: AppUser

    /// The catalog book, or nil for a book imported from elsewhere.
    @OptionalField(key: "book_id")
    var bookID: String?

    init() {}
}
