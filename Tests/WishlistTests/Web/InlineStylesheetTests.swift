import Crypto
import Foundation
import HTTPTypes
import NIOCore
import Testing
@testable import WishlistWeb

@Suite("The stylesheet inline in every page, and the policy that allows exactly it", .removesTemporaryDirectories)
struct InlineStylesheetTests {
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
        #expect(InlineStylesheet.minify(css) == #".a,.b > .c{content: "x  /* not a comment */  y";margin: 0 auto;}.d::after{content: '\'  '}"#)
    }

    @Test("a stylesheet that could end its own element is not inlined")
    func refusesEndTag() {
        #expect(InlineStylesheet(css: ".a { content: \"</style>\" }") == nil)
        #expect(InlineStylesheet(css: ".a { color: red }") != nil)
    }

    @Test("every page's <style> hashes to the policy's one style source; no 'unsafe-inline'", arguments: ["/login", "/no-such-page", "/lists/hardcover-fiction", "/wishlist"])
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
        }
    }

    @Test("a gzipped page carries the stylesheet as deflated once when the server started, not compressed again")
    func gzippedPagesReuseTheDeflatedStylesheet() async throws {
        let css = try String(contentsOf: repositoryRoot.appendingPathComponent("Public/style.css"), encoding: .utf8)
        let deflated = try #require(InlineStylesheet(css: css)?.deflated?.deflated)
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let page = try await browser.get("/login", headers: CompressionTests.ownNavigation)
            #expect(page.headers[.contentEncoding] == "gzip")
            #expect(Array(page.body.readableBytesView).firstRange(of: deflated) != nil)
            #expect(String(buffer: try #require(Gzip.decompress(page.body))).contains("<style>:root{"))
        }
    }
}
