import Foundation

/// The addresses a fetch of something a catalog or a book record named (a cover) may connect to:
/// public ones only. Loopback, private networks (RFC 1918, ULA), link-local, carrier-grade NAT,
/// multicast, unspecified, reserved and documentation blocks are refused, and so is every IPv6
/// address that carries an IPv4 one (mapped, compatible, NAT64 and 6to4 of an internal one), so
/// a URL cannot reach this machine or its network however it spells the host (issue 50).
///
/// `CurlHTTPClient` asks before each connection, with the address libcurl resolved and is about
/// to connect to, on every redirect: nothing is resolved twice, so DNS cannot answer one address
/// to a check and another to the connection.
public struct ReachableAddresses: Sendable, Equatable {
    /// An address (16 bytes, IPv4 mapped) and port.
    struct Endpoint: Sendable, Equatable {
        let address: [UInt8]
        let port: Int
    }

    /// Internal endpoints reachable all the same: the services the admin named by address.
    let named: [Endpoint]

    /// Public addresses only.
    public static let publicOnly = ReachableAddresses(named: [])

    /// Public addresses, and the address and port of each of `serviceURLs` that names its host by
    /// address (or `localhost`): a service the admin configured there, such as a covers mirror on
    /// the network or the fakes the tests run on loopback, is the admin's choice. A host written
    /// as a name gets no exception: what it resolves to is checked like any other.
    public static func publicAnd(servicesAt serviceURLs: [String]) -> ReachableAddresses {
        ReachableAddresses(named: serviceURLs.flatMap(Self.endpoints(of:)))
    }

    static func endpoints(of url: String) -> [Endpoint] {
        guard let components = URLComponents(string: url), let host = components.host?.lowercased() else { return [] }
        let port = components.port ?? (components.scheme?.lowercased() == "https" ? 443 : 80)
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses = bare == "localhost" ? ["127.0.0.1", "::1"] : [bare]
        return addresses.compactMap(AddressRange.bytes(of:)).map { Endpoint(address: $0, port: port) }
    }

    /// Whether a connection to `address` (4 bytes for IPv4, 16 for IPv6) at `port` may be made.
    public func allows(address: [UInt8], port: Int) -> Bool {
        let mapped: [UInt8]
        switch address.count {
        case 4: mapped = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + address
        case 16: mapped = address
        default: return false
        }
        if named.contains(Endpoint(address: mapped, port: port)) { return true }
        return address.count == 4 ? !Self.isInternal(ipv4: mapped) : !Self.isInternal(ipv6: address)
    }

    /// Blocks no public service is at (IANA's special-purpose registry), IPv4 kept mapped as
    /// `AddressRange` keeps it.
    static let internalIPv4 = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
        "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
        "224.0.0.0/4", "240.0.0.0/4",
    ].map { AddressRange($0)! }

    /// The IPv6 blocks: `::/96` (unspecified, loopback, IPv4-compatible) and `::ffff:0:0/96`
    /// (IPv4-mapped) whatever IPv4 address they carry, then discard-only, the IETF's block
    /// (Teredo among them), documentation, local NAT64, ULA, link-local, site-local, multicast.
    static let internalIPv6 = [
        "::/96", "::ffff:0:0/96", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10",
        "ff00::/8",
    ].map { AddressRange($0)! }

    static func isInternal(ipv4 mapped: [UInt8]) -> Bool {
        internalIPv4.contains { $0.contains(bytes: mapped) }
    }

    /// Also internal: a NAT64 (`64:ff9b::/96`) or 6to4 (`2002::/16`) address whose IPv4 address is.
    static func isInternal(ipv6 address: [UInt8]) -> Bool {
        if internalIPv6.contains(where: { $0.contains(bytes: address) }) { return true }
        let prefix = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF]
        if address.starts(with: [0x00, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8)) {
            return isInternal(ipv4: prefix + address[12..<16])
        }
        if address.starts(with: [0x20, 0x02]) {
            return isInternal(ipv4: prefix + address[2..<6])
        }
        return false
    }
}
