import Synchronization
import WishlistTemplates

/// Books' bylines as rows and pages show them (``BookPresenter/bylineValue(author:contributor:linked:)``),
/// each parsed once. Search results and an author's page are made on every request, and reading a
/// byline (its clauses, its names and each name's key) was 6.5% of a search's CPU on the scale
/// database (a release profile, issue 58).
///
/// - **Key**: the book's author and contributor fields and whether its names link: all the value
///   is made of.
/// - **Invalidated**: never; a changed byline is another key.
/// - **Bounded**: at most `capacity` bylines; when full, all go.
final class BylineCache: Sendable {
    /// Bylines kept at most; when full the cache starts again empty, as ``RankChartCache`` does.
    let capacity: Int
    private struct Key: Hashable {
        let author: String
        let contributor: String
        let linked: Bool
    }

    private let values = Mutex<[Key: TemplateValue]>([:])

    init(capacity: Int = 4_000) {
        self.capacity = capacity
    }

    /// The byline's value, `make` the first time it is asked for.
    func value(author: String, contributor: String, linked: Bool, _ make: () -> TemplateValue) -> TemplateValue {
        let key = Key(author: author, contributor: contributor, linked: linked)
        if let cached = values.withLock({ $0[key] }) { return cached }
        let value = make()
        values.withLock { values in
            if values.count >= capacity { values.removeAll(keepingCapacity: true) }
            values[key] = value
        }
        return value
    }

    var count: Int { values.withLock { $0.count } }
}
