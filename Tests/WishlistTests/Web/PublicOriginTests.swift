import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 27: share, feed, reset and invite links were built from the request's `Host`, so a forged
/// header made a link to another site. Every absolute link starts with `server.publicURL`.
@Suite("Links: built from server.publicURL, never the request's Host", .removesTemporaryDirectories)
struct PublicOriginTests {
    static let forged: HTTPFields = [HTTPField.Name("Host")!: "evil.example", HTTPField.Name("X-Forwarded-Host")!: "evil.example"]

    @Test func shareAndFeedLinksUseThePublicURL() async throws {
        let server = try await TestApp.build { $0.server.publicURL = "https://books.example:8443/" }
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            let share = try await browser.post("/settings/share-link", [], headers: Self.forged)
            #expect(share.text.contains(#"value="https://books.example:8443/shared/"#))
            let feed = try await browser.post("/settings/feed-link", [], headers: Self.forged)
            #expect(feed.text.contains(#"value="https://books.example:8443/feeds/"#))
            #expect(!share.text.contains("evil.example") && !feed.text.contains("evil.example"))
            let path = try #require(feed.text.firstMatch(of: /value="https:\/\/books\.example:8443(\/feeds\/[A-Za-z0-9_-]{43}\/favorites\.atom)"/)?.1)
            var reader = TestBrowser(client: browser.client)
            let atom = try await reader.get(String(path), headers: Self.forged)
            #expect(atom.text.contains("https://books.example:8443/"))
            #expect(!atom.text.contains("evil.example"))
        }
    }

    @Test func resetAndInviteLinksUseThePublicURL() async throws {
        try await AdminHTTPTests.withAdmin({ $0.server.publicURL = "https://books.example" }) { server, root, _ in
            let bobID = try await AdminHTTPTests.userID("bob", server)
            let reset = try await root.post("/admin/users/\(bobID)/reset-link", [], headers: Self.forged)
            #expect(reset.text.contains("https://books.example/reset/"))
            let invite = try await root.post("/admin/invites", [], headers: Self.forged)
            #expect(invite.text.contains("https://books.example/signup?invite="))
            #expect(!reset.text.contains("evil.example") && !invite.text.contains("evil.example"))
        }
    }
}
