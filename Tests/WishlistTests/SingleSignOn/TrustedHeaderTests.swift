import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 32: `accounts.trustedHeader`, believed from `server.trustedProxies` only. These tests
/// connect over loopback, so 127.0.0.1 is the peer: trusted in some, not in others.
@Suite("Trusted header: an authenticating proxy names the user", .removesTemporaryDirectories)
struct TrustedHeaderTests {
    static let remoteUser = HTTPField.Name("Remote-User")!

    static func run(
        proxies: [String], signup: AppConfig.Signup = .open, log: LogCapture = LogCapture(),
        _ body: @Sendable (inout TestBrowser, WishlistServer) async throws -> Void
    ) async throws {
        let config = try TestApp.config { config in
            config.server.port = 0
            config.server.trustedProxies = proxies.map { AddressRange($0)! }
            config.accounts.trustedHeader = "Remote-User"
            config.accounts.signup = signup
        }
        let server = try await WishlistServer.build(config: config, logger: log.logger)
        try await server.application.test(.live) { client in
            var browser = TestBrowser(client: client)
            try await body(&browser, server)
        }
    }

    /// `name`'s account, made by a first request from the proxy, without a cookie (which starts
    /// her in the welcome and makes no session).
    static func makeAccount(_ name: String, _ browser: TestBrowser) async throws {
        let first = try await browser.client.execute(uri: "/", method: .get, headers: [remoteUser: name])
        #expect(first.headers[.location] == "/welcome")
    }

    static func usernames(_ server: WishlistServer) async throws -> [String] {
        try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT username FROM user ORDER BY id") }
    }

    static func sessionCount(_ server: WishlistServer) async throws -> Int {
        try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM session") ?? 0 }
    }

    @Test func fromATrustedProxyTheNamedUserIsSignedInAndANewNameGetsAnAccount() async throws {
        try await Self.run(proxies: ["127.0.0.1"]) { browser, server in
            // A new account starts in the welcome, as a password sign-up does (issue 57).
            let first = try await browser.get("/wishlist", headers: [Self.remoteUser: "carol"])
            #expect(first.status == .seeOther && first.location == "/welcome")
            #expect(try await Self.usernames(server) == ["carol"])
            // The browser sends back the cookie it was given: the welcome gets a lasting session.
            let page = try await browser.get("/welcome", headers: [Self.remoteUser: "carol"])
            #expect(page.status == .ok && page.text.contains("carol"))
            #expect(page.headers[values: .setCookie].contains { $0.hasPrefix("wishlist_session=") && $0.contains("Max-Age=") })
            let again = try await browser.get("/settings", headers: [Self.remoteUser: "carol"])
            #expect(again.status == .ok && again.text.contains("carol"))
            #expect(try await browser.get("/settings", headers: [Self.remoteUser: "carol"]).status == .ok, "the same session")
            #expect(try await Self.sessionCount(server) == 1)
        }
    }

    /// Issue 50: each request without a cookie made a session, 300 requests 300 sessions. Now
    /// they are answered as the proxy's user without one.
    @Test func cookielessRequestsAreAnsweredWithoutASession() async throws {
        try await Self.run(proxies: ["127.0.0.1"]) { browser, server in
            for round in 0..<300 {
                let page = try await browser.client.execute(uri: "/wishlist", method: .get, headers: [Self.remoteUser: "carol"])
                // The first makes carol's account and starts her in the welcome (issue 57).
                #expect(round == 0 ? page.headers[.location] == "/welcome" : page.status == .ok && page.text.contains("carol"))
            }
            #expect(try await Self.usernames(server) == ["carol"])
            #expect(try await Self.sessionCount(server) == 0)
        }
    }

    /// A form on the first page, before the browser has a session, is posted with the token of
    /// the cookie that page gave: it is accepted, as carol's.
    @Test func aFormFromTheFirstPageIsAcceptedAndCounted() async throws {
        try await Self.run(proxies: ["127.0.0.1"]) { browser, server in
            let book = try #require(try await WishlistHTTPTests.fictionIDs(server).first)
            try await Self.makeAccount("carol", browser)
            #expect(try await browser.get("/lists/hardcover-fiction", headers: [Self.remoteUser: "carol"]).status == .ok)
            let added = try await browser.post("/wishlist", [("book", book), ("return_to", "/wishlist")], headers: [Self.remoteUser: "carol"])
            #expect(added.status == .seeOther)
            #expect(try await browser.get("/wishlist", headers: [Self.remoteUser: "carol"]).status == .ok)
            let items = try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") }
            #expect(items == 1)
            #expect(try await Self.sessionCount(server) == 1, "the GET after the form's POST stored the session")
        }
    }

    /// A client that sends back the same cookie but never takes the one it is given still makes
    /// a session per request: a member's sessions are bounded, the least recently seen ending.
    @Test func aMembersSessionsAreBounded() async throws {
        try await Self.run(proxies: ["127.0.0.1"]) { browser, server in
            try await Self.makeAccount("carol", browser)
            let stale = "wishlist_session=" + String(repeating: "A", count: 43)
            for _ in 0..<(SessionStore.maximumPerUser + 10) {
                let page = try await browser.client.execute(uri: "/settings", method: .get, headers: [Self.remoteUser: "carol", .cookie: stale])
                #expect(page.status == .ok)
            }
            #expect(try await Self.sessionCount(server) == SessionStore.maximumPerUser)
        }
    }

    @Test func anExistingUsernameIsThatUserAndAnotherNameReplacesTheSession() async throws {
        try await Self.run(proxies: ["127.0.0.0/8"]) { browser, server in
            try await browser.signUp("dave")
            try await browser.post("/logout", [])
            var proxied = TestBrowser(client: browser.client)
            #expect(try await proxied.get("/settings", headers: [Self.remoteUser: "Dave"]).status == .ok)
            #expect(try await Self.usernames(server) == ["dave"], "the account of that name, in any letter case")
            #expect(try await proxied.get("/settings", headers: [Self.remoteUser: "erin"]).location == "/welcome", "a new account")
            let erin = try await proxied.get("/welcome", headers: [Self.remoteUser: "erin"])
            #expect(erin.status == .ok && erin.text.contains("erin"))
            #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM session") } == 1, "dave's session ended")
        }
    }

    @Test func fromAnUntrustedAddressTheHeaderIsIgnoredAndLoggedOnce() async throws {
        let log = LogCapture()
        try await Self.run(proxies: ["10.9.9.9"], log: log) { browser, server in
            for _ in 0..<3 {
                let page = try await browser.get("/wishlist", headers: [Self.remoteUser: "carol"])
                #expect(page.status == .seeOther && page.location?.hasPrefix("/login") == true)
            }
            #expect(try await Self.usernames(server).isEmpty)
        }
        #expect(log.all.filter { $0.contains("ignored the Remote-User header") }.count == 1)
    }

    @Test func withSignupClosedAnUnknownNameIsRefusedAndABadNameAlways() async throws {
        try await Self.run(proxies: ["127.0.0.1"], signup: .closed) { browser, server in
            let unknown = try await browser.get("/wishlist", headers: [Self.remoteUser: "frank"])
            #expect(unknown.status == .forbidden && unknown.shows("this server has no account of that name"))
            let bad = try await browser.get("/wishlist", headers: [Self.remoteUser: "frank smith"])
            #expect(bad.status == .forbidden && bad.shows("which can’t be a username here"))
            #expect(try await Self.usernames(server).isEmpty)
        }
    }

    @Test func aDisabledAccountIsRefused() async throws {
        try await Self.run(proxies: ["127.0.0.1"]) { browser, server in
            try await browser.signUp("gina")
            try await browser.post("/logout", [])
            try await server.database.pool.write { try $0.execute(sql: "UPDATE user SET disabled_at = '2026-01-01 00:00:00.000'") }
            var proxied = TestBrowser(client: browser.client)
            #expect(try await proxied.get("/wishlist", headers: [Self.remoteUser: "gina"]).status == .forbidden)
        }
    }
}
