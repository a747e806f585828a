import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// `server.trustedProxies`: whose forwarding headers are believed, and which hop is the client.
@Suite("Client addresses behind proxies", .removesTemporaryDirectories)
struct ForwardedClientTests {
    static let proxies = [AddressRange("127.0.0.1")!, AddressRange("10.0.0.0/8")!]

    @Test func rangesMatchTheirAddressesOnly() throws {
        let block = try #require(AddressRange("10.0.0.0/8"))
        #expect(block.contains("10.255.1.2") && block.contains("::ffff:10.0.0.1"))
        #expect(!block.contains("11.0.0.1") && !block.contains("unknown") && !block.contains(""))
        let v6 = try #require(AddressRange("fd00::/8"))
        #expect(v6.contains("fd12:3456::1") && !v6.contains("fe80::1"))
        #expect(try #require(AddressRange("::1")).contains("::1"))
        for bad in ["", "10.0.0.0/33", "fd00::/129", "10.0.0.0/-1", "10.0.0", "example.org", "10.0.0.0/8/8", "10.0.0.0/"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: [
        // peer, X-Forwarded-For, Forwarded, the client (X-Forwarded-For believed, the default)
        ("203.0.113.9", ["198.51.100.1"], [String](), "203.0.113.9"),                      // an untrusted peer is itself
        ("127.0.0.1", ["198.51.100.1"], [], "198.51.100.1"),                               // the proxy's client
        ("127.0.0.1", ["6.6.6.6, 198.51.100.1"], [], "198.51.100.1"),                      // what the client wrote is ignored
        ("127.0.0.1", ["6.6.6.6", "198.51.100.1, 10.1.2.3"], [], "198.51.100.1"),          // trusted hops are skipped
        ("127.0.0.1", ["10.1.2.3, 10.4.5.6"], [], "10.1.2.3"),                             // all trusted: the farthest
        ("127.0.0.1", [], [], "127.0.0.1"),                                                // no header: the peer
        ("127.0.0.1", ["garbage"], [], "127.0.0.1"),                                       // no address: the last trusted hop
        ("::ffff:10.0.0.5", ["198.51.100.1"], [], "198.51.100.1"),
    ])
    func theRightmostUntrustedHopIsTheClient(peer: String, forwardedFor: [String], forwarded: [String], client: String) {
        let found = ForwardedClient(peer: peer, trustedProxies: Self.proxies, believed: .xForwardedFor, forwardedFor: forwardedFor, forwarded: forwarded)
        #expect(found.address == client)
        #expect(found.isForwarded == !(forwardedFor.isEmpty && forwarded.isEmpty))
    }

    /// Issue 50: nginx and Caddy replace the header they set and pass the other one on as the
    /// visitor wrote it. When `Forwarded` won whenever it came, a visitor behind either proxy
    /// named their own address with it, a new one for each guess.
    @Test(arguments: [
        // believed, X-Forwarded-For, Forwarded, the client
        (ForwardingHeader.xForwardedFor, ["198.51.100.1"], [#"for="[2001:db8::1]:4711";proto=https"#], "198.51.100.1"),
        (.xForwardedFor, [], ["for=6.6.6.6"], "127.0.0.1"),
        (.forwarded, ["9.9.9.9"], [#"for="[2001:db8::1]:4711";proto=https"#], "2001:db8::1"),
        (.forwarded, [], ["for=6.6.6.6, for=198.51.100.1:5000"], "198.51.100.1"),
        (.forwarded, ["6.6.6.6"], [], "127.0.0.1"),
    ])
    func onlyTheChosenHeaderIsBelievedTheOtherIsIgnored(believed: ForwardingHeader, forwardedFor: [String], forwarded: [String], client: String) {
        let found = ForwardedClient(peer: "127.0.0.1", trustedProxies: Self.proxies, believed: believed, forwardedFor: forwardedFor, forwarded: forwarded)
        #expect(found.address == client)
        #expect(found.isForwarded, "either header says a proxy forwarded it, for /metrics")
    }

    /// Found by `make fuzz` (the `forwarded` target): C's `inet_pton` stops at a NUL, so a hop
    /// with NULs after an address passed as that address and became a new client per NUL.
    @Test func aHopWithANULIsNoAddress() {
        let hop = "10.1.2.3" + String(repeating: "\0", count: 8)
        let found = ForwardedClient(
            peer: "127.0.0.1", trustedProxies: Self.proxies, believed: .forwarded, forwardedFor: [], forwarded: ["for=\(hop)"]
        )
        #expect(found.address == "127.0.0.1", "the walk stops at what is no address")
        #expect(AddressRange.bytes(of: "198.51.100.1\0") == nil && AddressRange.bytes(of: "::1\0") == nil)
        #expect(!Self.proxies.contains(address: "10.1.2.3\0"))
    }

    @Test func withoutTrustedProxiesNoHeaderIsBelieved() {
        let found = ForwardedClient(
            peer: "127.0.0.1", trustedProxies: [], believed: .xForwardedFor, forwardedFor: ["198.51.100.1"], forwarded: []
        )
        #expect(found.address == "127.0.0.1" && found.isForwarded)
    }

    @Test func theSettingReadsFromTheFileAndTheEnvironment() throws {
        let config = try ConfigLoader.load(file: "/nonexistent", fileIsRequired: false, environment: ["WISHLIST_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"])
        #expect(config.server.trustedProxies.map(\.description) == ["127.0.0.1", "10.0.0.0/8"])
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(file: "/nonexistent", fileIsRequired: false, environment: ["WISHLIST_TRUSTED_PROXIES": "localhost"])
        }
        #expect(AppConfig().metrics.allowFrom == AddressRange.loopback)
        #expect(AppConfig().server.forwardedHeader == .xForwardedFor)
        let chosen = try ConfigLoader.load(file: "/nonexistent", fileIsRequired: false, environment: ["WISHLIST_FORWARDED_HEADER": "forwarded"])
        #expect(chosen.server.forwardedHeader == .forwarded, "named in any letter case")
    }

    /// Issue 27: behind the documented proxy every visitor was 127.0.0.1, so 20 failed sign-ins
    /// from one visitor locked everyone out. With the proxy trusted, each visitor has a budget.
    @Test func failedSignInsBehindATrustedProxyCountPerVisitor() async throws {
        let server = try await WishlistServer.build(
            config: try TestApp.config {
                $0.server.port = 0
                $0.server.trustedProxies = [AddressRange("127.0.0.1")!]
                $0.accounts.failedLoginsPerAddress = 3
            },
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        _ = try await server.accounts.createUser(username: "maya", password: "correct horse battery")
        try await server.application.test(.live) { client in
            let attacker: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.66"]
            // Distinct names, so that only the per-address limit (3 here) is reached.
            var guesser = TestBrowser(client: client)
            for number in 0..<3 {
                #expect(try await guesser.signIn("nobody\(number)", password: "wrong guess").status == .unprocessableContent)
            }
            var attacking = TestBrowser(client: client)
            try await attacking.get("/login")
            for number in 0..<3 {
                let guess = try await attacking.post("/login", [("username", "someone\(number)"), ("password", "guess"), ("next", "")], headers: attacker)
                #expect(guess.status == .unprocessableContent, "the loopback peer's failures are not the visitor's")
            }
            #expect(try await attacking.post("/login", [("username", "maya"), ("password", "correct horse battery"), ("next", "")], headers: attacker).status
                == .tooManyRequests, "the guessing visitor is throttled")
            var maya = TestBrowser(client: client)
            try await maya.get("/login")
            let elsewhere: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "198.51.100.20"]
            #expect(try await maya.post("/login", [("username", "maya"), ("password", "correct horse battery"), ("next", "")], headers: elsewhere).status
                == .seeOther, "another visitor through the same proxy signs in")
        }
    }

    /// Issue 50: through nginx or Caddy, which set `X-Forwarded-For` and pass a visitor's own
    /// `Forwarded` on, forty guesses each naming a new address in `Forwarded` escaped the limit.
    /// Whichever header is chosen, the other one names no one.
    @Test(arguments: [ForwardingHeader.xForwardedFor, .forwarded])
    func aVisitorsOwnOtherHeaderDoesNotEscapeTheThrottle(believed: ForwardingHeader) async throws {
        let server = try await WishlistServer.build(
            config: try TestApp.config {
                $0.server.port = 0
                $0.server.trustedProxies = [AddressRange("127.0.0.1")!]
                $0.server.forwardedHeader = believed
                $0.accounts.failedLoginsPerAddress = 3
            },
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await server.application.test(.live) { client in
            let (setByProxy, writtenByVisitor) = switch believed {
            case .xForwardedFor: (HTTPField.Name("X-Forwarded-For")!, HTTPField.Name("Forwarded")!)
            case .forwarded: (HTTPField.Name("Forwarded")!, HTTPField.Name("X-Forwarded-For")!)
            }
            let visitor = believed == .forwarded ? "for=203.0.113.66" : "203.0.113.66"
            var guesser = TestBrowser(client: client)
            try await guesser.get("/login")
            for number in 0..<3 {
                let picked = believed == .forwarded ? "198.51.100.\(number)" : "for=198.51.100.\(number)"
                _ = try await guesser.post(
                    "/login", [("username", "nobody\(number)"), ("password", "guess"), ("next", "")],
                    headers: [setByProxy: visitor, writtenByVisitor: picked]
                )
            }
            let picked = believed == .forwarded ? "198.51.100.99" : "for=198.51.100.99"
            #expect(try await guesser.post(
                "/login", [("username", "nobody9"), ("password", "guess"), ("next", "")], headers: [setByProxy: visitor, writtenByVisitor: picked]
            ).status == .tooManyRequests, "the address the visitor wrote in \(writtenByVisitor) changes nothing")
        }
    }

    @Test func withoutTrustedProxiesTheHeaderDoesNotEscapeTheThrottle() async throws {
        let server = try await WishlistServer.build(
            config: try TestApp.config { $0.server.port = 0; $0.accounts.failedLoginsPerAddress = 3 },
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await server.application.test(.live) { client in
            var guesser = TestBrowser(client: client)
            try await guesser.get("/login")
            for number in 0..<3 {
                let spoofed: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.\(number)"]
                _ = try await guesser.post("/login", [("username", "nobody\(number)"), ("password", "guess"), ("next", "")], headers: spoofed)
            }
            let spoofed: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.99"]
            #expect(try await guesser.post("/login", [("username", "nobody9"), ("password", "guess"), ("next", "")], headers: spoofed).status
                == .tooManyRequests, "a header from an untrusted peer changes nothing")
        }
    }
}
