import Hummingbird
import WishlistCore

/// What a form did, shown once on the page its redirect leads to (`FlashMiddleware` words it from
/// the visitor's own data). The cookie carries only ``code``: a word, then "-" and an id where
/// the confirmation has one (so a word has no "-" of its own).
enum Flash: Sendable, Hashable {
    case added(ItemID), already(ItemID), removed, note, received, wishedAgain
    case reserved(ItemID), unreserved, bought, unbought, card, cardRemoved
    case idea, ideaReserved
    case bookAdded, bookKnown
    case listMade, listSaved, listDeleted, listDeletedWants, listsPlaced, shareLinkRevoked
    /// A book read; `offWishlist` when saving it took it off the wishlist.
    case read(bookID: String, offWishlist: Bool), unread
    /// A book rated with one tap of its stars (issue 57).
    case rated(bookID: String)
    /// A list starred or unstarred in the catalog (issue 57).
    case favorited, unfavorited
    /// A book started or no longer read now, and the year's goal saved or cleared (issue 57).
    case readingNow(bookID: String), notReadingNow, goalSaved, goalCleared

    var code: String {
        switch self {
        case .added(let id): "added-\(id)"
        case .already(let id): "already-\(id)"
        case .reserved(let id): "reserved-\(id)"
        case .read(let bookID, let offWishlist): (offWishlist ? "readoff-" : "read-") + bookID
        case .rated(let bookID): "rated-" + bookID
        case .readingNow(let bookID): "readingnow-" + bookID
        case .notReadingNow: "notreadingnow"
        case .goalSaved: "goalsaved"
        case .goalCleared: "goalcleared"
        case .favorited: "favorited"
        case .unfavorited: "unfavorited"
        case .removed: "removed"
        case .note: "note"
        case .received: "received"
        case .wishedAgain: "wishedagain"
        case .unreserved: "unreserved"
        case .bought: "bought"
        case .unbought: "unbought"
        case .card: "card"
        case .cardRemoved: "cardremoved"
        case .idea: "idea"
        case .ideaReserved: "ideareserved"
        case .bookAdded: "bookadded"
        case .bookKnown: "bookknown"
        case .listMade: "listmade"
        case .listSaved: "listsaved"
        case .listDeleted: "listdeleted"
        case .listDeletedWants: "listdeletedwants"
        case .listsPlaced: "listsplaced"
        case .shareLinkRevoked: "sharelinkrevoked"
        case .unread: "unread"
        }
    }

    /// The confirmations without an id, by their code (`FlashTests` checks no two share one).
    private static let plain: [String: Flash] = Dictionary([
        Flash.removed, .note, .received, .wishedAgain, .unreserved, .bought, .unbought, .card, .cardRemoved, .idea, .ideaReserved,
        .bookAdded, .bookKnown, .listMade, .listSaved, .listDeleted, .listDeletedWants, .listsPlaced, .shareLinkRevoked, .unread,
        .favorited, .unfavorited, .notReadingNow, .goalSaved, .goalCleared,
    ].map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// The confirmation a cookie's code names; nil for one no form sets (a cookie changed by hand).
    init?(code: String) {
        let parts = code.split(separator: "-", maxSplits: 1).map(String.init)
        switch (parts.first ?? "", parts.count == 2 ? parts[1] : nil) {
        case ("added", let id?): guard let id = ItemID(id) else { return nil }; self = .added(id)
        case ("already", let id?): guard let id = ItemID(id) else { return nil }; self = .already(id)
        case ("reserved", let id?): guard let id = ItemID(id) else { return nil }; self = .reserved(id)
        case ("read", let bookID?): self = .read(bookID: bookID, offWishlist: false)
        case ("readoff", let bookID?): self = .read(bookID: bookID, offWishlist: true)
        case ("rated", let bookID?): self = .rated(bookID: bookID)
        case ("readingnow", let bookID?): self = .readingNow(bookID: bookID)
        case (let word, nil): guard let flash = Self.plain[word] else { return nil }; self = flash
        default: return nil
        }
    }

    /// The redirect to `location` that shows this confirmation there, on the card `card` (a
    /// book's or an item's, ``Card``) when the page has it.
    func redirect(to location: String, card: String? = nil, secure: Bool) -> Response {
        var response = WishlistWeb.redirect(to: location)
        response.setCookie(FlashMiddleware.cookie(code, card: card, secure: secure))
        return response
    }
}
