import Hummingbird
import NIOCore
import WishlistCore

/// Counts every answer by method, route pattern and status, and times it by route pattern. The
/// pattern (`/wishlist/{item}`), never the path, is the label: paths hold ids and tokens, and one
/// series per id would grow without end.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: MetricsRegistry

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = NIODeadline.now()
        do {
            let response = try await next(request, context)
            record(request, route: context.endpointPath, status: response.status.code, since: start)
            return response
        } catch {
            record(request, route: context.endpointPath, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    private func record(_ request: Request, route: String?, status: Int, since start: NIODeadline) {
        let route = route ?? "unmatched"
        metrics.increment(.httpRequests, [("method", request.method.rawValue), ("route", route), ("status", String(status))])
        metrics.observe(.httpDuration, [("route", route)], value: Double((NIODeadline.now() - start).nanoseconds) / 1e9)
    }
}
