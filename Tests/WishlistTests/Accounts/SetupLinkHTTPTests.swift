import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 57: a new server's first admin comes from the setup link `wishlist serve` prints, never
/// from whoever signs up first; and every sign-up ends in the welcome.
@Suite("The setup link and the welcome", .removesTemporaryDirectories)
struct SetupLinkHTTPTests {
    static let account = [("username", "founder"), ("email", ""), ("password", "correct horse battery"), ("password_confirm", "correct horse battery")]

    private static func admins(_ server: WishlistServer) async throws -> [String] {
        try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT username FROM user WHERE is_admin = 1") }
    }

    @Test func theSetupLinkMakesTheFirstAdminEvenWithSignupClosedAndThenIsUsed() async throws {
        let server = try await TestApp.build { $0.accounts.signup = .closed }
        let token = try #require(try await SetupLinks(database: server.database, clock: .system).renew())
        try await TestApp.run(server) { browser in
            let page = try await browser.get(SitePath.setup(token))
            #expect(page.status == .ok)
            #expect(page.shows("This server has no admin yet."))
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            let made = try await browser.post(SitePath.setup(token), Self.account)
            #expect(made.status == .seeOther)
            #expect(made.location == SitePath.welcome)
            #expect(try await browser.get("/admin").status == .ok, "the new account is an admin, signed in")
            var stranger = TestBrowser(client: browser.client)
            #expect(try await stranger.get(SitePath.setup(token)).status == .gone)
            let again = try await stranger.post(SitePath.setup(token), [("username", "stranger")] + Self.account.dropFirst())
            #expect(again.status == .gone)
            #expect(again.shows("This server is set up"))
        }
        #expect(try await Self.admins(server) == ["founder"])
    }

    @Test func theSetupLinkUsedTwiceAtOnceMakesOneAdmin() async throws {
        let server = try await TestApp.build()
        let token = try #require(try await SetupLinks(database: server.database, clock: .system).renew())
        let statuses = try await TestApp.run(server) { browser in
            var first = TestBrowser(client: browser.client)
            var second = TestBrowser(client: browser.client)
            try await first.get(SitePath.setup(token))
            try await second.get(SitePath.setup(token))
            async let one = first.post(SitePath.setup(token), Self.account)
            async let other = second.post(SitePath.setup(token), [("username", "rival")] + Self.account.dropFirst())
            return try await [one.status, other.status]
        }
        #expect(statuses.sorted { $0.code < $1.code } == [.seeOther, .gone])
        #expect(try await Self.admins(server).count == 1)
        #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM user") } == 1)
    }

    @Test func anAdminFromTheCommandLineEndsTheLinkAndNoNewOneIsMade() async throws {
        let server = try await TestApp.build()
        let links = SetupLinks(database: server.database, clock: .system)
        let token = try #require(try await links.renew())
        let newer = try #require(try await links.renew())
        try await TestApp.run(server) { browser in
            #expect(try await browser.get(SitePath.setup(token)).status == .notFound, "a newer start's link replaced it")
            #expect(try await browser.get(SitePath.setup(newer)).status == .ok)
            _ = try await server.accounts.createUser(username: "operator", password: "correct horse battery", isAdmin: true)
            #expect(try await browser.get(SitePath.setup(newer)).status == .gone)
            #expect(try await browser.get(SitePath.setup("not-a-token")).status == .notFound)
        }
        #expect(try await links.renew() == nil)
    }

    @Test func theSetupTokenNeverReachesTheLog() async throws {
        let log = LogCapture()
        let server = try await WishlistServer.build(config: try TestApp.config(), logger: log.logger)
        let token = try #require(try await SetupLinks(database: server.database, clock: .system).renew())
        try await TestApp.run(server) { browser in
            let page = try await browser.get(SitePath.setup(token))
            #expect(page.status == .ok)
            #expect(try await browser.get("/SETUP/" + token + "/x").status == .notFound)
            #expect(try await browser.post(SitePath.setup(token), Self.account).status == .seeOther)
        }
        #expect(log.all.contains { $0.contains("GET /setup/… 200") })
        #expect(!log.all.contains { $0.contains(token) })
    }

    @Test func signingUpFirstOnAnEmptyServerDoesNotMakeAnAdmin() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let signedUp = try await browser.signUp("stranger")
            #expect(signedUp.status == .seeOther)
            #expect(try await browser.get("/admin").status == .notFound)
        }
        #expect(try await Self.admins(server).isEmpty)
    }

    @Test func everySignUpEndsInTheWelcomeWithTheAdminsDefaultPreselected() async throws {
        let server = try await TestApp.build { $0.accounts.defaultSharing = .household }
        try await TestApp.run(server) { browser in
            #expect(try await browser.signUp("newcomer").location == SitePath.welcome)
            let welcome = try await browser.get(SitePath.welcome)
            #expect(welcome.status == .ok)
            #expect(welcome.text.contains(#"value="household" aria-describedby="sharing-household-hint" checked"#))
            let refused = try await browser.post(
                SitePath.welcome, [("display_name", "Mum"), ("birthday_month", "2"), ("birthday_day", "30"), ("sharing", "household")]
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("Choose both the month and a day that month has, or neither."))
            #expect(refused.text.contains(#"value="Mum""#), "what was typed is kept")
            let saved = try await browser.post(
                SitePath.welcome, [("display_name", "Mum"), ("birthday_month", "3"), ("birthday_day", "14"), ("sharing", "household")]
            )
            #expect(saved.status == .seeOther)
            #expect(saved.location == SitePath.people)
        }
        let row = try #require(try await server.database.pool.read {
            try Row.fetchOne($0, sql: "SELECT display_name, birthday, sharing FROM user WHERE username = 'newcomer'")
        })
        #expect(row["display_name"] as String? == "Mum")
        #expect(row["sharing"] as String == "household")
        #expect(row["birthday"] as String? != nil)
    }

    @Test func theWelcomeOffersPrivateByDefaultAndSkippingItSharesNothing() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("quiet")
            let welcome = try await browser.get(SitePath.welcome)
            #expect(welcome.text.contains(#"value="private" aria-describedby="sharing-private-hint" checked"#))
            #expect(welcome.text.contains(#"href="/people""#), "it can be skipped")
        }
        #expect(try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT sharing FROM user") } == "private")
    }
}
