import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Compression, versioned static files and the web app manifest", .removesTemporaryDirectories)
struct CompressionTests {
    /// What Chromium sends navigating within the site.
    static let ownNavigation: HTTPFields = [.acceptEncoding: "gzip, deflate, br, zstd", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]

    /// A file of `Public/` as `/static/` serves it: the stylesheet as the pages carry it, minified.
    static func served(_ name: String) throws -> Data {
        let file = try Data(contentsOf: repositoryRoot.appendingPathComponent("Public/\(name)"))
        return name == PageStylesheet.fileName ? Data(PageStylesheet.minify(String(decoding: file, as: UTF8.self)).utf8) : file
    }

    static func unzip(_ response: TestResponse) throws -> String {
        #expect(response.headers[.contentEncoding] == "gzip")
        #expect(response.headers[.contentLength] == String(response.body.readableBytes), "the length is the compressed body's")
        return String(buffer: try #require(Gzip.decompress(response.body), "a valid gzip body"))
    }

    @Test("the list page, a book page and the wishlist arrive gzipped, and unpack to the page sent uncompressed")
    func pagesAreGzipped() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            #expect(try await browser.post("/wishlist", [("book", "DBKSMPL004417"), ("return_to", "/wishlist")]).status == .seeOther)
            for path in ["/lists/hardcover-fiction", "/books/DBKSMPL004417", "/wishlist", "/lists"] {
                _ = try await browser.get(path)  // a confirmation shows once
                let plain = try await browser.get(path)
                #expect(plain.status == .ok)
                #expect(plain.headers[.contentEncoding] == nil, "no Accept-Encoding, no compression: \(path)")
                // She chose no language in Settings, so her pages follow her browser's and say so.
                #expect(plain.headers[.vary] == "Accept-Language, Accept-Encoding")
                let gzipped = try await browser.get(path, headers: Self.ownNavigation)
                #expect(gzipped.headers[.vary] == "Accept-Language, Accept-Encoding")
                #expect(try Self.unzip(gzipped) == plain.text, "\(path)")
                #expect(gzipped.body.readableBytes * 100 / plain.body.readableBytes <= 40, "\(path): \(gzipped.body.readableBytes) of \(plain.body.readableBytes) bytes")
            }
        }
    }

    @Test("a page another site made the browser ask for is not compressed (BREACH)", arguments: ["cross-site", "same-site", nil])
    func crossSitePagesAreNotCompressed(site: String?) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            var headers: HTTPFields = [.acceptEncoding: "gzip"]
            if let site { headers[HTTPField.Name("Sec-Fetch-Site")!] = site }
            let page = try await browser.get("/search?q=csrf_token", headers: headers)
            #expect(page.status == .ok)
            #expect(page.headers[.contentEncoding] == nil)
            #expect(page.text.contains("csrf_token"))
            // The stylesheet holds no secret: compressed whoever asks.
            #expect(try await browser.get("/static/style.css", headers: headers).headers[.contentEncoding] == "gzip")
        }
    }

    @Test("the stylesheet, script and SVG are gzipped once; the gzipped bytes unpack to the file")
    func staticFilesAreGzipped() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            for name in ["style.css", "passkeys.js", "favicon.svg"] {
                let file = try Self.served(name)
                let plain = try await browser.get("/static/\(name)")
                #expect(plain.headers[.contentEncoding] == nil)
                #expect(Data(plain.body.readableBytesView) == file)
                let gzipped = try await browser.get("/static/\(name)", headers: [.acceptEncoding: "gzip"])
                #expect(Data(try Self.unzip(gzipped).utf8) == file, "\(name)")
                #expect(gzipped.headers[.vary] == "Accept-Encoding")
                #expect(gzipped.headers[.eTag] != plain.headers[.eTag], "each representation has its own validator")
                let again = try await browser.get("/static/\(name)", headers: [.acceptEncoding: "gzip"])
                #expect(again.body == gzipped.body, "compressed once and kept")
            }
            let refused = try await browser.get("/static/style.css", headers: [.acceptEncoding: "gzip;q=0, identity"])
            #expect(refused.headers[.contentEncoding] == nil)
        }
    }

    /// A bare router with the middleware and one route per kind of body.
    static func withRouter(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let router = Router()
        router.add(middleware: CompressionMiddleware())
        let text = String(repeating: "<p>The same sentence, again and again.</p>\n", count: 100)
        router.get("jpeg") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("zip") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/zip"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("tiny") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "<p>short</p>")))
        }
        router.get("streamed") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(asyncSequence: [ByteBuffer(string: text)].async))
        }
        router.get("encoded") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/css", .contentEncoding: "br"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("html") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        try await Application(router: router).test(.router, body)
    }

    @Test("pictures, ZIP files, tiny, streamed and already encoded bodies are left alone")
    func whatIsNotCompressed() async throws {
        try await Self.withRouter { client in
            for path in ["/jpeg", "/zip", "/tiny", "/streamed", "/encoded"] {
                let response = try await client.execute(uri: path, method: .get, headers: Self.ownNavigation)
                #expect(response.status == .ok)
                #expect(response.headers[.contentEncoding] != "gzip", "\(path)")
                #expect(String(buffer: response.body).hasPrefix("<p>"), "\(path)")
            }
            #expect(try await client.execute(uri: "/jpeg", method: .get, headers: Self.ownNavigation).headers[.vary] == nil)
            let html = try await client.execute(uri: "/html", method: .get, headers: Self.ownNavigation)
            #expect(try Self.unzip(html).hasPrefix("<p>The same sentence"))
        }
    }

    @Test("Accept-Encoding: gzip unless refused with q=0", arguments: [
        ("gzip", true), ("br, gzip", true), ("gzip;q=0.5", true), ("*", true), ("GZIP", true),
        ("gzip;q=0", false), ("identity", false), ("br", false), ("", false),
        ("deflate, \tGzip ; q=0.8", true), ("br , gzip ; q=0 ", false), (" , ", false),
    ])
    func acceptEncoding(header: String, accepted: Bool) {
        #expect(CompressionMiddleware<BasicRequestContext>.acceptsGzip(header) == accepted)
    }

    @Test("Content-Type decides what kind of body it is, whatever its case, spaces and parameters", arguments: [
        ("text/html; charset=utf-8", CompressionMiddleware<BasicRequestContext>.Kind.page), (" Text/HTML ", .page),
        ("text/css;charset=utf-8", .asset), ("image/svg+xml", .asset), ("application/manifest+json", .asset),
        ("application/atom+xml; charset=utf-8", .feed),
    ])
    func contentTypes(type: String, kind: CompressionMiddleware<BasicRequestContext>.Kind) {
        #expect(CompressionMiddleware<BasicRequestContext>.kind(ofContentType: type) == kind)
    }

    @Test(arguments: ["image/jpeg", "application/zip", "text/htmlx", "", " ; charset=utf-8"])
    func otherContentTypesAreNotCompressed(type: String) {
        #expect(CompressionMiddleware<BasicRequestContext>.kind(ofContentType: type) == nil)
    }

    @Test("a static file at its content hash is cached for a year; the plain path still works, for an hour")
    func versionedStaticURLs() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let css = try Self.served("style.css")
            let hash = SHA256.hash(data: css).prefix(8).map { String(format: "%02x", $0) }.joined()
            let versioned = try await browser.get("/static/style.css?v=\(hash)")
            #expect(versioned.status == .ok)
            #expect(versioned.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(Data(versioned.body.readableBytesView) == css)
            for old in ["/static/style.css", "/static/style.css?v=0123456789abcdef"] {
                let response = try await browser.get(old)
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "public, max-age=3600", "\(old)")
            }
            let etag = try #require(versioned.headers[.eTag])
            let unchanged = try await browser.get("/static/style.css", headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified)
            #expect(unchanged.body.readableBytes == 0)
            #expect(try await browser.get("/static/no-such-file.css").status == .notFound)
            #expect(try await browser.get("/static/../Package.swift").status == .notFound)
        }
    }

    @Test("the icon, the cover placeholder, copy-share.js and the stylesheet's prefetch are linked by their content hash, like every file of Public/")
    func everyStaticLinkIsVersioned() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            // Typed in without an ISBN: no cover to fetch, so the wishlist shows the placeholder.
            _ = try await browser.get("/books/new")
            #expect(try await browser.post("/books/new", [("title", "The Quiet Orchard"), ("author", "Ilse Varga"), ("isbn", ""), ("link", ""), ("wish", "yes")]).status == .seeOther)
            let wishlist = try await browser.get("/wishlist")
            let feedLink = try await browser.post("/settings/feed-link", [])  // shows the link once, with copy-share.js
            var linked: Set<String> = []
            for page in [wishlist, feedLink] {
                for match in page.text.matches(of: /(?:src|href)="\/static\/([^"?]+)(\?v=([0-9a-f]+))?"/) {
                    let name = String(match.1)
                    let file = try Self.served(name)
                    let hash = SHA256.hash(data: file).prefix(8).map { String(format: "%02x", $0) }.joined()
                    #expect(match.3.map(String.init) == hash, "/static/\(name) linked by its current hash")
                    linked.insert(name)
                }
            }
            #expect(linked.isSuperset(of: ["favicon.svg", "cover-placeholder.svg", "copy-share.js", "style.css"]), "\(linked)")
            // Drawn in the page, not a request of its own (issue 34).
            #expect(wishlist.text.contains(#"<svg class="brand-mark" aria-hidden="true""#))
        }
    }

    @Test("a part that bodies share is deflated once and reused as it is where a page's head holds it; the whole unpacks to the body", arguments: [
        ("", "</head><body>a page</body>"), ("<!doctype html><head>", "</head><body>a page</body>"), ("<!doctype html><head>", ""),
        (String(repeating: "<p>before</p>", count: 400), "</body>"),
    ])
    func sharedPartIsReused(before: String, after: String) throws {
        let css = String(repeating: ".book-row { margin: 0 auto; color: var(--color-text); }\n", count: 400)
        let part = try #require(Gzip.SharedPart(Array("<style>\(css)</style>".utf8)))
        for body in [before + "<style>\(css)</style>" + after, before + "<style>.other{}</style>" + after + " no shared part"] {
            let compressed = try #require(Gzip.compress(ByteBuffer(string: body), level: Gzip.pageLevel, reusing: part))
            #expect(String(buffer: try #require(Gzip.decompress(compressed))) == body)
            let reused = Array(compressed.readableBytesView).firstRange(of: part.deflated) != nil
            let inHead = body.contains(css) && before.utf8.count <= Gzip.sharedPartSearch
            #expect(reused == inHead, "the part's deflated bytes are in the body exactly when the part is, within the head")
        }
    }

    @Test("Vary names Accept-Encoding once, whatever the case and the spaces of a name already there", arguments: [
        ([], "Accept-Encoding"),
        (["Accept-Language"], "Accept-Language, Accept-Encoding"),
        (["Cookie,\taccept-encoding"], "Cookie,\taccept-encoding"),
        (["Accept-Language", "Cookie ,  ACCEPT-ENCODING"], "Accept-Language, Cookie ,  ACCEPT-ENCODING"),
        (["Accept-Encodings"], "Accept-Encodings, Accept-Encoding"),
        (["Accept"], "Accept, Accept-Encoding"),
    ])
    func varyNamesAcceptEncodingOnce(before: [String], after: String) {
        var headers = HTTPFields()
        for value in before { headers.append(HTTPField(name: .vary, value: value)) }
        VaryField.addAcceptEncoding(to: &headers)
        #expect(headers[.vary] == after)
    }

    @Test("an Atom feed is gzipped for a feed reader that asks, with or without Sec-Fetch-Site, and unpacks to the feed")
    func feedsAreGzipped() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("historian")
            try await browser.post("/lists/hardcover-fiction/favorite", [("return_to", "/lists")])
            let path = try HistoryPagesTests.feedPath(in: try await browser.post("/settings/feed-link", []))
            var reader = TestBrowser(client: browser.client)
            let plain = try await reader.get(path)
            #expect(plain.status == .ok)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            // A feed reader sends no Sec-Fetch-Site; a browser opening the link from elsewhere says cross-site.
            for headers: HTTPFields in [[.acceptEncoding: "gzip"], [.acceptEncoding: "gzip", HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]] {
                let gzipped = try await reader.get(path, headers: headers)
                #expect(gzipped.headers[.contentType] == "application/atom+xml; charset=utf-8")
                #expect(try Self.unzip(gzipped) == plain.text)
                #expect(gzipped.body.readableBytes < plain.body.readableBytes / 2, "\(gzipped.body.readableBytes) of \(plain.body.readableBytes) bytes")
            }
        }
    }

    @Test("the web app manifest: linked from every page, its type, its fields, and icons that exist at the sizes it says")
    func manifest() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            #expect(try await browser.get("/login").text.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
            let response = try await browser.get("/manifest.webmanifest")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/manifest+json")
            let manifest = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            #expect(manifest["name"] as? String == "Bestseller Wishlist")
            #expect(manifest["short_name"] as? String == "Wishlist")
            #expect(manifest["start_url"] as? String == "/")
            #expect(manifest["display"] as? String == "standalone")
            let css = try String(contentsOf: repositoryRoot.appendingPathComponent("Public/style.css"), encoding: .utf8)
            let theme = try #require(manifest["theme_color"] as? String)
            #expect(css.contains(theme), "the theme colour is the stylesheet's")
            let icons = try #require(manifest["icons"] as? [[String: String]])
            #expect(Set(icons.compactMap { $0["sizes"] }) == ["any", "192x192", "512x512"])
            // The icons at the URLs the pages use, so that the page's icon and the manifest's are
            // one download, not two (issue 34).
            let page = try await browser.get("/login")
            for icon in icons {
                let src = try #require(icon["src"])
                #expect(src.contains("?v="), "\(src) is versioned")
                if src.hasPrefix("/static/favicon.svg") { #expect(page.text.contains(#"<link rel="icon" href="\#(src)""#)) }
            }
            for icon in icons {
                let file = try await browser.get(try #require(icon["src"]))
                #expect(file.status == .ok)
                #expect(file.headers[.contentType] == icon["type"])
                if icon["type"] == "image/png" {
                    // The IHDR chunk: width and height, big-endian, at bytes 16 and 20.
                    let bytes = Array(file.body.readableBytesView)
                    #expect(Array(bytes[1...3]) == Array("PNG".utf8))
                    let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
                    #expect("\(width)x\(height)" == icon["sizes"])
                }
            }
        }
    }
}
