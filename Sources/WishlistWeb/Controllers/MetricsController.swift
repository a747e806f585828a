import Hummingbird
import NIOCore
import WishlistCore

/// `GET /metrics` in Prometheus' text format, when `metrics.enabled`. Only a client on this
/// machine (a Prometheus or an agent beside the server) gets it; anyone else gets the same 404
/// as for a path that does not exist, so the page does not advertise itself.
struct MetricsController {
    let metrics: MetricsRegistry
    let gauges: ServerGauges
    let pageCaches: PageCaches

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("metrics", use: show)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard Self.isLoopback(context.clientAddress) else { throw PageError.notFound }
        let text = metrics.render(gauges: try await gauges.read() + [(.pageCacheBytes, Double(pageCaches.bytes))])
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
