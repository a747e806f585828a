import Synchronization
import WishlistCore
import WishlistTemplates

/// A page rendered once for every visitor who sees the same thing, with slots for what is each
/// visitor's own (``PageRenderer/renderShared(_:title:nav:isAdmin:statusLine:language:values:own:)``).
protocol SharedPage: Sendable {
    /// The bytes kept: the page and any fragments that fill its slots.
    var byteCount: Int { get }
}

/// What makes two visitors' pages the same apart from their slots.
protocol SharedPageKey: Hashable, Sendable {
    /// The generation the page was read at: a number that grows with every change to the rows
    /// the page shows, by any process. For list and book pages the catalog's
    /// (``CatalogStore/Reader/generation()``); for wishlist pages the catalog's plus the owner's
    /// (``WishlistPageKey``).
    var generation: Int64 { get set }
}

extension SharedPageKey {
    /// Which page this is, whatever its generation.
    var identity: Self {
        var identity = self
        identity.generation = 0
        return identity
    }
}

/// Pages rendered once and kept, in memory, for every visitor whose request has the same key.
///
/// - **Key**: the key type's fields (the page's parameters, what differs between visitors of one
///   kind, such as being an admin, and the status line) plus its ``SharedPageKey/generation``.
/// - **Invalidated**: each page is kept with the generation it was read at and found only under
///   that one: a write by any process (a refresh, a back-fill, `wishlist user …`) is seen on the
///   next request, because the generation is read in the request's own transaction. A page is
///   replaced by its newer rendering, never by an older one a slower request finished later.
///   Generations are a page's own, not the cache's: one member's wishes leave another's pages be.
/// - **Bounded**: at most `capacity` pages and `maximumBytes` of them (``SharedPage/byteCount``);
///   when either is reached, the oldest go. A page longer than the whole budget is kept alone.
///
/// The caches in this folder: the shared pages (``PageCaches``: list, book, a person's own
/// wishlist, a member's wishlist as a giver sees it), ``PageReadMemo`` (whole session reads) and
/// ``RankChartCache`` (rendered charts).
final class SharedPageCache<Key: SharedPageKey, Entry: SharedPage>: Sendable {
    /// The page's name in `wishlist_page_cache_lookups_total`: list, book.
    let page: String
    let capacity: Int
    let maximumBytes: Int
    let metrics: MetricsRegistry?
    private let state = Mutex(State())

    private struct State {
        /// Under each key's ``SharedPageKey/identity``.
        var entries: [Key: (generation: Int64, entry: Entry)] = [:]
        /// The pages kept, in the order they were rendered, oldest first.
        var order: [Key] = []
        /// The sum of the kept pages' ``SharedPage/byteCount``.
        var bytes = 0
        var hits = 0
        var misses = 0
    }

    init(page: String, capacity: Int, maximumBytes: Int = .max, metrics: MetricsRegistry? = nil) {
        self.page = page
        self.capacity = capacity
        self.maximumBytes = maximumBytes
        self.metrics = metrics
    }

    func entry(_ key: Key) -> Entry? {
        let entry = state.withLock { state in
            var entry: Entry?
            if let kept = state.entries[key.identity], kept.generation == key.generation { entry = kept.entry }
            if entry == nil { state.misses += 1 } else { state.hits += 1 }
            return entry
        }
        metrics?.increment(.pageCacheLookups, [("page", page), ("result", entry == nil ? "miss" : "hit")])
        return entry
    }

    func keep(_ entry: Entry, for key: Key) {
        let identity = key.identity
        state.withLock { state in
            if let kept = state.entries[identity] {
                guard kept.generation < key.generation else { return }
                state.bytes -= kept.entry.byteCount
                // Rendered just now, it is the newest page, and the last to go.
                state.order.removeAll { $0 == identity }
            }
            state.order.append(identity)
            state.entries[identity] = (key.generation, entry)
            state.bytes += entry.byteCount
            while state.order.count > capacity || (state.bytes > maximumBytes && state.order.count > 1) {
                let oldest = state.order.removeFirst()
                state.bytes -= state.entries.removeValue(forKey: oldest)?.entry.byteCount ?? 0
            }
        }
    }

    /// Hits, misses, and the bytes of the pages kept.
    var statistics: SharedPageStatistics {
        state.withLock { state in
            SharedPageStatistics(
                hits: state.hits, misses: state.misses, entries: state.entries.count, bytes: state.bytes
            )
        }
    }
}

struct SharedPageStatistics: Sendable {
    let hits: Int
    let misses: Int
    let entries: Int
    let bytes: Int
}

/// A book's wishlist mark in both states, each with slots for the visitor's token, the page's
/// address and the item's id: an add form, and a link to the item.
struct WishlistMarks<Slot: Sendable>: Sendable {
    let add: SharedHTML<Slot>
    let on: SharedHTML<Slot>

    var byteCount: Int { add.byteCount + on.byteCount }

    func mark(itemID: ItemID?) -> SharedHTML<Slot> { itemID == nil ? add : on }
}

/// The rendered pages kept, one cache per kind of page.
final class PageCaches: Sendable {
    /// List pages in the NYT's orders (rank, weeks), kept while the catalog is unchanged.
    let lists: ListPageCache
    /// List pages in the household's orders (most wanted, best rated), which every wish or
    /// rating changes.
    let householdOrderedLists: ListPageCache
    let books: BookPageCache
    /// A person's own wishlist pages, never emptied by a reservation.
    let ownWishlists: WishlistPageCache
    /// Members' pages as the others see them, reservations included.
    let memberWishlists: WishlistPageCache
    /// Members' profiles and reading, which their pages show around their wishlists.
    let memberAbouts: MemberAboutCache

    init(metrics: MetricsRegistry? = nil) {
        lists = ListPageCache(page: "list", metrics: metrics)
        householdOrderedLists = ListPageCache(page: "list-by-household", metrics: metrics)
        books = BookPageCache(metrics: metrics)
        ownWishlists = WishlistPageCache(page: "wishlist", metrics: metrics)
        memberWishlists = WishlistPageCache(page: "member", metrics: metrics)
        memberAbouts = MemberAboutCache(metrics: metrics)
    }

    /// What `/metrics` reports as `wishlist_page_cache_bytes`.
    var bytes: Int {
        lists.statistics.bytes + householdOrderedLists.statistics.bytes + books.statistics.bytes + ownWishlists.statistics.bytes + memberWishlists.statistics.bytes
            + memberAbouts.statistics.bytes
    }
}
