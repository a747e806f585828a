import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Metrics: GET /metrics in Prometheus' text format", .removesTemporaryDirectories)
struct MetricsTests {
    @Test func theRegistryWritesCountersCumulativeHistogramsAndGauges() {
        let registry = MetricsRegistry()
        registry.increment(.signIns, [("outcome", "rejected")])
        registry.increment(.signIns, [("outcome", "rejected")])
        registry.increment(.throttled, [("action", "say \"hi\"\\\n")])
        registry.observe(.httpDuration, [("route", "/lists")], value: 0.003)
        registry.observe(.httpDuration, [("route", "/lists")], value: 0.2)
        let text = registry.render(gauges: [(.databaseBytes, 4096)])
        #expect(text.contains("# TYPE wishlist_sign_ins_total counter\nwishlist_sign_ins_total{outcome=\"rejected\"} 2\n"))
        #expect(text.contains(#"wishlist_throttled_total{action="say \"hi\"\\\n"} 1"#), "label values are escaped")
        #expect(text.contains("wishlist_http_request_duration_seconds_bucket{route=\"/lists\",le=\"0.001\"} 0\n"))
        #expect(text.contains("wishlist_http_request_duration_seconds_bucket{route=\"/lists\",le=\"0.005\"} 1\n"))
        #expect(text.contains("wishlist_http_request_duration_seconds_bucket{route=\"/lists\",le=\"0.25\"} 2\n"))
        #expect(text.contains("wishlist_http_request_duration_seconds_bucket{route=\"/lists\",le=\"+Inf\"} 2\n"))
        #expect(text.contains("wishlist_http_request_duration_seconds_count{route=\"/lists\"} 2\n"))
        #expect(text.contains("# TYPE wishlist_database_bytes gauge\nwishlist_database_bytes 4096\n"))
    }

    /// A real server on a loopback port, so that the client address is 127.0.0.1.
    static func live(
        enabled: Bool, configured adjust: (inout AppConfig) -> Void = { _ in }, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let server = try await WishlistServer.build(
            config: try TestApp.config { $0.metrics.enabled = enabled; $0.server.port = 0; adjust(&$0) },
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await server.application.test(.live) { client in try await body(client) }
    }

    @Test func countsRequestsByRoutePatternAndSignInsByOutcome() async throws {
        try await Self.live(enabled: true) { client in
            _ = try await client.execute(uri: "/login", method: .get)
            _ = try await client.execute(uri: "/login", method: .get)
            _ = try await client.execute(uri: "/people/someone", method: .get)
            _ = try await client.execute(uri: "/no/such/page", method: .get)
            var browser = TestBrowser(client: client)
            #expect(try await browser.signIn("nobody", password: "not a password").status == .unprocessableContent)

            let page = try await client.execute(uri: "/metrics", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let text = page.text
            #expect(text.contains(#"wishlist_http_requests_total{method="GET",route="/login",status="200"} 3"#))
            #expect(text.contains(#"route="/people/{username}",status="303"} 1"#), "the pattern, never the name in the path")
            #expect(text.contains(#",status="404"} 1"#) && !text.contains("/no/such/page"), "an unknown path is counted, not named")
            #expect(text.contains(#"wishlist_sign_ins_total{outcome="rejected"} 1"#))
            #expect(text.contains("wishlist_argon2_admitted 0\n"))
            let writes = try #require(text.firstMatch(of: /wishlist_database_write_wait_seconds_count (\d+)\n/)?.1).flatMap { Int($0) }
            #expect((writes ?? 0) >= 1, "the rejected sign-in's attempt was written, its wait for the writer counted")
            #expect(text.contains("wishlist_nyt_requests_last_day 0\n"))
            #expect(text.contains("wishlist_catalog_consecutive_failures 0\n"))
            let age = try #require(text.firstMatch(of: /wishlist_catalog_last_success_age_seconds (-?\d+)\n/)?.1).flatMap { Int($0) }
            #expect(age.map { $0 >= 0 } == true, "the sample catalog loaded when the server was built")
            let size = try #require(text.firstMatch(of: /wishlist_database_bytes (\d+)\n/)?.1).flatMap { Int($0) }
            #expect((size ?? 0) > 0)
            #expect(!text.contains("someone"))
        }
    }

    @Test func countsSharedPageLookupsAndTheirBytes() async throws {
        try await Self.live(enabled: true) { client in
            var browser = TestBrowser(client: client)
            try await browser.signUp("reader")
            for path in ["/lists/hardcover-fiction", "/lists/hardcover-fiction", "/lists/hardcover-fiction"] {
                #expect(try await browser.get(path).status == .ok)
            }
            let text = try await client.execute(uri: "/metrics", method: .get).text
            // The first read renders the page and the second finds it; the third request is the
            // second's read again, the database unchanged (PageReadMemo), and looks nothing up.
            #expect(text.contains(#"wishlist_page_cache_lookups_total{page="list",result="hit"} 1"#))
            #expect(text.contains(#"wishlist_page_cache_lookups_total{page="list",result="miss"} 1"#))
            #expect(text.contains(#"wishlist_page_read_memo_lookups_total{result="hit"} 1"#))
            let bytes = try #require(text.firstMatch(of: /wishlist_page_cache_bytes (\d+)\n/)?.1).flatMap { Int($0) }
            #expect((bytes ?? 0) > 10_000, "one list page with its marks")
        }
    }

    @Test func isNotFoundWhenDisabledOrForAnotherMachine() async throws {
        try await Self.live(enabled: false) { client in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .notFound)
        }
        let loopback = AddressRange.loopback
        #expect(loopback.contains(address: "127.0.0.1") && loopback.contains(address: "::1") && loopback.contains(address: "::ffff:127.0.0.1"))
        #expect(!loopback.contains(address: "192.168.1.20") && !loopback.contains(address: "10.127.0.1"))
        // The in-process client has no network address at all: it is not this machine either.
        let server = try await TestApp.build { $0.metrics.enabled = true }
        try await TestApp.run(server) { browser in
            let response = try await browser.get("/metrics")
            #expect(response.status == .notFound)
        }
    }

    /// Issue 27: behind the documented proxy every request's peer is loopback, so `/metrics`
    /// answered anyone through the proxy. A forwarded request is refused, trusted proxy or not.
    @Test func isNotFoundThroughAProxyOrFromOutsideAllowFrom() async throws {
        let forwarded: [HTTPFields] = [
            [HTTPField.Name("X-Forwarded-For")!: "203.0.113.7"], [HTTPField.Name("Forwarded")!: "for=203.0.113.7;proto=https"],
            [HTTPField.Name("X-Forwarded-For")!: "127.0.0.1"],
        ]
        for trusted in [[], [AddressRange("127.0.0.1")!]] {
            try await Self.live(enabled: true, configured: { $0.server.trustedProxies = trusted }) { client in
                let direct = try await client.execute(uri: "/metrics", method: .get)
                #expect(direct.status == .ok, "a scraper on this machine")
                for headers in forwarded {
                    let throughAProxy = try await client.execute(uri: "/metrics", method: .get, headers: headers)
                    #expect(throughAProxy.status == .notFound, "\(headers)")
                }
            }
        }
        try await Self.live(enabled: true, configured: { $0.metrics.allowFrom = [AddressRange("10.0.0.0/8")!] }) { client in
            let refused = try await client.execute(uri: "/metrics", method: .get)
            #expect(refused.status == .notFound, "loopback is not in allowFrom")
        }
    }
}
