import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 32: sign-in through an OpenID Connect provider, driven through the app's router against
/// a fake provider on a loopback port reached through the real libcurl client. Every forged,
/// stale or replayed answer is refused with a 4xx page and no session.
@Suite("Single sign-on: the code flow, every check of the ID token, linking", .removesTemporaryDirectories)
struct SingleSignOnHTTPTests {
    /// The app and the fake provider sharing a clock the test moves.
    struct Setup: Sendable {
        let server: WishlistServer
        let provider: FakeOpenIDProvider
        let time: ManualClock
        let log: LogCapture
    }

    static func withProvider(
        limits: CurlHTTPClient.Limits = .init(),
        _ adjust: @escaping @Sendable (inout AppConfig) -> Void = { _ in }, _ body: @Sendable (Setup) async throws -> Void
    ) async throws {
        let time = ManualClock()
        let provider = FakeOpenIDProvider(clock: time.clock)
        let log = LogCapture()
        try await provider.run { issuer in
            let config = try TestApp.config { config in
                config.accounts.oidc = .init(issuer: issuer, clientID: FakeOpenIDProvider.clientID, clientSecret: FakeOpenIDProvider.clientSecret)
                adjust(&config)
            }
            let server = try await WishlistServer.build(config: config, logger: log.logger, clock: time.clock, httpLimits: limits)
            try await body(Setup(server: server, provider: provider, time: time, log: log))
        }
    }

    /// A sign-in under way: the provider's address the app sent the browser to, and the
    /// short-lived cookie that binds it.
    struct Started {
        let authorizationURL: String
        let attemptCookie: String
    }

    static func start(_ browser: inout TestBrowser, path: String? = nil, next: String = "/") async throws -> Started {
        if browser.sessionCookie == nil { try await browser.get("/login") }
        let answer = try await browser.get(path ?? "/oidc/start?" + formEncode([("next", next)]))
        #expect(answer.status == .seeOther)
        let cookie = try #require(answer.headers[values: .setCookie].first { $0.hasPrefix("wishlist_oidc=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Max-Age=600"))
        let value = String(cookie.dropFirst("wishlist_oidc=".count).prefix { $0 != ";" })
        return Started(authorizationURL: try #require(answer.location), attemptCookie: value)
    }

    static func callback(_ browser: inout TestBrowser, code: String, state: String, attemptCookie: String) async throws -> TestResponse {
        var cookies = ["wishlist_oidc=\(attemptCookie)"]
        if let session = browser.sessionCookie { cookies.insert("wishlist_session=\(session)", at: 0) }
        let query = formEncode([("code", code), ("state", state)])
        return try await browser.get("/oidc/callback?" + query, headers: [.cookie: cookies.joined(separator: "; ")])
    }

    /// The whole round trip: start, the provider signs `subject` in, back to the callback.
    @discardableResult
    static func signIn(_ browser: inout TestBrowser, _ setup: Setup, subject: String = "sub-0001", name: String = "Ada Lovelace") async throws -> TestResponse {
        let started = try await start(&browser)
        let (code, state) = try setup.provider.issueCode(forAuthorizationURL: started.authorizationURL, subject: subject, preferredUsername: name)
        return try await callback(&browser, code: code, state: state, attemptCookie: started.attemptCookie)
    }

    static func usernames(_ server: WishlistServer) async throws -> [String] {
        try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT username FROM user ORDER BY id") }
    }

    // MARK: The flow

    @Test func theFirstSignInMakesAnAccountAndTheNextFindsIt() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                let started = try await Self.start(&browser, next: "/wishlist")
                let query = FakeOpenIDProvider.fields(URLComponents(string: started.authorizationURL)?.percentEncodedQuery)
                #expect(query["code_challenge_method"] == "S256" && query["redirect_uri"] == "http://localhost:8080/oidc/callback")
                let (code, state) = try setup.provider.issueCode(forAuthorizationURL: started.authorizationURL)
                let answer = try await Self.callback(&browser, code: code, state: state, attemptCookie: started.attemptCookie)
                #expect(answer.status == .seeOther && answer.location == "/wishlist")
                #expect(answer.headers[values: .setCookie].contains { $0.hasPrefix("wishlist_oidc=;") && $0.contains("Max-Age=0") })
                #expect(try await browser.get("/wishlist").status == .ok, "signed in")
                #expect(try await Self.usernames(setup.server) == ["Ada.Lovelace"])

                let request = try #require(setup.provider.tokenRequests.last)
                #expect(request["code_verifier"]?.count == 43 && request["client_secret"] == nil, "the secret goes in the Authorization header")

                try await browser.post("/logout", [])
                #expect(try await browser.get("/wishlist").status == .seeOther, "signed out")
                #expect(try await Self.signIn(&browser, setup).status == .seeOther)
                #expect(try await browser.get("/wishlist").status == .ok)
                #expect(try await Self.usernames(setup.server) == ["Ada.Lovelace"], "the same identity, the same account")
            }
            #expect(!setup.log.all.joined().contains(FakeOpenIDProvider.clientSecret))
        }
    }

    @Test func aNewIdentityGetsAFreeValidNameAndAnEmailAloneLinksNothing() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                try await browser.signUp("Ada.Lovelace", email: "shared@example.org")
                try await browser.post("/logout", [])
                // The fake's tokens carry the e-mail address `shared@example.org` too.
                #expect(try await Self.signIn(&browser, setup, name: "Ada Lovelace").status == .seeOther)
                #expect(try await Self.usernames(setup.server) == ["Ada.Lovelace", "Ada.Lovelace2"])
                try await browser.post("/logout", [])
                #expect(try await Self.signIn(&browser, setup, subject: "sub-2", name: "✨").status == .seeOther)
                #expect(try await Self.usernames(setup.server).last == "member")
            }
        }
    }

    @Test func withSignupOffAnUnknownIdentityIsRefusedWithASentence() async throws {
        try await Self.withProvider({ $0.accounts.oidc.signup = false }) { setup in
            try await TestApp.run(setup.server) { browser in
                let answer = try await Self.signIn(&browser, setup)
                #expect(answer.status == .forbidden)
                #expect(answer.shows("No account here is linked to that single sign-on identity, and new accounts can't be made with it."))
                #expect(!answer.headers[values: .setCookie].contains { $0.hasPrefix("wishlist_session=") && !$0.contains("Max-Age=0") && $0.contains("Max-Age=") })
                #expect(try await Self.usernames(setup.server).isEmpty)
            }
        }
    }

    @Test func aDisabledAccountIsRefused() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                try await Self.signIn(&browser, setup)
                try await browser.post("/logout", [])
                try await setup.server.database.pool.write { try $0.execute(sql: "UPDATE user SET disabled_at = '2026-01-01 00:00:00.000'") }
                let answer = try await Self.signIn(&browser, setup)
                #expect(answer.status == .forbidden && answer.shows("This account can't sign in."))
            }
        }
    }

    // MARK: Forged and stale tokens

    /// Each way an ID token can lie, and the claims or signing that make it.
    static let forgeries: [(String, @Sendable (inout FakeOpenIDProvider.Token) -> Void)] = [
        ("wrong signature", { $0.signing = .rs256WithUnpublishedKey(kid: "rsa-1") }),
        ("alg none", { $0.signing = .none }),
        ("HS256 keyed with the public key", { $0.signing = .hs256WithPublicKey(kid: "rsa-1") }),
        ("ES256 under the RSA key's id", { $0.signing = .es256(kid: "rsa-1") }),
        ("wrong issuer", { $0.claims["iss"] = "http://127.0.0.1:1" }),
        ("wrong audience", { $0.claims["aud"] = "someone-else" }),
        ("several audiences, no azp", { $0.claims["aud"] = [FakeOpenIDProvider.clientID, "someone-else"] }),
        ("several audiences, another azp", { $0.claims["aud"] = [FakeOpenIDProvider.clientID, "x"]; $0.claims["azp"] = "x" }),
        ("expired", { $0.claims["exp"] = ($0.claims["iat"] as! Int) - 61; $0.claims["iat"] = ($0.claims["iat"] as! Int) - 400 }),
        ("issued in the future", { $0.claims["iat"] = ($0.claims["iat"] as! Int) + 61 }),
        ("wrong nonce", { $0.claims["nonce"] = "not-the-nonce" }),
        ("no nonce", { $0.claims["nonce"] = nil }),
        ("no subject", { $0.claims["sub"] = nil }),
    ]

    @Test(arguments: 0..<forgeries.count)
    func aForgedOrWrongTokenIsRefusedWithA403(_ index: Int) async throws {
        let (name, forge) = Self.forgeries[index]
        try await Self.withProvider { setup in
            setup.provider.forge(forge)
            try await TestApp.run(setup.server) { browser in
                let answer = try await Self.signIn(&browser, setup)
                #expect(answer.status == .forbidden, "\(name)")
                #expect(answer.shows("The answer from the single sign-on provider did not pass our checks"), "\(name)")
                #expect(try await browser.get("/wishlist").status == .seeOther, "\(name): not signed in")
                #expect(try await Self.usernames(setup.server).isEmpty, "\(name)")
            }
        }
    }

    @Test func theLeewayForgivesAMinuteOfClockDifferenceEitherWayAndES256IsAccepted() async throws {
        try await Self.withProvider { setup in
            setup.provider.forge { token in
                token.signing = .es256(kid: "ec-1")
                token.claims["iat"] = (token.claims["iat"] as! Int) + 59
                token.claims["exp"] = (token.claims["iat"] as! Int) - 59 - 59
                token.claims["aud"] = [FakeOpenIDProvider.clientID, "other"]
                token.claims["azp"] = FakeOpenIDProvider.clientID
            }
            try await TestApp.run(setup.server) { browser in
                let answer = try await Self.signIn(&browser, setup)
                #expect(answer.status == .seeOther)
            }
        }
    }

    @Test func aNonceFromAnEarlierSignInIsRefused() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                let first = try await Self.start(&browser)
                let earlierNonce = try #require(FakeOpenIDProvider.fields(URLComponents(string: first.authorizationURL)?.percentEncodedQuery)["nonce"])
                setup.provider.forge { $0.claims["nonce"] = earlierNonce }
                let answer = try await Self.signIn(&browser, setup)
                #expect(answer.status == .forbidden)
                #expect(try await Self.usernames(setup.server).isEmpty)
            }
        }
    }

    @Test func aWrongOrReplayedStateOrAnotherBrowsersCookieFindsNoSignIn() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                let started = try await Self.start(&browser)
                let (code, state) = try setup.provider.issueCode(forAuthorizationURL: started.authorizationURL)
                let wrongState = try await Self.callback(&browser, code: code, state: "made-up-state", attemptCookie: started.attemptCookie)
                #expect(wrongState.status == .badRequest && wrongState.shows("This sign-in can't be finished"))

                var other = TestBrowser(client: browser.client)
                let elsewhere = try await Self.callback(&other, code: code, state: state, attemptCookie: SecureRandom.token())
                #expect(elsewhere.status == .badRequest, "another browser cannot finish it, and the attempt is spent")
                let afterwards = try await Self.callback(&browser, code: code, state: state, attemptCookie: started.attemptCookie)
                #expect(afterwards.status == .badRequest)

                let again = try await Self.start(&browser)
                let (code2, state2) = try setup.provider.issueCode(forAuthorizationURL: again.authorizationURL)
                #expect(try await Self.callback(&browser, code: code2, state: state2, attemptCookie: again.attemptCookie).status == .seeOther)
                let replayed = try await Self.callback(&browser, code: code2, state: state2, attemptCookie: again.attemptCookie)
                #expect(replayed.status == .badRequest, "a replayed callback")

                let expiring = try await Self.start(&browser)
                let (code3, state3) = try setup.provider.issueCode(forAuthorizationURL: expiring.authorizationURL)
                setup.time.advance(by: SignInAttempts.lifetime + 1)
                #expect(try await Self.callback(&browser, code: code3, state: state3, attemptCookie: expiring.attemptCookie).status == .badRequest)
            }
        }
    }

    @Test func aCodeUsedTwiceOrRedeemedWithoutItsPKCEVerifierIsRefused() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                let first = try await Self.start(&browser)
                let (code, state) = try setup.provider.issueCode(forAuthorizationURL: first.authorizationURL)
                #expect(try await Self.callback(&browser, code: code, state: state, attemptCookie: first.attemptCookie).status == .seeOther)
                try await browser.post("/logout", [])

                // The used code again, under a fresh sign-in of this browser.
                let second = try await Self.start(&browser)
                let secondState = try #require(FakeOpenIDProvider.fields(URLComponents(string: second.authorizationURL)?.percentEncodedQuery)["state"])
                let reused = try await Self.callback(&browser, code: code, state: secondState, attemptCookie: second.attemptCookie)
                #expect(reused.status == .badRequest && reused.shows("The provider would not confirm this sign-in"))

                // A code issued for another sign-in (an attacker's) lacks this one's verifier.
                let victim = try await Self.start(&browser)
                let attacker = try await Self.start(&browser)
                let (stolen, _) = try setup.provider.issueCode(forAuthorizationURL: attacker.authorizationURL, subject: "attacker")
                let victimState = try #require(FakeOpenIDProvider.fields(URLComponents(string: victim.authorizationURL)?.percentEncodedQuery)["state"])
                let injected = try await Self.callback(&browser, code: stolen, state: victimState, attemptCookie: victim.attemptCookie)
                #expect(injected.status == .badRequest)
                #expect(try await Self.usernames(setup.server) == ["Ada.Lovelace"])
            }
        }
    }

    @Test func oneAddressHoldsABoundedNumberOfUnfinishedSignIns() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                for _ in 0..<SignInAttempts.livePerAddress { _ = try await Self.start(&browser) }
                let refused = try await browser.get("/oidc/start?next=/")
                #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil)
                setup.time.advance(by: SignInAttempts.lifetime + 1)
                _ = try await Self.start(&browser)
            }
        }
    }

    // MARK: Keys

    @Test func anUnknownKeyIdReadsTheKeysAgainAtMostOnceAMinute() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                #expect(try await Self.signIn(&browser, setup).status == .seeOther)
                #expect(setup.provider.keyReads == 1)
                try await browser.post("/logout", [])

                setup.provider.publish(rsaKid: "rsa-2")
                setup.provider.forge { $0.signing = .rs256WithUnpublishedKey(kid: "rsa-2") }
                #expect(try await Self.signIn(&browser, setup).status == .forbidden, "read less than a minute ago: not again")
                #expect(setup.provider.keyReads == 1)

                setup.time.advance(by: 61)
                #expect(try await Self.signIn(&browser, setup).status == .seeOther, "read again once, the new key found")
                #expect(setup.provider.keyReads == 2)
            }
        }
    }

    // MARK: Linking from Settings

    @Test func aMemberLinksHerIdentityThenSignsInWithItAndUnlinksItWhileSheHasAPassword() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                try await browser.signUp("maya")
                let settings = try await browser.get("/settings/sign-in")
                #expect(settings.shows("No single sign-on identity is linked to your account."))
                let started = try await Self.start(&browser, path: "/settings/single-sign-on/link")
                let (code, state) = try setup.provider.issueCode(forAuthorizationURL: started.authorizationURL, subject: "sub-maya", preferredUsername: "someone")
                let linked = try await Self.callback(&browser, code: code, state: state, attemptCookie: started.attemptCookie)
                #expect(linked.status == .seeOther && linked.location == "/settings/sign-in?done=identity-linked#flash")
                #expect(try await browser.get("/settings/sign-in?done=identity-linked").shows("Single sign-on is linked."))

                try await browser.post("/logout", [])
                #expect(try await Self.signIn(&browser, setup, subject: "sub-maya").status == .seeOther)
                #expect(try await Self.usernames(setup.server) == ["maya"], "signed in to maya, no new account")

                let id = try await setup.server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM sign_in_identity") }!
                #expect(try await browser.post("/settings/single-sign-on/\(id)/unlink", []).location == "/settings/sign-in?done=identity-unlinked#flash")
                #expect(try await browser.post("/settings/single-sign-on/\(id)/unlink", []).status == .notFound)
            }
        }
    }

    @Test func anAccountWithOnlySingleSignOnCannotUnlinkIt() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                try await Self.signIn(&browser, setup)
                let id = try await setup.server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM sign_in_identity") }!
                let answer = try await browser.post("/settings/single-sign-on/\(id)/unlink", [])
                #expect(answer.status == .conflict && answer.shows("Single sign-on is the only way into your account"))
            }
        }
    }

    @Test func anIdentityLinkedToAnotherAccountIsNotLinkedAgain() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                try await Self.signIn(&browser, setup, subject: "sub-taken")
                try await browser.post("/logout", [])
                try await browser.signUp("maya")
                let started = try await Self.start(&browser, path: "/settings/single-sign-on/link")
                let (code, state) = try setup.provider.issueCode(forAuthorizationURL: started.authorizationURL, subject: "sub-taken")
                let answer = try await Self.callback(&browser, code: code, state: state, attemptCookie: started.attemptCookie)
                #expect(answer.status == .conflict && answer.shows("already signs in to another account"))
            }
        }
    }

    // MARK: The admin page

    @Test func theAdminPageShowsHowEachAccountSignsIn() async throws {
        try await Self.withProvider { setup in
            _ = try await setup.server.accounts.createUser(username: "root", password: "correct horse battery", isAdmin: true)
            try await TestApp.run(setup.server) { browser in
                try await Self.signIn(&browser, setup)
                try await browser.post("/logout", [])
                try await browser.signIn("root")
                let page = try await browser.get("/admin")
                let row = { (name: String) in page.text.firstMatch(of: try! Regex(#"data-user=""# + name + #""[\s\S]*?class="ways-in">([^<]*)<"#))?.output[1].substring }
                #expect(row("root") == "password")
                #expect(row("Ada.Lovelace") == "single sign-on")
            }
        }
    }

    // MARK: The sign-in page

    @Test func theSignInPageOffersTheButtonAndWithoutPasswordsOnlyIt() async throws {
        try await Self.withProvider({ $0.accounts.oidc.buttonLabel = "Sign in with Example ID" }) { setup in
            try await TestApp.run(setup.server) { browser in
                let page = try await browser.get("/login")
                #expect(page.shows("Sign in with Example ID") && page.text.contains(#"id="login-form""#))
            }
        }
        try await Self.withProvider({ $0.accounts.passwordSignIn = false }) { setup in
            try await TestApp.run(setup.server) { browser in
                let page = try await browser.get("/login")
                #expect(page.shows("Sign in with single sign-on") && !page.text.contains(#"id="login-form""#))
                #expect(!page.text.contains(#"href="/signup""#))
                // The page has no form, so no CSRF token either: a post is refused before the route's own 404.
                let posted = try await browser.post("/login", [("username", "a"), ("password", "b"), ("next", "")])
                #expect([.forbidden, .notFound].contains(posted.status) && posted.location == nil)
                #expect(try await browser.get("/signup").status == .notFound)
            }
        }
    }
}
