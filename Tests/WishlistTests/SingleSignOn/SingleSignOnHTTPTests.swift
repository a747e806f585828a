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
        return try started(try await browser.get(path ?? "/oidc/start?" + formEncode([("next", next)])))
    }

    /// Linking from Settings: a POST with the member's password (none for an account without one).
    static func startLinking(_ browser: inout TestBrowser, password: String = "correct horse battery") async throws -> Started {
        try started(try await browser.post("/settings/single-sign-on/link", [("password", password)]))
    }

    static func started(_ answer: TestResponse) throws -> Started {
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
                // A new account starts in the welcome, as a password sign-up does (issue 57).
                #expect(answer.status == .seeOther && answer.location == "/welcome")
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
            try await Self.expectRefusedOnTheSignInPage(setup, "No account here is linked to that single sign-on identity, and new accounts can’t be made with it.")
        }
    }

    /// An identity no account has signs in, and is sent to the sign-in page, which says `sentence`;
    /// no session and no account are made.
    static func expectRefusedOnTheSignInPage(_ setup: Setup, _ sentence: String) async throws {
        try await TestApp.run(setup.server) { browser in
            let answer = try await Self.signIn(&browser, setup)
            #expect(answer.status == .seeOther && answer.location?.hasPrefix("/login?refused=") == true)
            #expect(!answer.headers[values: .setCookie].contains { $0.hasPrefix("wishlist_session=") && !$0.contains("Max-Age=0") && $0.contains("Max-Age=") })
            let page = try await browser.get(try #require(answer.location))
            #expect(page.status == .ok && page.shows(sentence) && page.text.contains(#"id="login-form""#))
            #expect(try await Self.usernames(setup.server).isEmpty)
        }
    }

    // MARK: Sign-up through single sign-on (issue 50)

    /// `accounts.signup: closed` let an unknown identity in through single sign-on.
    @Test func withSignupClosedAnUnknownIdentityGetsNoAccount() async throws {
        try await Self.withProvider({ $0.accounts.signup = .closed }) { setup in
            try await Self.expectRefusedOnTheSignInPage(setup, "No account here is linked to that single sign-on identity, and new accounts can’t be made with it.")
        }
    }

    @Test func byInvitationOnlyTheInviteLinksButtonMakesAnAccountAndSpendsTheInvite() async throws {
        try await Self.withProvider({ $0.accounts.signup = .invite }) { setup in
            try await Self.expectRefusedOnTheSignInPage(
                setup, "No account here is linked to that single sign-on identity, and on this server accounts are made by invitation."
            )
            let invites = Invites(database: setup.server.database, clock: setup.time.clock)
            let admin = Administration.Actor(userID: UserID(0), username: "root")
            let invite = try await invites.create(by: admin)
            try await TestApp.run(setup.server) { browser in
                let signup = try await browser.get("/signup?invite=\(invite)")
                let button = "/oidc/start?next=%2F&amp;invite=\(invite)"
                #expect(signup.text.contains(#"id="sso-sign-in" href="\#(button)""#), "the invite's sign-up page offers single sign-on, carrying it")
                let started = try await Self.start(&browser, path: button.replacingOccurrences(of: "&amp;", with: "&"))
                let (code, state) = try setup.provider.issueCode(forAuthorizationURL: started.authorizationURL, subject: "sub-invited")
                let answer = try await Self.callback(&browser, code: code, state: state, attemptCookie: started.attemptCookie)
                #expect(answer.status == .seeOther && answer.location == "/welcome")
                #expect(try await Self.usernames(setup.server) == ["Ada.Lovelace"])
                #expect(try await invites.check(token: invite) == .used)
                #expect(try await invites.all().first?.usedBy == "Ada.Lovelace")

                // Spent, it starts nothing more.
                var other = TestBrowser(client: browser.client)
                try await other.get("/login")
                let again = try await other.get(button.replacingOccurrences(of: "&amp;", with: "&"))
                #expect(again.status == .gone && again.shows("This invite has been used"))

                // An invite used up while its sign-in was at the provider makes nothing.
                let second = try await invites.create(by: admin)
                let pending = try await Self.start(&other, path: "/oidc/start?next=%2F&invite=\(second)")
                var third = TestBrowser(client: browser.client)
                try await third.get("/signup?invite=\(second)")
                #expect(try await third.post("/signup", [("username", "carol"), ("email", ""), ("password", "correct horse battery"),
                                                         ("password_confirm", "correct horse battery"), ("invite", second)]).status == .seeOther)
                let (code2, state2) = try setup.provider.issueCode(forAuthorizationURL: pending.authorizationURL, subject: "sub-late")
                let late = try await Self.callback(&other, code: code2, state: state2, attemptCookie: pending.attemptCookie)
                #expect(late.status == .gone && late.shows("This invite has been used"))
                #expect(try await Self.usernames(setup.server) == ["Ada.Lovelace", "carol"])
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
                #expect(answer.status == .forbidden && answer.shows("This account can’t sign in."))
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
                #expect(wrongState.status == .badRequest && wrongState.shows("This sign-in can’t be finished"))

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
                let started = try await Self.startLinking(&browser)
                let (code, state) = try setup.provider.issueCode(forAuthorizationURL: started.authorizationURL, subject: "sub-maya", preferredUsername: "someone")
                let linked = try await Self.callback(&browser, code: code, state: state, attemptCookie: started.attemptCookie)
                #expect(linked.status == .seeOther && linked.location == "/settings/sign-in?done=identity-linked#flash")
                #expect(try await browser.get("/settings/sign-in?done=identity-linked").shows("Single sign-on is linked."))

                try await browser.post("/logout", [])
                #expect(try await Self.signIn(&browser, setup, subject: "sub-maya").status == .seeOther)
                #expect(try await Self.usernames(setup.server) == ["maya"], "signed in to maya, no new account")

                let id = try await setup.server.database.pool.read { try IdentityID.fetchOne($0, sql: "SELECT id FROM sign_in_identity") }!
                for spelling in ["0\(id)", "+\(id)"] {
                    let other = try await browser.post("/settings/single-sign-on/\(spelling)/unlink", [])
                    #expect(other.status == .notFound, "an id has one spelling (IdentityID): \(spelling)")
                }
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
                let started = try await Self.startLinking(&browser)
                let (code, state) = try setup.provider.issueCode(forAuthorizationURL: started.authorizationURL, subject: "sub-taken")
                let answer = try await Self.callback(&browser, code: code, state: state, attemptCookie: started.attemptCookie)
                #expect(answer.status == .conflict && answer.shows("already signs in to another account"))
            }
        }
    }

    /// Issue 50: a stolen session added a lasting way in by following one GET link.
    @Test func linkingStartsOnlyWithAPostThatCarriesThePassword() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                try await browser.signUp("maya")
                @Sendable func attempts() async throws -> Int {
                    try await setup.server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sign_in_attempt") ?? -1 }
                }
                let followed = try await browser.get("/settings/single-sign-on/link")
                #expect(followed.status != .seeOther && followed.location == nil, "a GET starts nothing")
                #expect(try await attempts() == 0)

                let wrong = try await browser.post("/settings/single-sign-on/link", [("password", "not my password")])
                #expect(wrong.status == .unprocessableContent)
                #expect(wrong.text.contains(#"id="link_password-error"><span class="visually-hidden">Error: </span>That is not your password.</p>"#))
                #expect(wrong.text.contains(#"id="link_password" name="password" type="password""#), "beside the field")
                #expect(!wrong.headers[values: .setCookie].contains { $0.hasPrefix("wishlist_oidc=") })
                let forged = try await browser.post("/settings/single-sign-on/link", [("password", "correct horse battery"), ("csrf_token", "forged")])
                #expect(forged.status == .forbidden)
                #expect(try await attempts() == 0, "neither started anything")

                // The page's form may lead to the provider, and only there besides this site.
                let origin = try #require(OpenIDProvider.origin(of: setup.server.config.accounts.oidc.issuer))
                let policy = try await browser.get("/settings/sign-in").headers[.contentSecurityPolicy]
                #expect(policy?.hasSuffix("form-action 'self' \(origin)") == true, "\(policy ?? "none")")
                #expect(wrong.headers[.contentSecurityPolicy] == policy)

                let started = try await Self.startLinking(&browser)
                #expect(started.authorizationURL.hasPrefix(origin + "/"))
                let linking = try await setup.server.database.pool.read { try UserID.fetchOne($0, sql: "SELECT user_id FROM sign_in_attempt") }
                #expect(linking == (try await AdminHTTPTests.userID("maya", setup.server)))
            }
        }
    }

    @Test func anAccountWithoutAPasswordLinksOnlyWithinTenMinutesOfSigningIn() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                try await Self.signIn(&browser, setup)
                _ = try await Self.startLinking(&browser, password: "")
                setup.time.advance(by: AccountService.recentSignIn + 1)
                let stale = try await browser.post("/settings/single-sign-on/link", [("password", "")])
                #expect(stale.status == .unprocessableContent)
                #expect(stale.shows("Your account has no password, so linking needs a recent sign-in: sign out, sign in again, and link within ten minutes."))
                #expect(!stale.headers[values: .setCookie].contains { $0.hasPrefix("wishlist_oidc=") })
            }
        }
    }

    /// Links `subject` to the account signed in in `browser`, through the password form.
    static func link(_ browser: inout TestBrowser, _ setup: Setup, subject: String, password: String = "correct horse battery") async throws {
        let started = try await startLinking(&browser, password: password)
        let (code, state) = try setup.provider.issueCode(forAuthorizationURL: started.authorizationURL, subject: subject)
        #expect(try await callback(&browser, code: code, state: state, attemptCookie: started.attemptCookie).location?.contains("identity-linked") == true)
    }

    /// Issue 50: a linked identity outlived a reset and the admin's "remove passkeys".
    @Test func signingOutEverywhereAResetAndTheAdminsTickCanUnlinkSingleSignOn() async throws {
        try await Self.withProvider { setup in
            _ = try await setup.server.accounts.createUser(username: "root", password: "correct horse battery", isAdmin: true)
            try await TestApp.run(setup.server) { browser in
                var maya = TestBrowser(client: browser.client)
                try await maya.signUp("maya")
                let mayaID = try await AdminHTTPTests.userID("maya", setup.server)
                @Sendable func identities() async throws -> Int {
                    try await setup.server.database.pool.read {
                        try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sign_in_identity WHERE user_id = ?", arguments: [mayaID]) ?? -1
                    }
                }

                try await Self.link(&maya, setup, subject: "sub-1")
                #expect(try await maya.get("/settings/sign-in").text.contains(#"name="unlink_identities" value="yes" aria-describedby="unlink_identities-error"> and unlink single sign-on</label>"#))
                let signedOut = try await maya.post("/settings/sessions/sign-out-others", [("unlink_identities", "yes")])
                #expect(signedOut.location == "/settings/sign-in?done=signed-out-unlinked#flash")
                #expect(try await identities() == 0)

                var root = TestBrowser(client: browser.client)
                try await root.signIn("root")
                try await Self.link(&maya, setup, subject: "sub-2")
                #expect(try await root.post("/admin/users/\(mayaID)/reset-link", []).status == .ok)
                #expect(try await identities() == 1, "unticked, the identity stays")
                let ticked = try await root.post("/admin/users/\(mayaID)/reset-link", [("remove_passkeys", "yes")])
                #expect(ticked.shows("and remove passkeys and single sign-on"))
                #expect(try await identities() == 0)

                // The reset page (an admin's link, or a mailed one) offers it too.
                try await Self.link(&maya, setup, subject: "sub-3")
                let reset = try AdminHTTPTests.newLink(in: try await root.post("/admin/users/\(mayaID)/reset-link", []))
                var stranger = TestBrowser(client: browser.client)
                #expect(try await stranger.get(reset).text.contains(#"name="unlink_identities" value="yes""#))
                let fields = [("new_password", "a brand new password"), ("new_password_confirm", "a brand new password")]
                #expect(try await stranger.post(reset, fields + [("unlink_identities", "yes")]).status == .seeOther)
                #expect(try await identities() == 0)

                // Left unticked, it stays.
                try await maya.signIn("maya", password: "a brand new password")
                try await Self.link(&maya, setup, subject: "sub-4", password: "a brand new password")
                let another = try AdminHTTPTests.newLink(in: try await root.post("/admin/users/\(mayaID)/reset-link", []))
                #expect(try await stranger.post(another, fields).status == .seeOther)
                #expect(try await identities() == 1)
            }
        }
    }

    @Test func signingOutEverywhereKeepsSingleSignOnWhenItIsTheOnlyWayIn() async throws {
        try await Self.withProvider { setup in
            try await TestApp.run(setup.server) { browser in
                try await Self.signIn(&browser, setup)
                let refused = try await browser.post("/settings/sessions/sign-out-others", [("unlink_identities", "yes")])
                #expect(refused.status == .conflict && refused.shows("Single sign-on is your only way in, so it can’t be unlinked."))
                #expect(try await setup.server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sign_in_identity") } == 1)
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
