import WishlistCore
import WishlistTemplates

/// Wishlist items as the templates show them (`partials/wishlist-row.html` and the item page),
/// whoever is looking: the owner, another member, or a guest with a share link.
enum ItemPresenter {
    /// `link` is where the title leads: the owner's item page, or the catalog's page of the book.
    static func value(_ item: WishlistItem, placements: [Placement], link: String, detailed: Bool = false) -> [String: TemplateValue] {
        var value: [String: TemplateValue] = [
            "id": .id(item.id), "path": .string(SitePath.wishlistItem(item.id)), "link": .string(link),
            "title": .string(item.title), "author": .string(item.author), "added_at": .date(item.addedAt), "note": .string(item.note),
            "priority": .string(item.priority.rawValue),
            "cover": BookPresenter.coverValue(url: item.imageURL, width: item.imageWidth, height: item.imageHeight),
            "lists": .array(placements.map(BookPresenter.placementValue)),
            "book_path": .string(item.bookID.map(SitePath.book) ?? ""),
            // The owner's forms (the item page, its questions and `partials/wishlist-row.html`).
            "received_path": .string(SitePath.confirmReceived(item.id)), "remove_path": .string(SitePath.confirmRemoval(item.id)),
            "delete_path": .string(SitePath.removeWish(item.id)), "place_path": .string(SitePath.placeItem(item.id)),
            // A giver's forms (`partials/reservation-actions.html`).
            "mark_bought_path": .string(SitePath.markBought(item.id)), "unmark_bought_path": .string(SitePath.unmarkBought(item.id)),
            "card_path": .string(SitePath.writeCard(item.id)), "cancel_path": .string(SitePath.cancelReservation(item.id)),
        ]
        if detailed {
            value["publisher"] = .string(item.publisher)
            value["description"] = .string(item.description)
            value["isbn13"] = .string(item.isbn13)
            value["isbn10"] = .string(item.isbn10)
        }
        return value
    }

    /// An item on someone else's list: its title leads to the catalog's page, when it has one.
    static func othersValue(_ item: WishlistItem, placements: [Placement]) -> [String: TemplateValue] {
        value(item, placements: placements, link: item.bookID.map(SitePath.book) ?? "")
    }
}
