import Synchronization
import WishlistCore
import WishlistTemplates

/// List pages' "what the household thinks" lines (`partials/book-standing.html`), rendered once
/// per figure and language. A list page is kept rendered for everyone, but each row's line is the
/// visitor's (her own wants are not counted), and its rows show only a few distinct figures
/// ("2 here want it", a star and "4.5 (2)"): rendering each row's on every request was a list
/// page's largest share of its own work (issue 58).
///
/// - **Key**: the page's language and the standing itself (``BookStanding``: want count, average
///   rating, rating count), all that the line shows.
/// - **Invalidated**: never; another figure is another key.
/// - **Bounded**: at most `capacity` lines; when full, all go.
final class StandingLineCache: Sendable {
    /// Lines kept at most; when full the cache starts again empty, as ``RankChartCache`` does.
    let capacity: Int
    private struct Key: Hashable {
        let language: String
        let standing: BookStanding
    }

    private let lines = Mutex<[Key: TrustedHTML]>([:])

    init(capacity: Int = 2_000) {
        self.capacity = capacity
    }

    /// The line for `standing` in `language`, `render`ed the first time it is asked for.
    func html(for standing: BookStanding, language: String, _ render: () throws -> TrustedHTML) rethrows -> TrustedHTML {
        let key = Key(language: language, standing: standing)
        if let cached = lines.withLock({ $0[key] }) { return cached }
        let html = try render()
        lines.withLock { lines in
            if lines.count >= capacity { lines.removeAll(keepingCapacity: true) }
            lines[key] = html
        }
        return html
    }

    var count: Int { lines.withLock { $0.count } }
}
