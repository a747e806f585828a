import HTTPTypes
import Hummingbird
import WishlistCore

/// Who a request came from, for throttles and every per-client rule: the TCP peer, or, when the
/// peer is one of `server.trustedProxies`, the client its `server.forwardedHeader` names
/// (``ForwardedClient``). Worked out only when a route asks: most requests never need it.
struct ClientAddressing: Sendable {
    let trustedProxies: [AddressRange]
    let believed: ForwardingHeader

    func client(of request: Request, _ context: AppRequestContext) -> ForwardedClient {
        ForwardedClient(
            peer: context.peerAddress, trustedProxies: trustedProxies, believed: believed,
            forwardedFor: request.headers[values: Self.xForwardedFor], forwarded: request.headers[values: Self.forwarded]
        )
    }

    func address(of request: Request, _ context: AppRequestContext) -> String {
        client(of: request, context).address
    }

    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwarded = HTTPField.Name("Forwarded")!
}
