import Crypto
import Foundation
import Hummingbird
import WishlistTemplates

/// `Public/style.css` as every page carries it, without its comments and with its whitespace
/// collapsed: inline in a `<style>` element in the head until the browser holds the file, then
/// linked (docs/decisions/stylesheet-linked-once-cached.md). `/static/style.css` serves the same
/// text, so the inline element and the linked file are one sheet with one hash.
///
/// Why inline on a first visit: there a linked stylesheet blocks the first paint for a second
/// round trip after the HTML (562 ms on DevTools' "Slow 4G"), which alone kept every page's Largest
/// Contentful Paint over the 1.5 s budget (issue 34). Such a page also asks for the file, at the
/// lowest priority (`<link rel="prefetch">`), and the file's answer sets a cookie naming its hash
/// (``cookie(secure:)``); a page asked for with that cookie, while the hash is still the file's,
/// links the file, which the browser takes from its cache, instead of carrying its 7-8 KB again
/// (issue 58). A cookie naming another hash, or none, gets the sheet inline: never an unstyled page.
struct PageStylesheet: Sendable {
    /// The file the sheet is, in `Public/`.
    static let fileName = "style.css"
    /// The cookie that says which sheet the browser holds (its content hash).
    static let cookieName = "wishlist_stylesheet"
    /// As long as the file's immutable caching (``StaticFilesMiddleware/immutable``): a cookie that
    /// outlived the cached file would only cost a repeat page a fetch, but one that ended first
    /// would not come back while the file is cached, since a cached answer sets no cookie.
    static let cookieMaxAge = 31_536_000

    /// The minified text, as the element holds it and `/static/style.css` serves it.
    let text: String
    /// The first 16 hex digits of the text's SHA-256 (``StaticFiles/contentHash(_:)``): the file's `?v=`.
    let hash: String
    /// `<style>…</style>`, for a first visit's head.
    let element: TrustedHTML
    /// A first visit's head: the element, then the file asked for when the browser has nothing
    /// better to do, for the next page.
    let inlineHead: TrustedHTML
    /// `<link rel="stylesheet">` to the file at its hash, for a browser that holds it.
    let link: TrustedHTML
    /// `'sha256-<base64>'` of the element's text, for `style-src`.
    let policySource: String
    /// The element deflated once, for the gzip of every page that carries it.
    let deflated: Gzip.SharedPart?

    /// Nil when the sheet could close its own element early (`</style`), which a stylesheet of
    /// ours never needs; the page then has no inline style and the policy allows none.
    init?(css: String) {
        let text = Self.minify(css)
        guard text.range(of: "</style", options: .caseInsensitive) == nil else { return nil }
        self.text = text
        hash = StaticFiles.contentHash(Data(text.utf8))
        let url = StaticFiles.versionedURL(Self.fileName, hash: hash)
        element = TrustedHTML(trusted: "<style>" + text + "</style>")
        inlineHead = TrustedHTML(trusted: element.html + #"<link rel="prefetch" href=""# + url + #"">"#)
        link = TrustedHTML(trusted: #"<link rel="stylesheet" href=""# + url + #"">"#)
        policySource = "'sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() + "'"
        deflated = Gzip.SharedPart(Array(element.html.utf8))
    }

    /// Whether a browser whose cookie says `held` has this sheet: its hash, not an older one.
    func isHeld(_ held: String?) -> Bool { held == hash }

    /// What a page's head carries for a browser that holds `held`: the link, or the element and the prefetch.
    func head(held: String?) -> TrustedHTML { isHeld(held) ? link : inlineHead }

    /// Set with the file at its hash: from then on, the browser's pages link it.
    func cookie(secure: Bool) -> Cookie {
        Cookie(name: Self.cookieName, value: hash, maxAge: Self.cookieMaxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// Drops comments and collapses whitespace to one space, or none beside `{ } ; ,`, leaving
    /// quoted strings as they are. A comment is removed without a space in its place, as CSS reads it.
    static func minify(_ css: String) -> String {
        let bytes = Array(css.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        var pendingSpace = false
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                out.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    out.append(bytes[index + 1])
                    index += 1
                } else if byte == open {
                    quote = nil
                }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index = commentEnd(bytes, from: index + 2) - 1
            } else if isWhitespace(byte) {
                pendingSpace = true
            } else {
                if pendingSpace, let last = out.last, !isTight(last), !isTight(byte) { out.append(UInt8(ascii: " ")) }
                pendingSpace = false
                out.append(byte)
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The index just past the `*/` that closes a comment whose text starts at `start`, or the end.
    private static func commentEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") { return index + 2 }
            index += 1
        }
        return bytes.count
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == 0x0C
    }

    /// Punctuation that needs no space on either side.
    private static func isTight(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ",")
    }
}
