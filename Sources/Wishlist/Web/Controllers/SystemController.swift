import GRDB
import Hummingbird

/// The health check and the front door.
struct SystemController {
    let database: AppDatabase
    let catalog: CatalogStore

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("healthz", use: health)
        router.get("", use: home)
    }

    /// `200 ok` when the database answers a query.
    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        let healthy = (try? await database.pool.read { try Int.fetchOne($0, sql: "SELECT 1") }) == 1
        return Response(
            status: healthy ? .ok : .serviceUnavailable,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: healthy ? "ok\n" : "database unavailable\n"))
        )
    }

    /// Signed out: the sign-in page. Signed in: the user's start list, else the catalog.
    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.visitor.signedIn else { return redirect(to: "/login") }
        guard let list = try await catalog.defaultList(userID: user.userID) else { return redirect(to: "/lists") }
        return redirect(to: "/lists/\(list)")
    }
}
