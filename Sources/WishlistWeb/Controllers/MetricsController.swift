import Hummingbird
import NIOCore
import WishlistCore

/// `GET /metrics` in Prometheus' text format, when `metrics.enabled`. Only a scraper at one of
/// `metrics.allowFrom` (loopback by default: a Prometheus or an agent beside the server) that
/// reached the server directly gets it. A request a proxy forwarded is refused however it
/// arrives, since behind the documented proxy everyone's peer is loopback; anyone else gets the
/// same 404 as for a path that does not exist, so the page does not advertise itself.
struct MetricsController {
    let metrics: MetricsRegistry
    let gauges: ServerGauges
    let pageCaches: PageCaches
    let allowFrom: [AddressRange]
    let addressing: ClientAddressing

    func addRoutes(to routes: SiteRouter) {
        routes.add(.metrics, use: show)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let client = addressing.client(of: request, context)
        guard !client.isForwarded, allowFrom.contains(address: context.peerAddress) else { throw PageError.notFound }
        let text = metrics.render(gauges: try await gauges.read() + [(.pageCacheBytes, Double(pageCaches.bytes))])
            + gauges.writerWaits.render(gauges: [])
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }
}
