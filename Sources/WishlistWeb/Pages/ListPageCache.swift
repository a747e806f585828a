import Synchronization
import WishlistCore
import WishlistTemplates

/// Rendered list pages, shared by every visitor who sees the same thing.
///
/// The catalog part of a list page (the books, their movement, the edition links) is the same for
/// every user who opens an edition in the same order, so it is rendered once, with slots for what
/// is each visitor's own: the CSRF token, the name and count in the header, the page's address in
/// its forms, and each book's wishlist mark. The marks are rendered once per book too, in both
/// states (an add form, or a link to the item), and a request only copies bytes and fills slots.
///
/// Entries are kept under the catalog's generation, which grows with every change to the catalog
/// tables by any process, so a refresh or a back-fill is seen on the next request; entries of an
/// older generation are dropped when a newer one is first seen.
final class ListPageCache: Sendable {
    /// What makes two visitors' list pages the same apart from their slots.
    struct Key: Hashable, Sendable {
        let list: String
        /// The `date` asked for; empty for the current edition.
        let date: String
        let sortsByWeeks: Bool
        let isFavorite: Bool
        let isAdmin: Bool
        let statusLine: String?
        let generation: Int64
    }

    struct Entry: Sendable {
        let page: SlottedHTML
        /// The edition's books, in the page's order.
        let bookIDs: [String]
        /// Each book's wishlist mark: the add form, and the link to the item.
        let marks: [String: (add: SlottedHTML, on: SlottedHTML)]
        let isCurrent: Bool
        let byteCount: Int
    }

    /// Pages kept at most: a few per list covers the current editions in both orders; when full,
    /// the oldest entry goes.
    let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var entries: [Key: Entry] = [:]
        var order: [Key] = []
        var generation: Int64 = 0
        var hits = 0
        var misses = 0
    }

    init(capacity: Int = 128) {
        self.capacity = capacity
    }

    func entry(_ key: Key) -> Entry? {
        state.withLock { state in
            let entry = state.entries[key]
            if entry == nil { state.misses += 1 } else { state.hits += 1 }
            return entry
        }
    }

    func keep(_ entry: Entry, for key: Key) {
        state.withLock { state in
            if key.generation > state.generation {
                state.entries.removeAll(keepingCapacity: true)
                state.order.removeAll(keepingCapacity: true)
                state.generation = key.generation
            }
            guard key.generation == state.generation, state.entries[key] == nil else { return }
            if state.order.count >= capacity { state.entries[state.order.removeFirst()] = nil }
            state.entries[key] = entry
            state.order.append(key)
        }
    }

    /// Hits, misses, and the bytes of the pages and marks kept.
    var statistics: (hits: Int, misses: Int, entries: Int, bytes: Int) {
        state.withLock { state in
            (state.hits, state.misses, state.entries.count, state.entries.values.reduce(0) { $0 + $1.byteCount })
        }
    }
}
