import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
@testable import WishlistCore
import WishlistLanguages
@testable import WishlistWeb

/// `SessionMiddleware` runs a route's page loader inside the session's read, for signed-in GETs
/// only, and a loader that fails leaves the route to read (and fail) for itself.
@Suite("Page loaders: a page's reads with the session's", .removesTemporaryDirectories)
struct PageLoadersTests {
    /// What the probe loader saw.
    struct Probe: Sendable, Equatable {
        let name: String
        let userID: UserID
        let wishlistCount: Int
        let inTransaction: Bool
    }

    /// What a test of the probe routes gets.
    struct Setup: Sendable {
        let client: any TestClientProtocol
        let cookie: String
        let userID: UserID
        let server: WishlistServer
        /// How many times the probe loader ran.
        let loads: Counter
        let time: ManualClock
        let log: LogCapture
    }

    struct BrokenRead: Error {}

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A router with only the session middleware and four routes that say what the loader left them.
    static func withProbe(_ body: @escaping @Sendable (any TestClientProtocol, _ cookie: String, _ userID: UserID) async throws -> Void) async throws {
        try await withProbe { setup in try await body(setup.client, setup.cookie, setup.userID) }
    }

    static func withProbe(_ body: @escaping @Sendable (Setup) async throws -> Void) async throws {
        let time = ManualClock(Date())
        let server = try await TestApp.build(clock: time.clock)
        let user = try await server.accounts.createUser(username: "reader", password: "correct horse battery")
        let token = try await server.accounts.sessions.create(userID: user.id, userAgent: "tests")
        let loads = Counter()
        let loaders = PageLoaders()
        loaders.add("probe/:name") { _, context, user, read in
            loads.add()
            return Probe(
                name: context.parameters.get("name") ?? "", userID: user.userID, wishlistCount: user.wishlistCount,
                inTransaction: read.db.isInsideTransaction
            )
        }
        loaders.add("failing") { _, _, _, _ in throw PageError.badRequest("The loader refuses.") }
        loaders.add("broken") { _, _, _, _ in throw BrokenRead() }
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: SessionMiddleware(
            sessions: server.accounts.sessions, cookies: SessionCookies(secure: false),
            csrf: try await CSRFProtection.load(from: server.database), pageLoaders: loaders,
            memo: PageReadMemo(changes: server.database.changes, statusLine: { nil }, metrics: nil),
            languages: LanguageChoice(languages: [Translations()], serverDefault: "en")
        ))
        let describe = { @Sendable (_: Request, context: AppRequestContext) -> String in
            (context.loadedPage as? Probe).map { "\($0.name) \($0.userID) \($0.wishlistCount) \($0.inTransaction)" } ?? "nothing"
        }
        router.get("probe/:name", use: describe)
        router.post("probe/:name", use: describe)
        router.get("failing", use: describe)
        router.get("broken", use: describe)
        router.get("other", use: describe)
        let log = LogCapture()
        try await Application(router: router, logger: log.logger).test(.router) { client in
            try await body(Setup(
                client: client, cookie: "wishlist_session=\(token)", userID: user.id, server: server, loads: loads, time: time, log: log
            ))
        }
    }

    static func text(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, cookie: String?) async throws -> String {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        let response = try await client.execute(uri: path, method: method, headers: headers)
        return String(buffer: response.body)
    }

    @Test func aSignedInGetFindsTheLoadersReadDoneInTheSessionsTransaction() async throws {
        try await Self.withProbe { client, cookie, userID in
            let seen = try await Self.text(client, .get, "/probe/first", cookie: cookie)
            #expect(seen == "first \(userID) 0 true")
        }
    }

    @Test func nothingIsLoadedSignedOutForAPostForAFailingLoaderOrARouteWithout() async throws {
        try await Self.withProbe { client, cookie, _ in
            let unknown = "wishlist_session=" + String(repeating: "A", count: 43)
            let answers = [
                try await Self.text(client, .get, "/probe/first", cookie: nil),
                try await Self.text(client, .get, "/probe/first", cookie: unknown),
                try await Self.text(client, .post, "/probe/first", cookie: cookie),
                try await Self.text(client, .get, "/failing", cookie: cookie),
                try await Self.text(client, .get, "/other", cookie: cookie),
            ]
            // Signed out, an unknown session, a POST (it reads for itself), a loader that threw
            // (the route meets the error itself) and a route without a loader.
            #expect(answers == Array(repeating: "nothing", count: 5))
        }
    }

    /// Issue 27: a loader's error vanished in a `try?`. A page's answer (a bad parameter) is the
    /// route's to give; anything else is logged, since the route's own read may then succeed.
    @Test func aLoaderErrorThatIsNoPageAnswerIsLogged() async throws {
        try await Self.withProbe { (setup: Setup) async throws in
            let broken = try await Self.text(setup.client, .get, "/broken", cookie: setup.cookie)
            #expect(broken == "nothing")
            #expect(setup.log.all.contains { $0.contains("the page read of /broken failed in the session's read") && $0.contains("BrokenRead") })
            let failing = try await Self.text(setup.client, .get, "/failing", cookie: setup.cookie)
            #expect(failing == "nothing")
            #expect(!setup.log.all.contains { $0.contains("/failing") }, "a page's own answer is not an error of the server")
        }
    }

    /// Issue 27: a loader was registered apart from its route, its path written twice. Now
    /// `RouterGroup.page` registers both from one path: every loader's pattern is a route that
    /// answers a signed-in GET.
    @Test func everyLoaderBelongsToARouteThatAnswers() async throws {
        let server = try await TestApp.build()
        let examples = [
            "/lists/{list}": "/lists/hardcover-fiction", "/wishlist": "/wishlist", "/people/{username}": "/people/nobody",
            "/search": "/search?q=the", "/reading": "/reading", "/authors/{name}": "/authors/nobody-at-all",
            "/people/{username}/lists/{list}": "/people/nobody/lists/1",
        ]
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            let book = try #require(try await WishlistHTTPTests.fictionIDs(server).first)
            for pattern in server.pageLoaders.patterns {
                let path = try #require(examples[pattern] ?? (pattern == "/books/{id}" ? "/books/\(book)" : nil), "an example for \(pattern)")
                let status = try await browser.get(path).status
                let namesNobody = ["/people/{username}", "/authors/{name}", "/people/{username}/lists/{list}"].contains(pattern)
                #expect(status == .ok || (namesNobody && status == .notFound), "\(pattern): \(status)")
            }
        }
    }

    /// The app's pages with loaders, named as Hummingbird names a matched route (the same names
    /// label `wishlist_http_requests_total`, which MetricsTests checks): the six of the household
    /// mix's page views (Benchmarks/README.md), search and reading among them since issue 34, an
    /// author's page (issue 52) and a member's list (issue 51).
    @Test func theAppLoadsItsMostVisitedPagesWithTheSession() async throws {
        let server = try await TestApp.build()
        #expect(server.pageLoaders.patterns == [
            "/lists/{list}", "/books/{id}", "/wishlist", "/people/{username}", "/search", "/reading", "/authors/{name}",
            "/people/{username}/lists/{list}",
        ])
    }
}
