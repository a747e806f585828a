import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Passkeys over HTTP, as `passkeys.js` speaks to the server: JSON with the CSRF token in a
/// header, a software authenticator in place of the browser's. The test server's public URL is
/// the default, `http://localhost:8080`.
@Suite("Passkeys over HTTP", .removesTemporaryDirectories)
struct PasskeyHTTPTests {
    static func authenticator() -> SoftwareAuthenticator {
        var authenticator = SoftwareAuthenticator.es256()
        authenticator.rpID = "localhost"
        authenticator.origin = "http://localhost:8080"
        return authenticator
    }

    @discardableResult
    static func postJSON(_ browser: inout TestBrowser, _ path: String, _ body: String, csrf: String? = nil) async throws -> TestResponse {
        if browser.csrfToken.isEmpty || browser.csrfTokenSession != browser.sessionCookie { try await browser.refreshCSRFToken() }
        var headers: HTTPFields = [.contentType: "application/json"]
        headers[CSRFMiddleware.tokenHeader] = csrf ?? browser.csrfToken
        return try await browser.send(path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static func object(_ response: TestResponse) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any] else {
            Issue.record("not a JSON object: \(response.status) \(response.text.prefix(200))")
            throw NotJSON()
        }
        return object
    }

    struct NotJSON: Error {}

    static func challenge(_ response: TestResponse) throws -> [UInt8] {
        let text = try #require(try object(response)["challenge"] as? String)
        return try #require(Base64URL.decode(text))
    }

    /// Registers a passkey named "Phone" for the signed-in browser through the endpoints.
    static func addPasskey(
        _ browser: inout TestBrowser, _ authenticator: inout SoftwareAuthenticator, password: String = "correct horse battery"
    ) async throws {
        let options = try await postJSON(&browser, "/passkeys/registration/options", #"{"password":"\#(password)"}"#)
        #expect(options.status == .ok, "\(options.status) \(options.text.prefix(300))")
        let fields = try object(options)
        #expect((fields["rp"] as? [String: Any])?["id"] as? String == "localhost")
        #expect(fields["attestation"] as? String == "none")
        let user = try #require(fields["user"] as? [String: Any])
        let handle = try #require(user["id"] as? String)
        authenticator.userHandle = try #require(Base64URL.decode(handle))
        let (clientData, attestation) = authenticator.registration(challenge: try challenge(options))
        let added = try await postJSON(&browser, "/passkeys/registration", """
            {"name":"Phone","clientDataJSON":"\(Base64URL.encode(clientData))","attestationObject":"\(Base64URL.encode(attestation))"}
            """)
        #expect(added.status == .ok, "\(added.text)")
        #expect(try object(added)["redirect"] as? String == "/settings/sign-in?done=passkey-added#flash")
    }

    static func assertionBody(_ assertion: SoftwareAuthenticator.Assertion) -> String {
        """
        {"id":"\(Base64URL.encode(assertion.credentialID))","clientDataJSON":"\(Base64URL.encode(assertion.clientData))",\
        "authenticatorData":"\(Base64URL.encode(assertion.authenticatorData))","signature":"\(Base64URL.encode(assertion.signature))",\
        "userHandle":"\(Base64URL.encode(assertion.userHandle ?? []))","next":"/wishlist"}
        """
    }

    @Test func aPasskeySignsInLikeAPasswordAndStartsASessionOfItsOwn() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            var authenticator = Self.authenticator()
            try await Self.addPasskey(&browser, &authenticator)
            let settings = try await browser.get("/settings/sign-in?done=passkey-added")
            #expect(settings.text.contains("<td>Phone</td>"))
            #expect(settings.text.contains(/<script src="\/static\/passkeys\.js\?v=[0-9a-f]{16}" defer data-cancelled="[^"]+"/))

            var phone = TestBrowser(client: browser.client)
            let options = try await Self.postJSON(&phone, "/passkeys/sign-in/options", "{}")
            #expect(try Self.object(options)["rpId"] as? String == "localhost")
            #expect(try Self.object(options)["userVerification"] as? String == "required")
            let assertion = try authenticator.assertion(challenge: try Self.challenge(options))
            let signedIn = try await Self.postJSON(&phone, "/passkeys/sign-in", Self.assertionBody(assertion))
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(try Self.object(signedIn)["redirect"] as? String == "/wishlist")
            let cookie = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("wishlist_session=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            #expect(try await phone.get("/wishlist").status == .ok, "the new cookie is a session")
            let sessions = try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM session") }
            #expect(sessions == 2, "one for the password, one for the passkey")

            #expect(await Self.replayRefused(&phone, assertion))
        }
    }

    static func replayRefused(_ browser: inout TestBrowser, _ assertion: SoftwareAuthenticator.Assertion) async -> Bool {
        guard let again = try? await postJSON(&browser, "/passkeys/sign-in", assertionBody(assertion)) else { return false }
        return again.status == .forbidden && again.text.contains("expired or was already used")
    }

    @Test func passkeyEndpointsNeedTheCSRFHeaderAndRefuseBadJSONWithASentence() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.get("/login")
            let forged = try await Self.postJSON(&browser, "/passkeys/sign-in/options", "{}", csrf: "forged")
            #expect(forged.status == .forbidden)
            var headers: HTTPFields = [.contentType: "application/json"]
            headers[CSRFMiddleware.tokenHeader] = browser.csrfToken
            let elsewhere = try await browser.send("/login", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(elsewhere.status == .unsupportedMediaType, "JSON only under /passkeys/")

            let bad = [
                "", "{", "[]", "null", #"{"id":1}"#, #"{"id":"!!","clientDataJSON":"","authenticatorData":"","signature":""}"#,
                #"{"id":"AAAA","clientDataJSON":"e30","authenticatorData":"AAAA","signature":"AAAA"}"#,
                #"{"id":"AAAA","clientDataJSON":"\#(String(repeating: "A", count: 20_000))","authenticatorData":"","signature":""}"#,
            ]
            for body in bad {
                let answer = try await Self.postJSON(&browser, "/passkeys/sign-in", body)
                #expect(answer.status == .badRequest, "\(body.prefix(60)) answered \(answer.status)")
                #expect(answer.headers[.contentType] == "application/json")
                #expect(((try? Self.object(answer))?["error"] as? String)?.count ?? 0 >= 20, "\(body.prefix(60)) gives a sentence")
            }
            let signedOut = try await Self.postJSON(&browser, "/passkeys/registration/options", "{}")
            #expect(signedOut.status == .unauthorized, "signed out: a sentence for the script, not a redirect")
            #expect(try Self.object(signedOut)["error"] as? String == PasskeyController.signedOut)
        }
    }

    @Test func failedPasskeySignInsAreThrottledPerAddressLikePasswords() async throws {
        let server = try await TestApp.build { $0.accounts.failedLoginsPerAddress = 3 }
        try await TestApp.run(server) { browser in
            try await browser.get("/login")
            var authenticator = Self.authenticator()
            for _ in 0..<3 {
                let options = try await Self.postJSON(&browser, "/passkeys/sign-in/options", "{}")
                let answer = try await Self.postJSON(&browser, "/passkeys/sign-in", Self.assertionBody(try authenticator.assertion(challenge: try Self.challenge(options))))
                #expect(answer.status == .forbidden, "an unknown passkey")
            }
            let options = try await Self.postJSON(&browser, "/passkeys/sign-in/options", "{}")
            let throttled = try await Self.postJSON(&browser, "/passkeys/sign-in", Self.assertionBody(try authenticator.assertion(challenge: try Self.challenge(options))))
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.headers[.retryAfter] != nil)
            #expect(try await browser.signIn("nobody", password: "whatever long").status == .tooManyRequests, "the same count as passwords")
        }
    }

    @Test func removingAPasskeyInSettingsStopsItAndDeletingTheAccountRemovesThemAll() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            var authenticator = Self.authenticator()
            try await Self.addPasskey(&browser, &authenticator)
            let id = try #require(try await server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM passkey") })
            #expect(try await browser.post("/settings/passkeys/\(id + 1)/remove", []).status == .notFound)
            #expect(try await browser.post("/settings/passkeys/\(id)/remove", []).location == "/settings/sign-in?done=passkey-removed#flash")
            var phone = TestBrowser(client: browser.client)
            let options = try await Self.postJSON(&phone, "/passkeys/sign-in/options", "{}")
            let refused = try await Self.postJSON(&phone, "/passkeys/sign-in", Self.assertionBody(try authenticator.assertion(challenge: try Self.challenge(options))))
            #expect(refused.status == .forbidden)
            #expect(try Self.object(refused)["error"] as? String == PasskeyRefusal.unknownCredential.message)

            try await Self.addPasskey(&browser, &authenticator)
            #expect(try await browser.post("/settings/delete-account", [("password", "correct horse battery")]).status == .seeOther)
            let left = try await server.database.pool.read { db in
                try ["passkey", "passkey_user", "passkey_challenge"].map { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") ?? -1 }
            }
            #expect(left == [0, 0, 0])
        }
    }
}
