import WishlistCore
import WishlistTemplates

/// Rendered list pages. The catalog part of a list page (the books, their movement, the edition
/// links) is the same for every user who opens an edition in the same order, so it is rendered
/// once; the marks are rendered once per book too, and a request only copies bytes and fills slots.
typealias ListPageCache = SharedPageCache<ListPageKey, ListPage>

extension ListPageCache {
    /// A few pages per list covers the current editions in both orders and a few old ones.
    convenience init(metrics: MetricsRegistry? = nil) { self.init(page: "list", capacity: 128, metrics: metrics) }
}

struct ListPageKey: SharedPageKey {
    let list: String
    /// The `date` asked for; empty for the current edition.
    let date: String
    let sortsByWeeks: Bool
    let isFavorite: Bool
    let isAdmin: Bool
    let statusLine: String?
    let generation: Int64
}

struct ListPage: SharedPage {
    let page: SlottedHTML
    /// The edition's books, in the page's order.
    let bookIDs: [String]
    let marks: [String: WishlistMarks]
    /// Each book's slots by name, so that filling one is a single look-up.
    let bookSlots: [String: BookSlot]
    let isCurrent: Bool
    let byteCount: Int

    enum BookSlot: Sendable {
        /// The book's wishlist mark: `mark:<book>`.
        case mark(bookID: String, WishlistMarks)
        /// The book's wishlist item id, in its mark: `item:<book>`.
        case item(bookID: String)
    }

    static func bookSlots(_ marks: [String: WishlistMarks]) -> [String: BookSlot] {
        var slots: [String: BookSlot] = [:]
        for (bookID, mark) in marks {
            slots["mark:" + bookID] = .mark(bookID: bookID, mark)
            slots["item:" + bookID] = .item(bookID: bookID)
        }
        return slots
    }
}

/// Rendered book pages: the description, the lists, the rank charts and the links are the same
/// for everyone; the wishlist mark is filled per visitor.
typealias BookPageCache = SharedPageCache<BookPageKey, BookPage>

extension BookPageCache {
    /// The most visited books; a page with two years of charts is about 60 KB, so 128 of them stay
    /// under 8 MB.
    convenience init(metrics: MetricsRegistry? = nil) { self.init(page: "book", capacity: 128, metrics: metrics) }
}

struct BookPageKey: SharedPageKey {
    let bookID: String
    let isAdmin: Bool
    let statusLine: String?
    let generation: Int64
}

struct BookPage: SharedPage {
    let page: SlottedHTML
    let marks: WishlistMarks

    var byteCount: Int { page.byteCount + marks.byteCount }
}

/// Rendered wishlist pages: a person's own (`/wishlist`) and a member's as another sees it
/// (`/people/{username}`). Each is one viewer's, so the key names both people; what is the
/// session's (the token, the flash) is still filled per request. Kept under the catalog and
/// wishlist generations together, which any change to an item, a reservation, a user or the
/// catalog grows.
typealias WishlistPageCache = SharedPageCache<WishlistPageKey, WishlistPage>

extension WishlistPageCache {
    /// A 200-item wishlist is about 250 KB: 48 pages stay under 12 MB.
    convenience init(metrics: MetricsRegistry? = nil) { self.init(page: "wishlist", capacity: 48, metrics: metrics) }
}

struct WishlistPageKey: SharedPageKey {
    enum Page: Hashable, Sendable { case own, member }

    let page: Page
    let ownerID: Int64
    let viewerID: Int64
    let sort: WishlistSort
    let isAdmin: Bool
    let statusLine: String?
    /// The catalog's generation plus the wishlists': both only grow, so the sum grows with either.
    let generation: Int64
}

struct WishlistPage: SharedPage {
    let page: SlottedHTML

    var byteCount: Int { page.byteCount }
}

/// What a wishlist page's read found: the page, or what to render it from.
enum WishlistPageRead<Item: Sendable>: Sendable {
    case cached(WishlistPage)
    case fresh(WishlistPageKey, [Item], [String: [Placement]])

    var isCached: Bool {
        if case .cached = self { true } else { false }
    }
}
