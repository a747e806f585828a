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
    let isCurrent: Bool
    let byteCount: Int
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
