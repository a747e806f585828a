import Foundation
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 50: the cover job fetched whatever a catalog's URL named, loopback and a decimal IP
/// included, and followed redirects there, then served the result under `/covers/`. Covers come
/// from public addresses only, checked as libcurl connects, on every redirect.
///
/// Everything here runs on loopback, which the rule refuses: the fakes are reached through the
/// one exception, a service the configuration names by address (`openLibrary.coversURL`).
@Suite("Covers come from public addresses only", .removesTemporaryDirectories)
struct CoverAddressTests {
    typealias Fake = FakeOpenLibraryServer

    static func bytes(_ text: String) -> [UInt8] {
        let mapped = AddressRange.bytes(of: text)!
        return text.contains(":") ? mapped : Array(mapped[12...])
    }

    @Test(arguments: [
        "127.0.0.1", "127.255.0.9", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "100.127.255.255", "192.0.0.8", "198.18.0.1", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
        "::", "::1", "::127.0.0.1", "::ffff:127.0.0.1", "::ffff:8.8.8.8", "fe80::1", "fc00::1", "fd12:3456::1", "fec0::1",
        "ff02::1", "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b:1::1", "2002:7f00:1::1", "2002:c0a8:101::1", "2001::1",
        "2001:db8::1", "100::1",
    ])
    func internalAddressesAreRefused(address: String) {
        #expect(!ReachableAddresses.publicOnly.allows(address: Self.bytes(address), port: 80))
    }

    @Test(arguments: [
        "8.8.8.8", "93.184.216.34", "100.63.255.255", "100.128.0.1", "172.15.255.255", "172.32.0.1", "192.167.255.255",
        "169.253.0.1", "2606:4700::1111", "2a00:1450:4001::1", "64:ff9b::808:808", "2002:808:808::1",
    ])
    func publicAddressesAreAllowed(address: String) {
        #expect(ReachableAddresses.publicOnly.allows(address: Self.bytes(address), port: 443))
    }

    @Test func aServiceNamedByAddressIsReachableAtItsPortOnly() {
        let named = ReachableAddresses.publicAnd(servicesAt: ["http://127.0.0.1:8081/covers", "https://localhost", "https://covers.example.org"])
        #expect(named.allows(address: Self.bytes("127.0.0.1"), port: 8081))
        #expect(named.allows(address: Self.bytes("::1"), port: 443) && named.allows(address: Self.bytes("127.0.0.1"), port: 443))
        #expect(!named.allows(address: Self.bytes("127.0.0.1"), port: 8082), "another port of the same address")
        #expect(!named.allows(address: Self.bytes("127.0.0.2"), port: 8081))
        #expect(named.allows(address: Self.bytes("8.8.8.8"), port: 8082))
    }

    static let quickLimits = CurlHTTPClient.Limits(connectTimeoutSeconds: 5, totalTimeoutSeconds: 10, maximumBodyBytes: 1_048_576, maximumRedirects: 3)

    /// However the URL spells loopback (a decimal, octal or hex number, a short form, a name, IPv6
    /// and IPv4 mapped into it), no connection is made; without the rule the fake answers.
    @Test func byDefaultLoopbackIsRefusedHoweverTheURLSpellsIt() async throws {
        let fake = Fake(clock: .system)
        try await fake.run { baseURL in
            let port = try #require(URLComponents(string: baseURL)?.port)
            let path = "/b/id/\(Fake.lantern.coverID)-L.jpg"
            #expect(try await CurlHTTPClient(limits: Self.quickLimits).get(baseURL + path).status == 200, "the fake answers a client without the rule")
            let client = CurlHTTPClient(limits: Self.quickLimits, reachable: .publicOnly)
            for host in ["127.0.0.1", "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "localhost", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::1]"] {
                await #expect(throws: CurlHTTPClient.Failure.unreachableAddress, "\(host)") {
                    try await client.get("http://\(host):\(port)\(path)")
                }
            }
            #expect(fake.requests.count == 1, "only the first client's request arrived")
        }
    }

    /// The test-only way in is the production one: the configured service's address and port. A
    /// redirect from it to another loopback port is checked like any URL.
    @Test func aNamedServiceIsReachableButARedirectFromItToAnotherLoopbackPortIsNot() async throws {
        let named = Fake(clock: .system)
        let other = Fake(clock: .system)
        try await named.run { namedURL in
            try await other.run { otherURL in
                let client = CurlHTTPClient(limits: Self.quickLimits, reachable: .publicAnd(servicesAt: [namedURL]))
                let cover = "/b/id/\(Fake.lantern.coverID)-L.jpg"
                let served = try await client.get(namedURL + cover)
                #expect(served.status == 200)
                await #expect(throws: CurlHTTPClient.Failure.unreachableAddress) {
                    try await client.get("\(namedURL)/b/moved?to=\(otherURL)\(cover)")
                }
                await #expect(throws: CurlHTTPClient.Failure.unreachableAddress) { try await client.get(otherURL + cover) }
                #expect(other.requests.isEmpty, "the other port was never connected to")
                #expect(named.requests.map(\.path) == [cover, "/b/moved"])
            }
        }
    }

    /// The app's cover job: with the default settings nothing on loopback is fetched; with the
    /// fake as the covers' host, its covers are, but not a redirect from it, nor another port
    /// spelled as a number, and the log says why without the URL.
    @Test func theCoverJobFetchesFromTheConfiguredServiceAndNothingElseOnLoopback() async throws {
        let named = Fake(clock: .system)
        let other = Fake(clock: .system)
        let log = LogCapture()
        try await named.run { namedURL in
            try await other.run { otherURL in
                let port = try #require(URLComponents(string: otherURL)?.port)
                let cover = "/b/id/\(Fake.lantern.coverID)-L.jpg"
                let defaults = try await WishlistServer.build(
                    config: try TestApp.config { $0.openLibrary.coversURL = AppConfig().openLibrary.coversURL }, logger: log.logger
                )
                #expect(try await Self.fetched(namedURL + cover, by: defaults) == .failed, "the default settings refuse loopback")
                #expect(named.requests.isEmpty)

                let server = try await WishlistServer.build(config: try TestApp.config { $0.openLibrary.coversURL = namedURL }, logger: log.logger)
                #expect(try await Self.fetched(namedURL + cover, by: server) == .ready)
                for refused in ["\(namedURL)/b/moved?to=\(otherURL)\(cover)", otherURL + cover, "http://2130706433:\(port)\(cover)"] {
                    #expect(try await Self.fetched(refused, by: server) == .failed, "\(refused)")
                }
                #expect(other.requests.isEmpty)
            }
        }
        let said = log.all.filter { $0.contains("cover not fetched") }
        #expect(said.count == 4 && said.allSatisfy { $0.contains("refused to connect to an internal address") }, "\(said)")
        #expect(!said.contains { $0.contains("/b/") || $0.contains("127.0.0.1") }, "the log says why, not which cover")
    }

    static func fetched(_ url: String, by server: WishlistServer) async throws -> CoverStore.Status? {
        let store = CoverStore(database: server.database)
        try await store.want(url)
        await server.coverFetcher.fetchDue()
        return try await store.cover(key: CoverKey.of(url))?.status
    }
}
