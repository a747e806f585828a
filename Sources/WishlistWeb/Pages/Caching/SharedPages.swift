import WishlistCore
import WishlistTemplates

/// Rendered list pages. The catalog part of a list page (the books, their movement, the edition
/// links) is the same for every user who opens an edition in the same order, so it is rendered
/// once; the marks are rendered once per book too, and a request only copies bytes and fills slots.
/// What the household thinks of each book (how many want it, their ratings) is a slot too, filled
/// per request: wishes and ratings change many times a minute in a busy household, and keyed on
/// them the page would be rendered again for almost every view (issue 34).
/// Key: ``ListPageKey``; invalidated by the catalog's generation, and for the household's orders
/// (most wanted, best rated), whose order follows the wishes, by the wishlists' generation too:
/// those pages have a cache of their own (``PageCaches/householdOrderedLists``), since a cache
/// keeps one generation and the two never compare.
typealias ListPageCache = SharedPageCache<ListPageKey, ListPage>

extension ListPageCache {
    /// A few pages per list covers the current editions in both orders and a few old ones.
    convenience init(page: String, metrics: MetricsRegistry? = nil) { self.init(page: page, capacity: 128, metrics: metrics) }
}

struct ListPageKey: SharedPageKey {
    let list: String
    /// The `date` asked for; empty for the current edition.
    let date: String
    let sort: ListSort
    let isFavorite: Bool
    let isAdmin: Bool
    let statusLine: String?
    /// The page's language's code (issue 53).
    let language: String
    var generation: Int64
}

struct ListPage: SharedPage {
    let page: SharedHTML<Slot>
    /// The edition's books, in the page's order.
    let bookIDs: [String]
    /// Each book's wishlist mark, in the page's order.
    let marks: [WishlistMarks<Slot>]
    let isCurrent: Bool
    let byteCount: Int

    typealias Fill = SharedHTML<Slot>.Fill

    /// The list page's own slots; a book's by its index in the page's order.
    enum Slot: Equatable, Sendable {
        case returnTo
        case newThisWeek
        /// The book's wishlist mark (`mark:<book>`).
        case mark(Int)
        /// The book's wishlist item id, in its mark (`item:<book>`).
        case item(Int)
        /// The visitor's confirmation on the book's card, when it is this card's (`flash:<book>`).
        case flash(Int)
        /// What the household thinks of the book (`standing:<book>`).
        case standing(Int)

        /// The slot named `name` on a page of the books `indexes` numbers.
        init?(_ name: String, indexes: [String: Int]) {
            if name == "return_to" {
                self = .returnTo
            } else if name == "new_this_week" {
                self = .newThisWeek
            } else if name.hasPrefix("mark:"), let index = indexes[String(name.dropFirst(5))] {
                self = .mark(index)
            } else if name.hasPrefix("item:"), let index = indexes[String(name.dropFirst(5))] {
                self = .item(index)
            } else if name.hasPrefix("flash:"), let index = indexes[String(name.dropFirst(6))] {
                self = .flash(index)
            } else if name.hasPrefix("standing:"), let index = indexes[String(name.dropFirst(9))] {
                self = .standing(index)
            } else {
                return nil
            }
        }
    }
}

/// Rendered book pages: the description, the lists, the rank charts and the links are the same for
/// everyone; the wishlist mark and the visitor's own reading are filled per visitor, and what the
/// household thinks (its wishes, readings and reviews, which change all day) per request.
/// Key: ``BookPageKey``; invalidated by the catalog's generation.
typealias BookPageCache = SharedPageCache<BookPageKey, BookPage>

extension BookPageCache {
    /// The most visited books: the current lists carry about 300 (18 lists of 15, some on two),
    /// and a page with two years of charts is about 60 KB, most far less, so 320 of them stay
    /// under 20 MB. At 128 a household browsing the lists found half its book pages gone (issue 34).
    convenience init(metrics: MetricsRegistry? = nil) { self.init(page: "book", capacity: 320, metrics: metrics) }
}

struct BookPageKey: SharedPageKey {
    let bookID: String
    let isAdmin: Bool
    let statusLine: String?
    let language: String
    var generation: Int64
}

struct BookPage: SharedPage {
    let page: SharedHTML<Slot>
    let marks: WishlistMarks<Slot>
    let title: String
    /// The key of a cover the page was rendered without, not fetched yet: once it is, the page is
    /// rendered again to carry it.
    var coverToCome: String?

    /// The book page's own slots.
    enum Slot: Equatable, Sendable {
        case returnTo
        case wishlistMark
        /// Which of her lists the add form puts the book on, when she has two or more (issue 51).
        case listChoice
        /// The visitor's wishlist item of the book, in its mark (`item:<book>`).
        case item
        /// The visitor's own reading form.
        case yourReading
        /// What the household thinks of the book.
        case household
        /// "Add to Bea’s wishlist" for each child the visitor manages (issue 51).
        case childrenMarks
        /// Who here wants the book, with Reserve beside each (issue 57).
        case givers

        init?(_ name: String, bookID: String) {
            switch name {
            case "children_marks": self = .childrenMarks
            case "your_reading": self = .yourReading
            case "household": self = .household
            case "givers": self = .givers
            case "return_to": self = .returnTo
            case "wishlist_mark": self = .wishlistMark
            case "list_choice": self = .listChoice
            case "item:" + bookID: self = .item
            default: return nil
            }
        }
    }

    var byteCount: Int { page.byteCount + marks.byteCount }
}

/// Rendered wishlist pages: a person's own (`/wishlist`) and a member's as the others see it
/// (`/people/{username}`), in two caches (``PageCaches``) because they are kept under different
/// generations: the owner's under the catalog's and her wishes' (her items, nothing else), a
/// member's under the catalog's and everything her wishlist shows the others
/// (``HouseholdStore/Reader/memberWishlistGeneration(ownerID:)``). Nothing a giver does grows the
/// first, or the owner's next page would be rendered afresh and its timing would tell her (issue
/// 27). A member's page is one for all the others: each reserved book's controls are rendered
/// for the giver who holds it and for everyone else, and filled per request (``WishlistPage``),
/// an open book's with its row;
/// the session's token and flash are slots too, and so are her profile and reading
/// (``MemberAboutPage``), kept apart under what changes them. Key: ``WishlistPageKey``.
typealias WishlistPageCache = SharedPageCache<WishlistPageKey, WishlistPage>

extension WishlistPageCache {
    /// A page of a wishlist holds at most 100 books, about 150 KB; a typical list of 20 books is
    /// 30–70 KB. Bounded by bytes first: 32 MiB keeps a few hundred typical pages, and 1,000 pages
    /// at most. At 200 pages the household mix, whose members visit 400 people's pages, found
    /// three in five of them gone (issue 34).
    convenience init(page: String, metrics: MetricsRegistry? = nil) {
        self.init(page: page, capacity: 1_000, maximumBytes: 32 << 20, metrics: metrics)
    }
}

struct WishlistPageKey: SharedPageKey {
    enum Page: Hashable, Sendable { case own, member }

    let page: Page
    /// Whose wishlist: the visitor's own, or the member's the others see.
    let ownerID: UserID
    let sort: WishlistSort
    /// Which page of a long wishlist (``PagedList``), as asked for.
    let pageNumber: Int
    let isAdmin: Bool
    let statusLine: String?
    let language: String
    /// The catalog's generation plus the owner's (her wishes' on her own page, her wishlist's as
    /// the others see it on her member page): each only grows, so the sum grows with any of them.
    var generation: Int64
    /// One of her lists, on her own wishlist filtered with `?list=` (issue 51); nil for all her wants.
    var list: ListID?
    /// The local day, on a member's page whose lists say how soon their occasions are ("in 12 days").
    var day: Int?
}

struct WishlistPage: SharedPage {
    let page: SharedHTML<Slot>
    /// The page's cards in its order: a member's items (`item-<id>`), whose forms return to them.
    /// None on one's own wishlist, whose forms lead elsewhere.
    var cards: [String] = []
    /// Each card's reservation controls, in the same order, where they depend on who looks: nil
    /// for a book every giver sees alike (open, or a guest's), whose controls are in its row.
    var reservations: [ReservationActions?] = []
    /// How many books the whole wishlist holds, for the member's profile (`wish_count`).
    var wishCount = 0

    var byteCount: Int { page.byteCount + reservations.reduce(0) { $0 + ($1?.byteCount ?? 0) } }

    /// The slots of a member's page: a card's (its index in `cards`), or her profile's and reading's.
    enum Slot: Equatable, Sendable {
        /// The visitor's confirmation, when it is this card's (`flash:<card>`).
        case flash(Int)
        /// The card's reservation controls as the visitor sees them (`reservation:<card>`).
        case reservation(Int)
        /// Her profile, rendered apart (``MemberAboutPage``).
        case profile
        /// Her reading, rendered with her profile.
        case reading
        /// In her profile: how many books she wishes for, which her wishlist knows.
        case wishCount

        /// The slot named `name` on a page of the cards `indexes` numbers (``cardIndexes(_:)``):
        /// a page of 100 books has 200 card slots, each looked up once when it is rendered.
        init?(_ name: String, indexes: [String: Int]) {
            switch name {
            case "profile": self = .profile
            case "reading": self = .reading
            case "wish_count": self = .wishCount
            default:
                let parts = name.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let card = indexes[String(parts[1])] else { return nil }
                switch parts[0] {
                case "flash": self = .flash(card)
                case "reservation": self = .reservation(card)
                default: return nil
                }
            }
        }

        /// Each card's index in `cards`, for ``init(_:indexes:)``.
        static func cardIndexes(_ cards: [String]) -> [String: Int] {
            Dictionary(cards.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// One book's reservation controls (partials/reservation-actions.html), rendered for the
    /// giver who holds it (mark bought, the card, cancel) and for everyone else (reserve, or who
    /// has it), with slots for the visitor's token.
    struct ReservationActions: Sendable {
        let holderID: UserID?
        let forOthers: SharedHTML<Slot>
        let forHolder: SharedHTML<Slot>?

        func seen(by viewerID: UserID?) -> SharedHTML<Slot> {
            if let forHolder, holderID == viewerID { forHolder } else { forOthers }
        }

        var byteCount: Int { forOthers.byteCount + (forHolder?.byteCount ?? 0) }
    }
}

/// A member's profile and reading as her page shows them, rendered apart from her wishlist and
/// kept under what changes them: her account, readings, favourites and picture
/// (``HouseholdStore/Reader/memberAboutGeneration(ownerID:)``) and the catalog's generation. A
/// household's readers rate and review all day; kept with the wishlist, each rating rendered her
/// whole wishlist again, and each reservation her profile and reading (issue 34). Her wish count
/// is a slot, filled from the wishlist's page. Key: ``MemberAboutKey``.
typealias MemberAboutCache = SharedPageCache<MemberAboutKey, MemberAboutPage>

extension MemberAboutCache {
    /// One for each member's page kept (``WishlistPageCache``), which shows one of these.
    convenience init(metrics: MetricsRegistry? = nil) {
        self.init(page: "member-about", capacity: 1_000, maximumBytes: 16 << 20, metrics: metrics)
    }
}

struct MemberAboutKey: SharedPageKey {
    let ownerID: UserID
    /// The year her profile counts the books she read in.
    let readingYear: Int
    let language: String
    var generation: Int64
}

struct MemberAboutPage: SharedPage {
    let profile: SharedHTML<WishlistPage.Slot>
    let reading: SharedHTML<WishlistPage.Slot>

    var byteCount: Int { profile.byteCount + reading.byteCount }
}

/// What a member's page's read found of her profile and reading: the rendering, or what to render it from.
enum MemberAboutRead: Sendable {
    case cached(MemberAboutPage)
    case fresh(MemberAboutKey, MemberAbout)

    var isCached: Bool {
        if case .cached = self { true } else { false }
    }
}

/// The profile and reading a member's page opens and ends with: of her reading, the first page.
struct MemberAbout: Sendable {
    let profile: Profile
    let readThisYear: Int
    let readings: PagedList<Reading>
    /// The books she reads now (issue 57), shown wherever her readings are.
    let readingNow: [CurrentReading]
}

/// What a wishlist page's read found: the page, or what to render it from.
enum WishlistPageRead<Item: Sendable>: Sendable {
    case cached(WishlistPage)
    /// The page's key, its part of the wishlist, and the lists its books are on.
    case fresh(WishlistPageKey, PagedList<Item>, [String: [Placement]])

    var isCached: Bool {
        if case .cached = self { true } else { false }
    }
}
