import WishlistCore
import WishlistTemplates

/// The cards of list, member and search pages: each book has an id, which the flash cookie names
/// after a form on it, so that its confirmation is shown on it rather than at the top of the page
/// (and the redirect's `#flash` scrolls back to it).
enum Card {
    /// A catalog book's card on a list page or in search results.
    static func book(_ bookID: String) -> String { "book-" + bookID }

    /// A best-seller list's card in the catalog (issue 57).
    static func list(_ nameEncoded: String) -> String { "list-" + nameEncoded }

    /// A wishlist item's card on a member's page.
    static func item(_ itemID: ItemID) -> String { "item-\(itemID)" }
}

extension PageRenderer {
    /// The visitor's confirmation, when it belongs to one of `cards` (a page's card ids in its
    /// order): that card's index, the confirmation rendered for it, and the visitor without it,
    /// so that the top of the page does not show it again.
    func cardFlash(_ visitor: Visitor, cards: [String]) throws -> (index: Int, html: TemplateValue, visitor: Visitor)? {
        guard let flash = visitor.flash, let card = flash.card, let index = cards.firstIndex(of: card) else { return nil }
        var rest = visitor
        rest.flash = nil
        return (index, .html(try fragment("partials/flash.html", ["flash": flash.templateValue])), rest)
    }
}
