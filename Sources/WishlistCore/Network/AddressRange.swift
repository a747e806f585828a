#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An IP address, or a block of them in CIDR notation (`10.0.0.0/8`, `fd00::/8`), as
/// `server.trustedProxies` and `metrics.allowFrom` name them. IPv4 addresses are kept as
/// IPv4-mapped IPv6 (`::ffff:a.b.c.d`), so `127.0.0.1` also matches a dual-stack socket's
/// `::ffff:127.0.0.1`.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    let network: [UInt8]
    let prefixLength: Int
    public let description: String

    /// Parses `text`; nil when it is not an address or a block with a prefix length that fits.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.bytes(of: String(parts[0])) else { return nil }
        let isIPv4 = !parts[0].contains(":")
        let length: Int
        if parts.count == 2 {
            guard let stated = Int(parts[1]), parts[1].allSatisfy(\.isASCII), stated >= 0, stated <= (isIPv4 ? 32 : 128) else { return nil }
            length = isIPv4 ? stated + 96 : stated
        } else {
            length = 128
        }
        network = Self.masked(address, to: length)
        prefixLength = length
        description = text
    }

    /// Whether `address` (as a socket or a forwarding header writes it) is in this range.
    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return contains(bytes: bytes)
    }

    /// Whether an address's 16 bytes (IPv4 mapped, as ``bytes(of:)`` gives them) are in this range.
    func contains(bytes: [UInt8]) -> Bool {
        bytes.count == 16 && Self.masked(bytes, to: prefixLength) == network
    }

    /// The loopback blocks, `metrics.allowFrom`'s default.
    public static let loopback = [AddressRange("127.0.0.0/8")!, AddressRange("::1")!]

    /// Whether a URL's host is this machine: `localhost`, or an address in a loopback block
    /// (`[::1]` as a URL writes it).
    public static func isLoopback(host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare.lowercased() == "localhost" || loopback.contains(address: bare)
    }

    /// An address's 16 bytes, IPv4 mapped into IPv6; nil for anything else (a name, `unknown`).
    ///
    /// A NUL makes it no address: `inet_pton` reads only up to the first one, so `10.1.2.3\0`
    /// would pass as 10.1.2.3 and then be kept whole as a client's address, a different one for
    /// each NUL added (found by `make fuzz`, the `forwarded` target).
    static func bytes(of text: String) -> [UInt8]? {
        guard !text.isEmpty, text.count <= 45, !text.utf8.contains(0) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        if !text.contains(":") {
            var v4 = in_addr()
            guard inet_pton(AF_INET, text, &v4) == 1 else { return nil }
            bytes[10] = 0xFF
            bytes[11] = 0xFF
            withUnsafeBytes(of: &v4) { raw in for index in 0..<4 { bytes[12 + index] = raw[index] } }
            return bytes
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        withUnsafeBytes(of: &v6) { raw in for index in 0..<16 { bytes[index] = raw[index] } }
        return bytes
    }

    private static func masked(_ bytes: [UInt8], to length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bits = min(8, max(0, length - index * 8))
            return bits == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        }
    }
}

extension [AddressRange] {
    public func contains(address: String) -> Bool { contains { $0.contains(address) } }
}
