import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 54: personal API tokens made in Settings, and every way the API refuses a request
/// (RFC 6750's answers, as problem+json).
@Suite("API: tokens and refusals", .removesTemporaryDirectories)
struct APITokensHTTPTests {
    @Test func aTokenIsShownOnceWithItsPrefixAndStoredAsItsHashOnly() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let made = try await maya.post("/settings/api-tokens", [("name", "Home Assistant"), ("scope", "read"), ("expiry", "90")])
            #expect(made.status == .ok)
            let secret = try Self.secret(in: made)
            #expect(secret.hasPrefix("bw_") && secret.count == 46)
            let stored = try await server.database.pool.read { db in try Data.fetchAll(db, sql: "SELECT token_hash FROM api_token") }
            #expect(stored == [SessionStore.fingerprint(secret)], "only the SHA-256 is kept")
            let listed = try await maya.get("/settings/api-tokens")
            #expect(listed.shows("Home Assistant"))
            #expect(!listed.text.contains(secret), "shown only when it is made")
        }
    }

    @Test func withoutATokenTheAnswerIsABareBearerChallenge() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            for headers: HTTPFields in [[:], [.authorization: "Basic bWF5YTpwYXNz"], [.authorization: "Bearer"]] {
                let response = try await maya.client.execute(uri: "/api/v1/wants", method: .get, headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="wishlist""#)
                try Self.expectProblem(response, status: 401)
            }
        }
    }

    @Test func aSessionCookieNeverAuthenticatesTheAPI() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            #expect(try await maya.get("/wishlist").status == .ok, "signed in")
            let response = try await maya.get("/api/v1/wants")
            #expect(response.status == .unauthorized)
            #expect(response.headers[.setCookie] == nil, "the API sets no cookie")
            #expect(try await maya.post("/api/v1/wants", [("book_id", "x")]).status == .unauthorized, "a form with the CSRF token neither")
        }
    }

    @Test func aMalformedUnknownExpiredOrRevokedTokenIsInvalid() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let monthly = try await Self.token(&maya, scope: "read", expiry: "30")
            let revoked = try await Self.token(&maya, scope: "read", expiry: "never")
            #expect(try await Self.api(maya, "/api/v1/wants", monthly).status == .ok)
            #expect(try await Self.api(maya, "/api/v1/wants", revoked).status == .ok)
            let tokenID = try await server.database.pool.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM api_token WHERE token_hash = ?", arguments: [SessionStore.fingerprint(revoked)])!
            }
            let revoking = try await maya.post("/settings/api-tokens/\(tokenID)/delete", [])
            #expect(revoking.status == .seeOther)
            time.advance(by: 30 * 86_400 + 1)
            let unknown = "bw_" + String(repeating: "A", count: 43)
            for token in [monthly, revoked, unknown, "not-a-token", String(monthly.dropLast()), monthly + "x"] {
                let response = try await Self.api(maya, "/api/v1/wants", token)
                #expect(response.status == .unauthorized, "\(token.prefix(6))")
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="wishlist", error="invalid_token""#)
                try Self.expectProblem(response, status: 401)
            }
        }
    }

    @Test func aReadTokenMayNotWriteAndAReadWriteTokenMay() async throws {
        let server = try await TestApp.build()
        let book = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1[0].book
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let reader = try await Self.token(&maya, scope: "read")
            let writer = try await Self.token(&maya, scope: "read-write")
            let body = #"{"book_id": "\#(book.id)"}"#
            let refused = try await Self.api(maya, "/api/v1/wants", reader, method: .post, json: body)
            #expect(refused.status == .forbidden)
            #expect(refused.headers[.wwwAuthenticate] == #"Bearer realm="wishlist", error="insufficient_scope", scope="read-write""#)
            try Self.expectProblem(refused, status: 403)
            #expect(try await server.accounts.apiTokens.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") } == 0)
            let added = try await Self.api(maya, "/api/v1/wants", writer, method: .post, json: body)
            #expect(added.status == .created)
            #expect(added.headers[.location]?.hasPrefix("/api/v1/wants/") == true)
            #expect(try await maya.get("/wishlist").shows(book.title), "on her wishlist page too")
            let location = try #require(added.headers[.location])
            #expect(try await Self.api(maya, location, reader, method: .delete).status == .forbidden)
            #expect(try await Self.api(maya, location, writer, method: .delete).status == .noContent)
        }
    }

    @Test func aDisabledAccountsTokensStopAtOnce() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let token = try await Self.token(&maya, scope: "read")
            #expect(try await Self.api(maya, "/api/v1/wants", token).status == .ok)
            let mayaID = try await AdminHTTPTests.userID("maya", server)
            try await DisabledAccountTests.setDisabled(true, mayaID, server)
            #expect(try await Self.api(maya, "/api/v1/wants", token).status == .unauthorized)
            try await DisabledAccountTests.setDisabled(false, mayaID, server)
            #expect(try await Self.api(maya, "/api/v1/wants", token).status == .ok)
        }
    }

    @Test func anotherMembersWantIsAsUnknownAsOneThatNeverWas() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            let token = try await Self.token(&ana, scope: "read-write")
            let mayas = home.itemIDs[0]
            let missing = try await Self.api(ana, "/api/v1/wants/999999", token)
            #expect(missing.status == .notFound)
            try Self.expectProblem(missing, status: 404)
            for method: HTTPRequest.Method in [.get, .patch, .delete] {
                let response = try await Self.api(ana, "/api/v1/wants/\(mayas)", token, method: method, json: method == .patch ? #"{"note": "mine"}"# : nil)
                #expect(response.status == .notFound && response.body == missing.body, "\(method)")
            }
            #expect(try await home.itemCount(owner: "maya") == 3)
            #expect(try await maya.get("/wishlist/\(mayas)").status == .ok)
        }
    }

    @Test func eachTokenHasItsRateAndA429SaysWhenToComeBack() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock) { $0.api.requestsPerMinute = 3 }
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let first = try await Self.token(&maya, scope: "read")
            let second = try await Self.token(&maya, scope: "read")
            for _ in 1...3 { #expect(try await Self.api(maya, "/api/v1/wants", first).status == .ok) }
            time.advance(by: 20)
            let refused = try await Self.api(maya, "/api/v1/wants", first)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "40")
            try Self.expectProblem(refused, status: 429)
            #expect(try await Self.api(maya, "/api/v1/wants", second).status == .ok, "another token has its own")
            time.advance(by: 40)
            #expect(try await Self.api(maya, "/api/v1/wants", first).status == .ok, "a new minute")
        }
    }

    @Test func makingTokensIsThrottled() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            for _ in 1...10 { _ = try await Self.token(&maya, scope: "read") }
            let refused = try await maya.post("/settings/api-tokens", [("name", "Eleventh"), ("scope", "read"), ("expiry", "30")])
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] != nil)
            #expect(!refused.text.contains("bw_"))
        }
    }

    @Test func aBadTokenFormIsRefusedBesideItsFields() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let refused = try await maya.post("/settings/api-tokens", [("name", " "), ("scope", "admin"), ("expiry", "7")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("Give the token a name"))
            #expect(refused.shows("Choose what the token may do"))
            #expect(refused.shows("Choose when the token stops working"))
            #expect(try await server.accounts.apiTokens.tokens(userID: AdminHTTPTests.userID("maya", server)).isEmpty)
        }
    }

    @Test func lastUseIsRecordedAtMostOnceAMinuteAndTheSecretNeverReachesTheLog() async throws {
        let time = ManualClock()
        let log = LogCapture()
        let server = try await WishlistServer.build(config: try TestApp.config(), logger: log.logger, clock: time.clock)
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let token = try await Self.token(&maya, scope: "read")
            let mayaID = try await AdminHTTPTests.userID("maya", server)
            #expect(try await server.accounts.apiTokens.tokens(userID: mayaID)[0].lastUsedAt == nil)
            #expect(try await Self.api(maya, "/api/v1/wants", token).status == .ok)
            await server.accounts.apiTokens.lastUsesWritten()
            let used = try await server.accounts.apiTokens.tokens(userID: mayaID)[0]
            #expect(used.lastUsedAt == time.clock.now())
            #expect(used.lastUsedFrom != nil)
            time.advance(by: 30)
            #expect(try await Self.api(maya, "/api/v1/wants", token).status == .ok)
            await server.accounts.apiTokens.lastUsesWritten()
            #expect(try await server.accounts.apiTokens.tokens(userID: mayaID)[0].lastUsedAt == used.lastUsedAt, "not written again within the minute")
            time.advance(by: 30)
            #expect(try await Self.api(maya, "/api/v1/wants", token).status == .ok)
            await server.accounts.apiTokens.lastUsesWritten()
            #expect(try await server.accounts.apiTokens.tokens(userID: mayaID)[0].lastUsedAt == time.clock.now())
            #expect(try await maya.get("/settings/api-tokens").shows("Last used"))
            #expect(try await Self.api(maya, "/api/v1/nothing-here", token).status == .notFound)
        }
        let secretLines = log.all.filter { $0.contains("bw_") }
        #expect(secretLines.isEmpty, "\(secretLines)")
    }

    // MARK: Helpers

    /// A token made through the settings form.
    static func token(_ browser: inout TestBrowser, scope: String, expiry: String = "never") async throws -> String {
        let made = try await browser.post("/settings/api-tokens", [("name", "Script"), ("scope", scope), ("expiry", expiry)])
        #expect(made.status == .ok)
        return try secret(in: made)
    }

    static func secret(in response: TestResponse) throws -> String {
        let match = try #require(response.text.firstMatch(of: /id="api-token-secret"[^>]* value="(bw_[A-Za-z0-9_-]+)"/))
        return String(match.1)
    }

    /// A request as a script sends it: the bearer token and no cookie.
    static func api(
        _ browser: TestBrowser, _ path: String, _ token: String, method: HTTPRequest.Method = .get, json: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        headers[.authorization] = "Bearer " + token
        if json != nil { headers[.contentType] = "application/json" }
        return try await browser.client.execute(uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    /// An RFC 9457 problem with `status`.
    static func expectProblem(_ response: TestResponse, status: Int) throws {
        #expect(response.headers[.contentType] == "application/problem+json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        #expect(object["status"] as? Int == status)
        #expect(object["type"] as? String == "about:blank")
        #expect((object["title"] as? String)?.isEmpty == false)
        #expect((object["detail"] as? String)?.isEmpty == false)
    }
}
