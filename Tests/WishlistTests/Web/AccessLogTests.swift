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
    ])
    func aSecretIsRedactedHoweverThePathIsSpelled(path: String, route: String?) {
        #expect(!Log.loggedPath(path, route: route).contains("abc123"), "\(path) logged as \(Log.loggedPath(path, route: route))")
    }
}
