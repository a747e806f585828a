import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 54, part 2: what the account's other pages do with its API tokens: a password reset
/// offers to revoke them (ticked at first), and the admin sees how many each member has.
@Suite("API: tokens and the account", .removesTemporaryDirectories)
struct APITokensAndTheAccountHTTPTests {
    static let newPassword = [("new_password", "a brand new password"), ("new_password_confirm", "a brand new password")]

    @Test func aPasswordResetRevokesTheTokensWhenTickedAndKeepsThemWhenNot() async throws {
        try await AdminHTTPTests.withAdmin { server, root, bob in
            let bobID = try await AdminHTTPTests.userID("bob", server)
            let token = try await APITokensHTTPTests.token(&bob, scope: "read")
            var stranger = TestBrowser(client: root.client)

            let kept = try AdminHTTPTests.newLink(in: try await root.post("/admin/users/\(bobID)/reset-link", []))
            let form = try await stranger.get(kept)
            #expect(form.text.contains(#"name="revoke_tokens" value="yes" aria-describedby="revoke_tokens-hint" checked>"#), "ticked at first")
            #expect(form.shows("Sign out my API tokens too"))
            let mismatched = try await stranger.post(kept, [("new_password", "a brand new password"), ("new_password_confirm", "another one")])
            #expect(mismatched.status == .unprocessableContent)
            #expect(mismatched.text.contains(#"aria-describedby="revoke_tokens-hint">"#), "her untick is kept when the form comes back")
            #expect(try await stranger.post(kept, Self.newPassword).status == .seeOther)
            #expect(try await APITokensHTTPTests.api(bob, "/api/v1/wants", token).status == .ok, "unticked, the token keeps working")

            let revoking = try AdminHTTPTests.newLink(in: try await root.post("/admin/users/\(bobID)/reset-link", []))
            #expect(try await stranger.post(revoking, Self.newPassword + [("revoke_tokens", "yes")]).status == .seeOther)
            let refused = try await APITokensHTTPTests.api(bob, "/api/v1/wants", token)
            #expect(refused.status == .unauthorized, "ticked, it stops at once")
            try APITokensHTTPTests.expectProblem(refused, status: 401)
            #expect(try await server.accounts.apiTokens.tokens(userID: bobID).isEmpty)
            #expect(try await root.get("/admin").text.contains("revoked the API tokens with the reset"), "in the audit log")

            let none = try AdminHTTPTests.newLink(in: try await root.post("/admin/users/\(bobID)/reset-link", []))
            #expect(!(try await stranger.get(none)).text.contains("revoke_tokens"), "no tokens, nothing to offer")
        }
    }

    @Test func theAdminSeesHowManyTokensEachMemberHasButNeverTheirNamesOrSecrets() async throws {
        try await AdminHTTPTests.withAdmin { server, root, bob in
            let before = try await root.get("/admin")
            #expect(before.text.contains(#"<th scope="col">API tokens</th>"#))
            #expect(Self.tokenCell(before, "bob") == "0")
            let first = try await bob.post("/settings/api-tokens", [("name", "Kitchen tablet"), ("scope", "read"), ("expiry", "30")])
            let secret = try APITokensHTTPTests.secret(in: first)
            _ = try await APITokensHTTPTests.token(&bob, scope: "read-write")
            let page = try await root.get("/admin")
            #expect(Self.tokenCell(page, "bob") == "2")
            #expect(Self.tokenCell(page, "root") == "0")
            #expect(!page.shows("Kitchen tablet") && !page.text.contains(secret) && !page.text.contains("bw_"))
        }
    }

    /// The API tokens cell of the member's row on /admin.
    static func tokenCell(_ page: TestResponse, _ username: String) -> String? {
        let rows = page.text.split(separator: "<tr data-user=")
        guard let row = rows.first(where: { $0.hasPrefix("\"\(username)\"") }) else { return nil }
        return row.firstMatch(of: /<td class="api-tokens">(\d+)<\/td>/).map { String($0.1) }
    }
}
