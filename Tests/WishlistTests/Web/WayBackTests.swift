import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
import WishlistLanguages
@testable import WishlistWeb

/// Every error page names the way back to where the person was (issue 36), and never links off
/// this site or repeats the address typed.
@Suite("Error pages' way back", .removesTemporaryDirectories)
struct WayBackTests {
    @Test("the way back is chosen from the method and path", arguments: [
        ("GET", "/books/no-such-book", 404, "/lists", "Back to the lists"),
        ("GET", "/lists/no-such-list", 404, "/lists", "Back to the lists"),
        ("GET", "/people/nobody", 404, "/people", "Back to People"),
        ("GET", "/people/nobody/ideas", 404, "/people", "Back to People"),
        ("POST", "/people/maya/ideas/9/reserve", 404, "/people", "Back to People"),
        ("POST", "/people/maya/ideas", 403, "/people/maya/ideas", "Back to the gift ideas"),
        ("POST", "/people/maya/ideas/9/reserve", 409, "/people/maya/ideas", "Back to the gift ideas"),
        ("POST", "/books/abc-123/reading", 403, "/books/abc-123", "Back to the book"),
        ("POST", "/lists/hardcover-fiction/favorite", 400, "/lists/hardcover-fiction", "Back to the list"),
        ("POST", "/settings/password", 403, "/settings/password", "Back to Password"),
        ("POST", "/settings/passkeys/3/remove", 429, "/settings/sign-in", "Back to Passkeys and sign-in"),
        ("POST", "/settings/feed-link", 403, "/settings/lists", "Back to Lists and feed"),
        ("POST", "/settings/share-link", 403, "/settings/sharing", "Back to Sharing"),
        ("POST", "/settings/profile/picture", 413, "/settings/profile", "Back to your profile"),
        ("GET", "/settings/nothing-here", 404, "/settings", "Back to Settings"),
        ("POST", "/wishlist/12", 400, "/wishlist", "Back to your wishlist"),
        ("GET", "/wishlist/received/9", 404, "/wishlist/received", "Back to the books you received"),
        ("POST", "/login", 429, "/login", "Back to sign-in"),
        ("GET", "/no-such-page", 404, "/", "Back to the best-seller lists"),
    ])
    func chosenFromThePath(method: String, path: String, status: Int, back: String, label: String) {
        let wayBack = WayBack.from(method: HTTPRequest.Method(method)!, path: path, status: HTTPResponse.Status(code: status))
        #expect(wayBack.path == back && wayBack.label(in: Translations()) == label)
    }

    @Test("a part that is not plain is never put back into the link", arguments: [
        ("/books/%22%3E%3Cscript%3E/reading", "/lists"),
        ("/people/..%2F..%2Fevil/ideas", "/people"),
        ("/people/../ideas", "/people"),
        ("/lists/" + String(repeating: "x", count: 101) + "/favorite", "/lists"),
        ("//evil.example/x", "/"),
        ("/\\evil.example", "/"),
    ])
    func unplainPartsLeadToTheSection(path: String, back: String) {
        #expect(WayBack.from(method: .post, path: path, status: .forbidden).path == back)
    }

    @Test func errorPagesLinkTheWayBackAndNeverEchoThePath() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let book = try await ana.get("/books/no-such-book")
            #expect(book.status == .notFound)
            #expect(book.text.contains(#"<a class="button" id="error-back" href="/lists">Back to the lists</a>"#))

            let member = try await ana.get("/people/maya")
            #expect(member.status == .notFound, "Maya does not share")
            #expect(member.text.contains(#"<a class="button" id="error-back" href="/people">Back to People</a>"#))

            let expired = try await ana.post("/people/maya/ideas", [("book", "x"), ("csrf_token", "forged")])
            #expect(expired.status == .forbidden)
            #expect(expired.text.contains(#"<a class="button" id="error-back" href="/people/maya/ideas">Back to the gift ideas</a>"#))

            let form = try await ana.post("/settings/default-list", [("csrf_token", "forged")])
            #expect(form.status == .forbidden)
            #expect(form.text.contains(#"id="error-back" href="/settings/lists">Back to Lists and feed</a>"#))

            let hostile = try await ana.get("/people/%3Cimg%20src=x%3E")
            #expect(hostile.status == .notFound)
            #expect(!hostile.text.contains("<img src=x") && !hostile.text.contains("img%20src"), "the path is not repeated")
            #expect(hostile.text.contains(#"id="error-back" href="/people">"#))
        }
    }
}
