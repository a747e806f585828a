/// The one forwarding header believed from a trusted proxy (`server.forwardedHeader`). Only one:
/// a proxy replaces the header it sets and passes the other on as the visitor wrote it, so
/// believing whichever arrived would let a visitor pick their own address (issue 50).
public enum ForwardingHeader: String, Sendable, Equatable, CaseIterable {
    case xForwardedFor = "X-Forwarded-For"
    /// RFC 7239's `Forwarded: for=…`.
    case forwarded = "Forwarded"
}

/// Who a request came from when it may have passed through reverse proxies (`server.trustedProxies`).
///
/// Only a proxy we trust may say who its client was: when the TCP peer is one of
/// `trustedProxies`, the addresses its forwarding header (`server.forwardedHeader`; the other
/// is ignored) lists are read from the right (the hop nearest to us) and the first one that is
/// not itself a trusted proxy is the client, since everything to its left was written by a
/// client who can write anything. A request whose peer is not trusted is its peer, whatever its
/// headers say.
public struct ForwardedClient: Sendable, Equatable {
    /// The address throttles and every per-client rule use.
    public let address: String
    /// Whether a proxy forwarded the request (it carries a forwarding header): `/metrics` refuses
    /// those, trusted or not, since whoever reached the proxy is not a scraper on this machine.
    public let isForwarded: Bool

    /// `forwardedFor` is the `X-Forwarded-For` header's values in order, `forwarded` the `Forwarded`
    /// header's (RFC 7239); only `believed`'s name the client.
    public init(peer: String, trustedProxies: [AddressRange], believed: ForwardingHeader, forwardedFor: [String], forwarded: [String]) {
        let hops = switch believed {
        case .xForwardedFor: Self.hops(forwardedFor: forwardedFor)
        case .forwarded: Self.hops(forwarded: forwarded)
        }
        isForwarded = !forwarded.isEmpty || !forwardedFor.isEmpty
        guard !trustedProxies.isEmpty, trustedProxies.contains(address: peer) else {
            address = peer
            return
        }
        var client = peer
        for hop in hops.reversed() {
            // A hop that is no address (`unknown`, an obfuscated name) stops the walk: the last
            // trusted hop is as far as we can vouch for.
            guard AddressRange.bytes(of: hop) != nil else { break }
            client = hop
            if !trustedProxies.contains(address: hop) { break }
        }
        address = client
    }

    /// `X-Forwarded-For: client, proxy1, proxy2`, over one or several header lines.
    static func hops(forwardedFor values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { Self.bare(String($0.trimmed)) }
    }

    /// `Forwarded: for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"`: each element's `for`.
    static func hops(forwarded values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { element in
            let pair = element.split(separator: ";").map { $0.trimmed }.first { $0.lowercased().hasPrefix("for=") }
            return pair.map { Self.bare(String($0.dropFirst(4))) } ?? "unknown"
        }
    }

    /// An address without quotes, brackets or port: `"[2001:db8::1]:4711"` → `2001:db8::1`.
    static func bare(_ text: String) -> String {
        var value = Substring(text)
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
        if value.hasPrefix("[") {
            return String(value.dropFirst().prefix { $0 != "]" })
        }
        // One colon is IPv4 with a port; more is IPv6 without brackets, taken as it is.
        if value.filter({ $0 == ":" }).count == 1 { return String(value.prefix { $0 != ":" }) }
        return String(value)
    }
}

private extension Substring {
    /// Without the spaces and tabs that may surround a list element.
    var trimmed: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
