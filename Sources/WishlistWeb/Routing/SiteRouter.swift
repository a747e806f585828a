import Hummingbird
import WishlistCore

/// Hummingbird's router, fed from the route table: each controller's `addRoutes` binds its
/// routes (``Route``) to their handlers here, and the route's access picks the public router or
/// the signed-in group. Hummingbird tries a path's first component against each registered one
/// in the order they were added, so the pages people spend their time on are added first.
struct SiteRouter {
    let router: Router<AppRequestContext>
    let signedIn: RouterGroup<AppRequestContext>
    /// Behind the API's bearer token (issue 54).
    let api: RouterGroup<AppRequestContext>

    func add(_ route: Route, use handler: @escaping @Sendable (Request, AppRequestContext) async throws -> some ResponseGenerator) {
        switch route.access {
        case .anyone: router.on(RouterPath(route.pattern), method: route.method, use: handler)
        case .members: signedIn.on(RouterPath(route.pattern), method: route.method, use: handler)
        case .apiToken: api.on(RouterPath(route.pattern), method: route.method, use: handler)
        }
    }

    /// A signed-in page whose reads run in the session's transaction
    /// (``RouterGroup/page(_:loaders:database:read:respond:)``).
    func page<Page: Sendable>(
        _ route: Route, loaders: PageLoaders, database: AppDatabase,
        read: @escaping @Sendable (Request, AppRequestContext, Visitor.SignedIn, PageRead) throws -> Page,
        respond: @escaping @Sendable (Request, AppRequestContext, Page) async throws -> Response
    ) {
        precondition(route.method == .get && route.access == .members, "\(route) is not a signed-in page")
        signedIn.page(RouterPath(route.pattern), loaders: loaders, database: database, read: read, respond: respond)
    }
}
