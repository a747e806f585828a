import Hummingbird
import WishlistCore

/// The health check and the front door.
struct SystemController {
    let database: AppDatabase
    let catalog: CatalogStore

    func addRoutes(to routes: SiteRouter) {
        routes.add(.health, use: health)
        routes.add(.home, use: home)
    }

    /// `200 ok` when the database answers a query.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        let healthy = await database.answers()
        return Response(
            status: healthy ? .ok : .serviceUnavailable,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: healthy ? "ok\n" : "database unavailable\n"))
        )
    }

    /// Signed out: the sign-in page. Signed in: the user's start list, else the catalog.
    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.visitor.signedIn else { return redirect(to: SitePath.signIn) }
        guard let list = try await catalog.defaultList(userID: user.userID) else { return redirect(to: SitePath.catalog) }
        return redirect(to: SitePath.list(list))
    }
}
