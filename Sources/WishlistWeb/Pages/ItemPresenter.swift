import WishlistCore
import WishlistTemplates

/// Wishlist items as the templates show them (`partials/wishlist-row.html` and the item page),
/// whoever is looking: the owner, another member, or a guest with a share link.
enum ItemPresenter {
    /// `link` is where the title leads: the owner's item page, or the catalog's page of the book.
    static func value(_ item: WishlistItem, placements: [Placement], link: String, detailed: Bool = false) -> [String: TemplateValue] {
        var value = rowValue(item, placements: placements, link: link, capacity: detailed ? 23 : 19)
        value["path"] = .string(SitePath.wishlistItem(item.id))
        value["book_path"] = .string(item.bookID.map(SitePath.book) ?? "")
        // The owner's forms (the item page, its questions and `partials/wishlist-row.html`).
        value["received_path"] = .string(SitePath.confirmReceived(item.id))
        value["remove_path"] = .string(SitePath.confirmRemoval(item.id))
        value["delete_path"] = .string(SitePath.removeWish(item.id))
        value["place_path"] = .string(SitePath.placeItem(item.id))
        // A giver's forms (`partials/reservation-actions.html`).
        value["mark_bought_path"] = .string(SitePath.markBought(item.id))
        value["unmark_bought_path"] = .string(SitePath.unmarkBought(item.id))
        value["card_path"] = .string(SitePath.writeCard(item.id))
        value["cancel_path"] = .string(SitePath.cancelReservation(item.id))
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
        value(item, placements: placements, link: othersLink(item))
    }

    /// A book's row on a member's page, as every giver sees it: what `partials/wishlist-row.html`
    /// reads, without the owner's forms or a giver's controls (`partials/reservation-actions.html`
    /// reads its own value there). A page renders up to 100 rows afresh whenever she changes
    /// anything, and eight paths a row that nothing reads were a part of that (issue 58).
    static func giverRowValue(_ item: WishlistItem, placements: [Placement]) -> [String: TemplateValue] {
        // Room for what the member's page adds: where to get it, its reservation, its slots.
        rowValue(item, placements: placements, link: othersLink(item), capacity: 15)
    }

    /// What every row of a wishlist shows, whoever looks, in a dictionary with room for
    /// `capacity` keys: the caller's own go in without growing it.
    private static func rowValue(_ item: WishlistItem, placements: [Placement], link: String, capacity: Int) -> [String: TemplateValue] {
        var value = [String: TemplateValue](minimumCapacity: capacity)
        value["id"] = .id(item.id)
        value["link"] = .string(link)
        value["title"] = .string(item.title)
        value["author"] = .string(item.author)
        value["added_at"] = .date(item.addedAt)
        value["note"] = .string(item.note)
        value["priority"] = .string(item.priority.rawValue)
        value["cover"] = BookPresenter.coverValue(url: item.imageURL, width: item.imageWidth, height: item.imageHeight)
        value["lists"] = .array(placements.map(BookPresenter.placementValue))
        return value
    }

    private static func othersLink(_ item: WishlistItem) -> String { item.bookID.map(SitePath.book) ?? "" }
}
