import Synchronization
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Rendered rank charts, kept until their history changes. A history changes only when its list
/// gets an edition, so a book page rebuilds its charts about once a week, not on every request.
///
/// - **Key**: the page's language and the history itself (``RankHistory``: the list, its editions
///   and the book's rank and weeks in each), read by one indexed query, so a new edition can never
///   show a stale chart.
/// - **Invalidated**: never explicitly; a changed history is another key.
/// - **Bounded**: at most `capacity` charts; when full, all go.
final class RankChartCache: Sendable {
    /// Charts kept at most; when full the cache starts again empty, which is simpler than an LRU
    /// and costs one render per chart when it happens.
    let capacity: Int
    private struct Key: Hashable {
        let language: String
        let history: RankHistory
    }

    private let charts = Mutex<[Key: TrustedHTML]>([:])

    init(capacity: Int = 2_000) {
        self.capacity = capacity
    }

    /// The chart's markup (`partials/rank-chart.html`), rendered once per history and language.
    func html(for history: RankHistory, in translations: Translations, _ render: (TemplateValue) throws -> TrustedHTML) rethrows -> TrustedHTML {
        let key = Key(language: translations.language.code, history: history)
        if let cached = charts.withLock({ $0[key] }) { return cached }
        let html = try render(RankChart(history: history, translations: translations).templateValue)
        charts.withLock { charts in
            if charts.count >= capacity { charts.removeAll(keepingCapacity: true) }
            charts[key] = html
        }
        return html
    }

    var count: Int { charts.withLock { $0.count } }
}
