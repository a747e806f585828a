import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 27: 10,000 anonymous option requests filled a server-wide cap of challenges, blocking
/// passkeys for everyone; a challenge could be finished by any browser; a stolen session could
/// add a passkey without the password, and a password reset left it in place.
@Suite("Passkeys: challenges per browser and address, the password to add one", .removesTemporaryDirectories)
struct PasskeyChallengeTests {
    static func liveChallenges(_ server: WishlistServer) async throws -> Int {
        try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM passkey_challenge") ?? 0 }
    }

    @Test func aBrowserHoldsAFewChallengesAndAnAddressAFewDozen() async throws {
        let server = try await WishlistServer.build(
            config: try TestApp.config { $0.server.port = 0; $0.server.trustedProxies = [AddressRange("127.0.0.1")!] },
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await server.application.test(.live) { client in
            var browser = TestBrowser(client: client)
            for _ in 0..<10 {
                #expect(try await PasskeyHTTPTests.postJSON(&browser, "/passkeys/sign-in/options", "{}").status == .ok)
            }
            #expect(try await Self.liveChallenges(server) == PasskeyStore.liveChallengesPerBrowser, "one browser's oldest go")

            // A loop of fresh browsers from one visitor fills that visitor's share only.
            let flooder: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.66"]
            var refused: TestResponse?
            for _ in 0..<(PasskeyStore.liveChallengesPerAddress + 5) {
                var fresh = TestBrowser(client: client)
                try await fresh.get("/login")
                var headers = flooder
                headers[.contentType] = "application/json"
                headers[CSRFMiddleware.tokenHeader] = fresh.csrfToken
                let answer = try await fresh.send("/passkeys/sign-in/options", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
                if answer.status != .ok { refused = answer; break }
            }
            let answer = try #require(refused, "the flooding address is refused")
            #expect(answer.status == .tooManyRequests && answer.headers[.retryAfter] != nil)
            #expect(try PasskeyHTTPTests.object(answer)["error"] as? String == PasskeyRefusal.busy.message)

            var neighbour = TestBrowser(client: client)
            #expect(try await PasskeyHTTPTests.postJSON(&neighbour, "/passkeys/sign-in/options", "{}").status == .ok, "everyone else still gets one")
        }
    }

    @Test func aChallengeIsSpentOnlyByTheBrowserThatAskedForIt() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            var authenticator = PasskeyHTTPTests.authenticator()
            try await PasskeyHTTPTests.addPasskey(&browser, &authenticator)
            var asking = TestBrowser(client: browser.client)
            let options = try await PasskeyHTTPTests.postJSON(&asking, "/passkeys/sign-in/options", "{}")
            let assertion = try authenticator.assertion(challenge: try PasskeyHTTPTests.challenge(options))
            var other = TestBrowser(client: browser.client)
            let elsewhere = try await PasskeyHTTPTests.postJSON(&other, "/passkeys/sign-in", PasskeyHTTPTests.assertionBody(assertion))
            #expect(elsewhere.status == .forbidden)
            #expect(try PasskeyHTTPTests.object(elsewhere)["error"] as? String == PasskeyRefusal.challengeNotValid.message)
            let fresh = try authenticator.assertion(challenge: try PasskeyHTTPTests.challenge(
                try await PasskeyHTTPTests.postJSON(&asking, "/passkeys/sign-in/options", "{}")
            ))
            #expect(try await PasskeyHTTPTests.postJSON(&asking, "/passkeys/sign-in", PasskeyHTTPTests.assertionBody(fresh)).status == .ok)
        }
    }

    @Test func addingAPasskeyAsksForThePassword() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            for body in ["{}", #"{"password":"not my password"}"#, #"{"password":""}"#] {
                let answer = try await PasskeyHTTPTests.postJSON(&browser, "/passkeys/registration/options", body)
                #expect(answer.status == .forbidden || answer.status == .badRequest, "\(body): \(answer.status)")
                #expect(((try? PasskeyHTTPTests.object(answer))?["error"] as? String)?.isEmpty == false, "a sentence")
            }
            #expect(try await Self.liveChallenges(server) == 0, "no challenge without the password")
            var authenticator = PasskeyHTTPTests.authenticator()
            try await PasskeyHTTPTests.addPasskey(&browser, &authenticator)
            #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM passkey") } == 1)
        }
    }

    @Test func wrongPasswordsForAPasskeyCountAgainstTheAccount() async throws {
        let server = try await TestApp.build { $0.accounts.failedLoginsPerAccount = 3 }
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            for _ in 0..<3 {
                #expect(try await PasskeyHTTPTests.postJSON(&browser, "/passkeys/registration/options", #"{"password":"guess guess"}"#).status == .forbidden)
            }
            let throttled = try await PasskeyHTTPTests.postJSON(&browser, "/passkeys/registration/options", #"{"password":"correct horse battery"}"#)
            #expect(throttled.status == .tooManyRequests)
        }
    }

    @Test func anAdminsResetCanAlsoRemoveThePasskeys() async throws {
        try await AdminHTTPTests.withAdmin { server, root, bob in
            var authenticator = PasskeyHTTPTests.authenticator()
            try await PasskeyHTTPTests.addPasskey(&bob, &authenticator)
            let bobID = try await AdminHTTPTests.userID("bob", server)
            @Sendable func passkeys() async throws -> Int {
                try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM passkey WHERE user_id = ?", arguments: [bobID]) ?? -1 }
            }
            #expect(try await root.post("/admin/users/\(bobID)/reset-link", []).status == .ok)
            #expect(try await passkeys() == 1, "unticked, the passkeys stay")
            let page = try await root.post("/admin/users/\(bobID)/reset-link", [("remove_passkeys", "yes")])
            #expect(page.status == .ok && page.text.contains("/reset/"))
            #expect(try await passkeys() == 0)
            let events = try await Administration(database: server.database, clock: .system).recentEvents()
            #expect(events.contains { $0.action == "removed 1 passkey of" && $0.subject == "bob" })
        }
    }
}
