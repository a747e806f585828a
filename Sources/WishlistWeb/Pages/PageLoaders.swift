import Hummingbird
import WishlistCore

/// What a page reads, run in its visitor's session read: a signed-in page costs one read
/// transaction, not one for the session and another for the page (issue 17's page read).
///
/// Kept by route pattern. `SessionMiddleware` runs the route's loader for a signed-in GET right
/// after finding the session, in the same transaction, and leaves the result in
/// ``AppRequestContext/loadedPage``. The route reads for itself when there is none: no loader, no
/// session, or a loader that threw (the route then meets the same error and answers it as usual).
/// A loader only reads; what it returns is the route's own type, which the route casts back.
struct PageLoaders: Sendable {
    typealias Load = @Sendable (Request, AppRequestContext, Visitor.SignedIn, PageRead) throws -> any Sendable

    private var loads: [String: Load] = [:]

    /// Registers `load` for the route `path`, written as the route is (`lists/:list`).
    mutating func add(_ path: RouterPath, _ load: @escaping Load) {
        loads[path.description] = load
    }

    /// The route patterns with a loader, as Hummingbird names them (`/lists/{list}`).
    var patterns: Set<String> { Set(loads.keys) }

    /// The loader of the route a request was matched to (``RequestContext/endpointPath``).
    func loader(for endpointPath: String?) -> Load? {
        endpointPath.flatMap { loads[$0] }
    }
}

/// A loader's result that may not be worth keeping for the same request (``PageReadMemo``): one
/// that missed a page cache carries what to render, and reusing it would render on every request.
/// A result that does not conform is always kept.
protocol KeepablePageRead {
    var isWorthKeeping: Bool { get }
}

extension AppRequestContext {
    /// What the route's loader read with the session, or, when it did not run, the same read now.
    func loadedPage<Page: Sendable>(
        from database: AppDatabase, orReading read: @Sendable (PageRead) throws -> Page
    ) async throws -> Page {
        if let page = loadedPage as? Page { return page }
        return try await database.pageRead(read)
    }
}
