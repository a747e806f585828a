import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistWeb

/// The access log line's parts that are worked out by hand rather than by the logger.
@Suite("Access log: durations and paths as the line writes them")
struct AccessLogTests {
    typealias Log = AccessLogMiddleware<AppRequestContext>

    @Test(arguments: [(0, "0.000"), (7, "0.007"), (412, "0.412"), (1_000, "1.000"), (1_500, "1.500"), (12_345_678, "12345.678")])
    func aDurationIsInMillisecondsToTheMicrosecond(micros: Int64, written: String) {
        let start = NIODeadline.uptimeNanoseconds(1_000_000)
        #expect(Log.milliseconds(since: start, now: start + .microseconds(micros)) == written)
    }

    @Test func aClockThatSeemsToGoBackwardsWritesZero() {
        let start = NIODeadline.uptimeNanoseconds(5_000_000)
        #expect(Log.milliseconds(since: start, now: start - .milliseconds(1)) == "0.000")
    }

    @Test func aPathWithASecretLosesItsSecret() {
        #expect(Log.loggedPath("/reset/abc123", route: "/reset/{token}") == "/reset/…")
        #expect(Log.loggedPath("/lists/hardcover-fiction", route: "/lists/{list}") == "/lists/hardcover-fiction")
    }

    /// Issue 27: the router served `//shared/{token}`, and the filter looked at the raw path.
    @Test(arguments: [
        ("//shared/abc123", "/shared/{token}"), ("/shared//abc123/", "/shared/{token}"),
        ("//feeds/abc123/favorites.atom", "/feeds/{token}/favorites.atom"), ("///reset/abc123", "/reset/{token}"),
        ("//shared/abc123/extra", "NotFound"), ("/%73hared/abc123", "NotFound"), ("//reset/abc123", nil),
        ("/verify-email/abc123", "/verify-email/{token}"), ("//verify-email/abc123/x", "NotFound"),
        ("/unsubscribe/abc123", "/unsubscribe/{token}"), ("/%75nsubscribe/abc123", nil),
        ("shared/abc123", nil), ("/reset/abc123/", nil), ("/feeds/abc123", "NotFound"),
    ])
    func aSecretIsRedactedHoweverThePathIsSpelled(path: String, route: String?) {
        #expect(!Log.loggedPath(path, route: route).contains("abc123"), "\(path) logged as \(Log.loggedPath(path, route: route))")
    }

    /// Issue 50: dot segments, letter case and escapes, decoded once or twice, hid the secret
    /// route's name from the filter, which then logged the path whole.
    @Test(arguments: [
        "/./shared/abc123", "/x/../shared/abc123", "/SHARED/abc123", "/Shared/abc123/", "/%53HARED/abc123", "/%2573hared/abc123",
        "/shared%2Fabc123", "/%2e/shared/abc123", "/%2E%2E/reset/abc123", "/RESET/abc123", "/Verify-Email/abc123", "/UNSUBSCRIBE/abc123",
        "/Feeds/abc123/favorites.atom", "/%73hared/abc123%ff", "/%73hared/abc123%zz", "/a/b/c/shared/abc123",
        "/Hand-Over/abc123", "/hand-over/abc123/x", "/CALENDAR/abc123.ics", "/setup/abc123/x", "/Guest-Reservations/abc123",
    ])
    func aSecretIsRedactedInEverySpellingThatMissesItsRoute(path: String) {
        let logged = Log.loggedPath(path, route: "NotFound")
        #expect(!logged.contains("abc123"), "\(path) logged as \(logged)")
        let secretRoutes = ["/shared/…", "/reset/…", "/verify-email/…", "/unsubscribe/…", "/feeds/…", "/hand-over/…", "/calendar/…", "/setup/…", "/guest-reservations/…"]
        #expect(secretRoutes.contains(logged), "\(path) logged as \(logged)")
    }

    /// Issue 55: every route of the table that takes a link's token, reached or missed (a segment
    /// too many), logs no token; the calendar's had been named `{file}`, and the hand-over link was
    /// missing from a list written by hand.
    @Test func noRouteThatTakesALinksTokenLogsIt() {
        let secretRoutes = Route.all.filter { $0.pattern.contains("{token}") }
        #expect(secretRoutes.contains(.occasionsCalendar) && secretRoutes.contains(.handOverPage))
        for route in secretRoutes {
            let path = route.pattern.replacingOccurrences(of: "{token}", with: "abc123")
            for (sent, matched) in [(path, route.pattern), (path + "/x", "NotFound"), (path.uppercased(), "NotFound")] {
                let logged = Log.loggedPath(sent, route: matched)
                #expect(!logged.lowercased().contains("abc123"), "\(sent) logged as \(logged)")
            }
        }
    }

    @Test(arguments: ["/no/such/page", "/sharedx/abc123", "/shared", "/lists/shared-reading", "/%7Ebook/page"])
    func aPathWithoutASecretRouteIsLoggedAsSent(path: String) {
        #expect(Log.loggedPath(path, route: nil) == path)
    }

    /// A member may be called `shared` or `reset`: a route that matched shows its path.
    @Test func aMatchedRoutesPathIsLoggedAsSentWhateverItsParametersSay() {
        #expect(Log.loggedPath("/people/shared/reading", route: "/people/{username}/reading") == "/people/shared/reading")
        #expect(Log.loggedPath("/people/RESET/reading", route: "NotFound") == "/reset/…", "unless no route matched")
    }
}

/// Issue 35: "no query strings in access logs" and no cookies, for every route of the app.
@Suite("Access log: never a query string or a cookie", .removesTemporaryDirectories)
struct AccessLogPrivacyTests {
    static let marker = "Zq8secretMarker"

    @Test func noRouteLogsItsQueryOrItsCookies() async throws {
        let log = LogCapture()
        let server = try await WishlistServer.build(config: try TestApp.config(), logger: log.logger)
        let book = try #require(try await WishlistHTTPTests.fictionIDs(server).first)
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            try await browser.post("/wishlist", [("book", book), ("return_to", "/wishlist")])
            let item = try await server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM wishlist_item")! }
            let gets = [
                "/", "/lists", "/lists/hardcover-fiction", "/books/\(book)", "/search", "/wishlist", "/wishlist/\(item)",
                "/wishlist/\(item)/remove", "/wishlist.csv", "/people", "/people/someone", "/reservations", "/settings", "/admin",
                "/login", "/signup", "/reset/\(Self.marker)", "/shared/\(Self.marker)", "/feeds/\(Self.marker)/favorites.atom",
                "/healthz", "/static/style.css", "/no/such/page",
            ]
            let cookie = "wishlist_session=\(browser.sessionCookie ?? ""); tracking=\(Self.marker)"
            for path in gets {
                _ = try await browser.client.execute(
                    uri: path + "?q=\(Self.marker)&next=/\(Self.marker)", method: .get, headers: [.cookie: cookie]
                )
            }
            for path in ["/wishlist", "/reservations", "/settings/sharing", "/lists/hardcover-fiction/favorite", "/login", "/logout"] {
                _ = try await browser.client.execute(
                    uri: path + "?q=\(Self.marker)", method: .post,
                    headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "csrf_token=\(browser.csrfToken)&note=\(Self.marker)")
                )
            }
        }
        #expect(log.all.count > 20, "the requests were logged")
        #expect(!log.all.contains { $0.contains(Self.marker) }, "\(log.all.filter { $0.contains(Self.marker) }.prefix(3))")
    }

    /// Issue 55: a calendar app polls its feed every hour; the line shows the route, not the token.
    @Test func aCalendarFetchLogsNoToken() async throws {
        let log = LogCapture()
        let server = try await WishlistServer.build(config: try TestApp.config(), logger: log.logger)
        try await TestApp.run(server) { browser in
            let calendar = try await browser.get("/calendar/\(Self.marker).ics")
            let handOver = try await browser.get("/hand-over/\(Self.marker)/x")
            #expect(calendar.status == .notFound && handOver.status == .notFound)
        }
        #expect(log.all.contains { $0.contains("/calendar/…") } && log.all.contains { $0.contains("/hand-over/…") }, "\(log.all)")
        #expect(!log.all.contains { $0.contains(Self.marker) }, "\(log.all.filter { $0.contains(Self.marker) }.prefix(3))")
    }

    /// Issue 50: spellings of the secret routes, sent to the app, log no token.
    @Test func noSpellingOfASecretRouteLogsItsToken() async throws {
        let log = LogCapture()
        let server = try await WishlistServer.build(config: try TestApp.config(), logger: log.logger)
        try await TestApp.run(server) { browser in
            for spelling in ["/./shared/", "/x/../shared/", "/SHARED/", "/%73hared/", "/%2573HARED/", "//Reset/", "/feeds/../feeds/"] {
                _ = try await browser.get(spelling + Self.marker)
            }
        }
        #expect(log.all.filter { $0.contains("shared/…") || $0.contains("reset/…") || $0.contains("feeds/…") }.count == 7, "\(log.all)")
        #expect(!log.all.contains { $0.contains(Self.marker) }, "\(log.all.filter { $0.contains(Self.marker) }.prefix(3))")
    }
}
