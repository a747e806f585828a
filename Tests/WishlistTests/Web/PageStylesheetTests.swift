import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistWeb

@Suite("The stylesheet inline in a first visit's pages, linked once the browser holds it, and the policy that allows exactly that", .removesTemporaryDirectories)
struct PageStylesheetTests {
    @Test("comments go, whitespace collapses, quoted strings stay as they are")
    func minify() {
        let css = """
        /* a comment with "quotes" and an apostrophe's */
        .a ,
        .b > .c {
          content: "x  /* not a comment */  y";
          margin: 0 auto ; /* after */
        }
        .d::after { content: '\\'  ' }
        """
        #expect(PageStylesheet.minify(css) == #".a,.b > .c{content: "x  /* not a comment */  y";margin: 0 auto;}.d::after{content: '\'  '}"#)
    }

    @Test("a stylesheet that could end its own element is not inlined")
    func refusesEndTag() {
        #expect(PageStylesheet(css: ".a { content: \"</style>\" }") == nil)
        #expect(PageStylesheet(css: ".a { color: red }") != nil)
    }

    /// Pages of each kind: signed out, an error page, a page rendered once for many (the list), and
    /// one rendered per request (Settings).
    static let pages = ["/login", "/no-such-page", "/lists/hardcover-fiction", "/wishlist", "/settings"]

    @Test("without the cookie, every page's <style> hashes to the policy's one style source, and the page prefetches the file; no 'unsafe-inline'", arguments: pages)
    func policyAllowsThePagesStyle(path: String) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            if path != "/login" { try await browser.signUp("reader") }
            let page = try await browser.get(path)
            let styles = page.text.matches(of: /<style>([^<]*)<\/style>/).map { String($0.1) }
            #expect(styles.count == 1, "one <style> element")
            let text = try #require(styles.first)
            #expect(!text.contains("/*") && text.contains("--color-accent"), "the minified stylesheet")
            let hash = Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("style-src 'self' 'sha256-\(hash)';"), "\(policy)")
            #expect(!policy.contains("unsafe-inline"))
            #expect(!page.text.contains(#"rel="stylesheet""#), "no render-blocking stylesheet request")
            let prefetched = try #require(Self.prefetchedSheet(page), "the file prefetched, for the next page")
            #expect(prefetched == "/static/style.css?v=" + StaticFiles.contentHash(Data(text.utf8)), "the same text, at its hash")
        }
    }

    @Test("with the cookie of the current sheet, a page links the file at its hash instead, and its policy allows no inline style", arguments: pages)
    func aBrowserThatHoldsTheSheetGetsItLinked(path: String) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            if path != "/login" { try await browser.signUp("reader") }
            let first = try await browser.get(path)
            let url = try #require(Self.prefetchedSheet(first))
            let sheet = try await browser.get(url)
            let cookie = try #require(sheet.headers[values: .setCookie].first { $0.hasPrefix(PageStylesheet.cookieName + "=") })
            let hash = String(cookie.dropFirst(PageStylesheet.cookieName.count + 1).prefix { $0 != ";" })

            let page = try await browser.get(path, headers: Self.cookies(browser, stylesheet: hash))
            #expect(page.status == first.status)
            #expect(!page.text.contains("<style"), "no inline sheet")
            #expect(page.text.contains(#"<link rel="stylesheet" href="\#(url)">"#), "the file the browser holds")
            #expect(Self.prefetchedSheet(page) == nil)
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy == SecurityHeadersMiddleware<AppRequestContext>.contentSecurityPolicy(inlineStyle: nil))
            #expect(policy.contains("style-src 'self';") && !policy.contains("sha256") && !policy.contains("unsafe-inline"), "\(policy)")
            #expect(page.headers[values: .contentSecurityPolicy].count == 1)
        }
    }

    @Test("a cookie naming another sheet (an older one, or nonsense) gets the sheet inline: a page is never left unstyled", arguments: [
        "0123456789abcdef", "", "not a hash",
    ])
    func aStaleCookieGetsTheSheetInline(held: String) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            for path in ["/lists/hardcover-fiction", "/settings"] {
                let page = try await browser.get(path, headers: Self.cookies(browser, stylesheet: held))
                #expect(page.text.contains("<style>:root{"), "\(path): the sheet inline")
                #expect(!page.text.contains(#"rel="stylesheet""#))
                #expect(try #require(page.headers[.contentSecurityPolicy]).contains("'sha256-"))
            }
        }
    }

    @Test("the file at its hash: the pages' minified text, as CSS, cached for a year, and the cookie naming it; any other URL sets none")
    func theSheetAtItsHashSetsTheCookie() async throws {
        let css = try String(contentsOf: repositoryRoot.appendingPathComponent("Public/style.css"), encoding: .utf8)
        let minified = PageStylesheet.minify(css)
        let hash = StaticFiles.contentHash(Data(minified.utf8))
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let sheet = try await browser.get("/static/style.css?v=\(hash)")
            #expect(sheet.status == .ok)
            #expect(sheet.headers[.contentType] == "text/css; charset=utf-8")
            #expect(sheet.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(sheet.text == minified)
            let cookie = try #require(sheet.headers[.setCookie])
            let attributes = Set(cookie.components(separatedBy: "; "))
            #expect(attributes.isSuperset(of: ["\(PageStylesheet.cookieName)=\(hash)", "Max-Age=31536000", "Path=/", "HttpOnly", "SameSite=Lax"]), "\(cookie)")
            #expect(!attributes.contains("Secure"), "over plain HTTP")
            let gzipped = try await browser.get("/static/style.css?v=\(hash)", headers: [.acceptEncoding: "gzip"])
            #expect(Set((gzipped.headers[.setCookie] ?? "").components(separatedBy: "; ")) == attributes, "whichever representation")
            for other in ["/static/style.css", "/static/style.css?v=0123456789abcdef", "/static/favicon.svg?v=\(hash)"] {
                #expect(try await browser.get(other).headers[.setCookie] == nil, "\(other)")
            }
        }
        let behindHTTPS = try await TestApp.build { $0.server.secureCookies = true }
        try await TestApp.run(behindHTTPS) { browser in
            let cookie = try await browser.get("/static/style.css?v=\(hash)").headers[.setCookie] ?? ""
            #expect(cookie.components(separatedBy: "; ").contains("Secure"), "\(cookie)")
        }
    }

    /// The URL a page prefetches the sheet from, if it does.
    static func prefetchedSheet(_ page: TestResponse) -> String? {
        page.text.firstMatch(of: /<link rel="prefetch" href="([^"]+)">/).map { String($0.1) }
    }

    /// The browser's session cookie and the stylesheet's, as a browser that fetched the sheet sends them.
    static func cookies(_ browser: TestBrowser, stylesheet: String) -> HTTPFields {
        [.cookie: (browser.sessionCookie.map { "\(browser.cookieName)=\($0); " } ?? "") + "\(PageStylesheet.cookieName)=\(stylesheet)"]
    }

    @Test("a gzipped page carries the stylesheet as deflated once when the server started, not compressed again")
    func gzippedPagesReuseTheDeflatedStylesheet() async throws {
        let css = try String(contentsOf: repositoryRoot.appendingPathComponent("Public/style.css"), encoding: .utf8)
        let deflated = try #require(PageStylesheet(css: css)?.deflated?.deflated)
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let page = try await browser.get("/login", headers: CompressionTests.ownNavigation)
            #expect(page.headers[.contentEncoding] == "gzip")
            #expect(Array(page.body.readableBytesView).firstRange(of: deflated) != nil)
            #expect(String(buffer: try #require(Gzip.decompress(page.body))).contains("<style>:root{"))
        }
    }
}
