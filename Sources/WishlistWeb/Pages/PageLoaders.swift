import Hummingbird
import Synchronization
import WishlistCore

/// What a page reads, run in its visitor's session read: a signed-in page costs one read
/// transaction, not one for the session and another for the page (issue 17's page read).
///
/// Kept by route pattern, filled while the app is built by ``RouterGroup/page(_:loaders:database:read:respond:)``,
/// which registers a route and its loader under the one path it is given. `SessionMiddleware`
/// runs the route's loader for a signed-in GET right after finding the session, in the same
/// transaction, and leaves the result in ``AppRequestContext/loadedPage``. The route reads for
/// itself when there is none: no session, a memo without the page, or a loader that threw (the
/// route then meets the same error and answers it as usual).
final class PageLoaders: Sendable {
    typealias Load = @Sendable (Request, AppRequestContext, Visitor.SignedIn, PageRead) throws -> any Sendable

    /// Written while routes are added, before the server serves; read on every signed-in GET.
    private let loads = Mutex<[String: Load]>([:])

    /// Registers `load` for the route `path`, written as the route is (`lists/:list`).
    func add(_ path: RouterPath, _ load: @escaping Load) {
        loads.withLock { $0[path.description] = load }
    }

    /// The route patterns with a loader, as Hummingbird names them (`/lists/{list}`).
    var patterns: Set<String> { loads.withLock { Set($0.keys) } }

    /// The loader of the route a request was matched to (``RequestContext/endpointPath``).
    func loader(for endpointPath: String?) -> Load? {
        guard let endpointPath else { return nil }
        return loads.withLock { $0[endpointPath] }
    }
}

/// A loader's result that may not be worth keeping for the same request (``PageReadMemo``): one
/// that missed a page cache carries what to render, and reusing it would render on every request.
/// A result that does not conform is always kept.
protocol KeepablePageRead {
    var isWorthKeeping: Bool { get }
}

extension RouterGroup where Context == AppRequestContext {
    /// A signed-in page whose reads run in the session's transaction: `GET path` answered by
    /// `respond` with what `read` found, and `read` registered as the route's loader under the
    /// same path, so neither can be renamed without the other. `read` only reads; it runs in the
    /// session's transaction when it can, otherwise in a read of its own.
    @discardableResult
    func page<Page: Sendable>(
        _ path: RouterPath, loaders: PageLoaders, database: AppDatabase,
        read: @escaping @Sendable (Request, AppRequestContext, Visitor.SignedIn, PageRead) throws -> Page,
        respond: @escaping @Sendable (Request, AppRequestContext, Page) async throws -> Response
    ) -> Self {
        loaders.add(path) { request, context, user, pageRead in try read(request, context, user, pageRead) }
        return get(path) { request, context in
            let user = try context.signedInUser()
            // The loader that filled `loadedPage` is this route's, so the type is `Page`.
            let page = if let loaded = context.loadedPage as? Page {
                loaded
            } else {
                try await database.pageRead { try read(request, context, user, $0) }
            }
            return try await respond(request, context, page)
        }
    }
}
