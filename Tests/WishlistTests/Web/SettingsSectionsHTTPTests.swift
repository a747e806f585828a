import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Settings in sections (issue 36): `/settings` lists the pages, each section page holds only its
/// own forms, each form returns to its section at the confirmation, and a refused form is its
/// section again with a 4xx.
@Suite("Settings in sections over HTTP", .removesTemporaryDirectories)
struct SettingsSectionsHTTPTests {
    /// Each section page and the forms it alone holds (their `action`s).
    static let sections: [(path: String, actions: [String])] = [
        ("/settings/lists", ["/settings/default-list", "/settings/feed-link"]),
        ("/settings/sharing", ["/settings/sharing", "/settings/share-link"]),
        ("/settings/email", ["/settings/email", "/settings/digest"]),
        ("/settings/password", ["/settings/password"]),
        ("/settings/sign-in", ["/settings/sessions/sign-out-others"]),
        ("/settings/data", ["/settings/export", "/settings/delete-account"]),
    ]

    @Test func settingsListsEverySectionAndHoldsNoForms() async throws {
        let server = try await MailHTTPTests.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya", email: "maya@example.com")
            let page = try await browser.get("/settings")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"<nav class="settings-nav settings-nav-full" id="settings-nav" aria-label="Settings">"#))
            for path in ["/settings/profile"] + Self.sections.map(\.path) {
                #expect(page.text.contains(#"<a href="\#(path)">"#), "\(path) is not in the section list")
            }
            #expect(!page.text.contains(#"action="/settings/"#), "no section's form on /settings")
        }
    }

    @Test func eachSectionPageHoldsItsFormsOnlyAndMarksItselfInTheList() async throws {
        let server = try await MailHTTPTests.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya", email: "maya@example.com")
            // A second browser, so that "Sign out everywhere else" shows.
            var other = TestBrowser(client: browser.client)
            try await other.signIn("maya")
            for (path, actions) in Self.sections {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path) answered \(page.status)")
                #expect(page.text.contains(#"aria-label="Settings">"#))
                #expect(page.text.contains(#"<a href="\#(path)" aria-current="page">"#), "\(path) is not marked current")
                #expect(page.text.matches(of: /aria-current="page">/).count == 2, "\(path): the header's Settings and its own entry only")
                for action in actions { #expect(page.text.contains(#"action="\#(action)""#), "\(path) lacks the form \(action)") }
                let others = Self.sections.filter { $0.path != path }.flatMap(\.actions)
                for action in others { #expect(!page.text.contains(#"action="\#(action)""#), "\(path) holds \(action) too") }
            }
        }
    }

    @Test("each form returns to its section, at the confirmation", arguments: [
        ("/settings/default-list", [("list", "hardcover-fiction")], "/settings/lists?done=start-page#flash"),
        ("/settings/sharing", [("sharing", "household")], "/settings/sharing?done=sharing-household#flash"),
        ("/settings/share-link/delete", [], "/settings/sharing?done=share-link-revoked#flash"),
        ("/settings/feed-link/delete", [], "/settings/lists?done=feed-link-revoked#flash"),
        ("/settings/email", [("email", "maya@books.example")], "/settings/email?done=email-changed#flash"),
        ("/settings/email/verify", [], "/settings/email?done=email-sent#flash"),
        ("/settings/digest", [("digest", "")], "/settings/email?done=digest-off#flash"),
        ("/settings/sessions/sign-out-others", [], "/settings/sign-in?done=signed-out-others#flash"),
        (
            "/settings/password",
            [("current_password", "correct horse battery"), ("new_password", "a new password"), ("new_password_confirm", "a new password")],
            "/settings/password?done=password#flash"
        ),
    ])
    func eachFormReturnsToItsSection(path: String, fields: [(String, String)], location: String) async throws {
        let server = try await MailHTTPTests.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya", email: "maya@example.com")
            let answer = try await browser.post(path, fields)
            #expect(answer.status == .seeOther)
            #expect(answer.location == location)
            let page = try await browser.get(String(location.prefix { $0 != "#" }))
            #expect(page.text.contains(#"id="flash""#), "the section page shows the confirmation")
        }
    }

    @Test("a refused form is its own section page again, with a 4xx", arguments: [
        ("/settings/default-list", [("list", "no-such-list")], HTTPResponse.Status.badRequest, "Lists and feed"),
        ("/settings/sharing", [("sharing", "everyone")], .badRequest, "Sharing"),
        ("/settings/email", [("email", "not an address")], .unprocessableContent, "E-mail"),
        ("/settings/digest", [("digest", "daily")], .badRequest, "E-mail"),
        (
            "/settings/password", [("current_password", "wrong"), ("new_password", "a new password"), ("new_password_confirm", "a new password")],
            .unprocessableContent, "Password"
        ),
        ("/settings/delete-account", [("password", "wrong")], .unprocessableContent, "Your data"),
    ])
    func aRefusedFormStaysOnItsSection(path: String, fields: [(String, String)], status: HTTPResponse.Status, heading: String) async throws {
        let server = try await MailHTTPTests.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya", email: "maya@example.com")
            let answer = try await browser.post(path, fields)
            #expect(answer.status == status)
            #expect(answer.text.contains(#"<h1 id="page-title">\#(heading)</h1>"#), "\(path) answered another page")
            #expect(answer.text.contains(#"id="error-summary""#), "the problem is listed at the top")
        }
    }
}
