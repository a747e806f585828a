import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Web shell: headers, errors, limits, static files", .removesTemporaryDirectories)
struct WebShellTests {
    /// The hash of the stylesheet the pages carry inline, the one inline style the policy allows.
    static let inlineStyleHash: String = {
        let css = (try? String(contentsOf: repositoryRoot.appendingPathComponent("Public/style.css"), encoding: .utf8)) ?? ""
        return PageStylesheet(css: css)?.policySource ?? "no stylesheet"
    }()

    static let securityHeaders: [(HTTPField.Name, String)] = [
        (.contentSecurityPolicy, "default-src 'self'; img-src 'self' data:; style-src 'self' \(inlineStyleHash); object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
        (.xContentTypeOptions, "nosniff"),
        (HTTPField.Name("Referrer-Policy")!, "same-origin"),
        (HTTPField.Name("Cross-Origin-Opener-Policy")!, "same-origin"),
    ]

    @Test("every kind of response carries the security headers", arguments: ["/login", "/no-such-page", "/static/style.css", "/healthz", "/settings"])
    func securityHeaders(path: String) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let response = try await browser.get(path)
            for (name, value) in Self.securityHeaders {
                #expect(response.headers[name] == value, "\(name) on \(path)")
            }
        }
    }

    @Test("behind HTTPS every kind of response asks browsers to keep to HTTPS; over plain HTTP none does", arguments: [
        "/login", "/no-such-page", "/static/style.css", "/healthz",
    ])
    func strictTransportSecurity(path: String) async throws {
        let behindHTTPS = try await TestApp.build { $0.server.secureCookies = true }
        try await TestApp.run(behindHTTPS) { browser in
            browser.cookieName = "__Host-wishlist_session"
            let response = try await browser.get(path)
            #expect(response.headers[.strictTransportSecurity] == "max-age=63072000")
        }
        let plain = try await TestApp.build()
        try await TestApp.run(plain) { browser in
            let response = try await browser.get(path)
            #expect(response.headers[.strictTransportSecurity] == nil)
        }
    }

    @Test func unknownPathGetsTheStyledNotFoundPage() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let response = try await browser.get("/no-such-page")
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.shows("Page not found"))
            #expect(response.text.contains("<style>:root{"), "the stylesheet, inline")
            #expect(response.text.contains("https://developer.nytimes.com"))
        }
    }

    @Test func oversizedFormIsRefusedWith413() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.get("/login")
            let padding = String(repeating: "a", count: 100 * 1024)
            let response = try await browser.post("/login", [("username", padding), ("password", "x")])
            #expect(response.status == .contentTooLarge)
            #expect(response.shows("too much to send"))
        }
    }

    @Test func healthCheckAnswersOkWhenTheDatabaseDoes() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let response = try await browser.get("/healthz")
            #expect(response.status == .ok)
            #expect(response.text == "ok\n")
        }
    }

    @Test func stylesheetIsServedFromStatic() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let response = try await browser.get("/static/style.css")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/css") == true)
            #expect(response.headers[.setCookie] == nil, "static files set no cookie")
        }
    }

    @Test func signedOutHomeRedirectsToSignIn() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let response = try await browser.get("/")
            #expect(response.status == .seeOther)
            #expect(response.location == "/login")
        }
    }

    @Test func pagesAreNotCached() async throws {
        let server = try await TestApp.build()
        let cacheControl = try await TestApp.run(server) { browser in try await browser.get("/login").headers[.cacheControl] }
        #expect(cacheControl == "no-store")
    }

    @Test("malformed form bodies get a 400 page, not a 500", arguments: [
        ("username=%FF%FE&password=x", "valid UTF-8"),
        ("username=a%00b&password=x", "control characters"),
        ("username=a&username=b", "more than once"),
        ("username=%4", "broken %-escape"),
    ])
    func malformedForms(body: String, expected: String) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.get("/login")
            let response = try await browser.send(
                "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: body + "&csrf_token=" + browser.csrfToken)
            )
            #expect(response.status == .badRequest)
            #expect(response.shows(expected))
        }
    }
}
