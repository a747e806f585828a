import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// A refused form, as the GOV.UK Design System shows it: "Error: " first in the title, a summary
/// at the top with each problem linking to its field, the field's own message after a hidden
/// "Error:", and what was typed kept (never a password).
@Suite("Refused forms guide: title, error summary, messages by the fields", .removesTemporaryDirectories)
struct ErrorSummaryTests {
    static func summary(_ page: TestResponse) -> [String] {
        page.text.matches(of: /<li><a href="(#[^"]+)">([^<]+)<\/a><\/li>/).map { "\($0.1) \($0.2)" }
    }

    @Test func aRefusedSignInSaysSoInTheTitleAndLinksTheProblemToTheField() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let refused = try await browser.signIn("nobody-here", password: "not a password")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("<title>Error: Sign in · Bestseller Wishlist</title>"))
            #expect(refused.text.contains(#"<h2 class="error-summary-title" id="error-summary-title">There is a problem</h2>"#))
            #expect(Self.summary(refused) == ["#username Wrong username or password."])
            #expect(refused.text.contains(#"value="nobody-here""#), "the name is kept")
            #expect(!refused.text.contains("not a password"), "the password never is")
            let fine = try await browser.get("/login")
            #expect(fine.text.contains("<title>Sign in · Bestseller Wishlist</title>") && !fine.text.contains(#"id="error-summary""#))
        }
    }

    @Test func everyProblemIsListedInTheOrderOfTheFields() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.get("/signup")
            let refused = try await browser.post("/signup", [("username", "x!"), ("email", "nope"), ("password", "short"), ("password_confirm", "other")])
            #expect(Self.summary(refused) == [
                "#username Use 3 to 32 characters.", "#email Enter an e-mail address like name@example.com, or leave it empty.",
                "#password Use at least 8 characters.", "#password_confirm The two passwords differ.",
            ])
            #expect(refused.text.contains(#"<p class="field-error" id="email-error"><span class="visually-hidden">Error: </span>Enter an e-mail address"#))

            try await browser.signUp("guided")
            let book = try await WishlistHTTPTests.fictionIDs(server)[0]
            try await browser.post("/wishlist", [("book", book), ("return_to", "/wishlist")])
            let note = try await browser.post("/wishlist/1", [("note", String(repeating: "n", count: 2001)), ("priority", "urgent")])
            #expect(note.text.contains("<title>Error: "))
            #expect(Self.summary(note) == [
                "#priority-high Choose high, normal or low.",
                "#note Notes can be up to 2,000 characters; this one has 2,001. Shorten it and save again.",
            ])
        }
    }
}
