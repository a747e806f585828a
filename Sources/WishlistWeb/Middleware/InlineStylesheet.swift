import Crypto
import Foundation
import WishlistTemplates

/// `Public/style.css` as every page carries it: inside a `<style>` element in the head, without
/// its comments and with its whitespace collapsed, and the one Content-Security-Policy source that
/// allows exactly that element (`'sha256-…'`, never `'unsafe-inline'`).
///
/// Why inline rather than linked: on a phone's first visit a linked stylesheet blocks the first
/// paint for a second round trip after the HTML (562 ms on DevTools' "Slow 4G"), which alone kept
/// every page's Largest Contentful Paint over the 1.5 s budget (issue 34). Inline, every page
/// carries the sheet's bytes (about 7 KB gzipped, some 40 ms on that network) where a repeat visit
/// would have taken a cached file; Benchmarks/README.md measures both visits.
struct InlineStylesheet: Sendable {
    /// `<style>…</style>`, for the layout's head.
    let element: TrustedHTML
    /// `'sha256-<base64>'` of the element's text, for `style-src`.
    let policySource: String
    /// The element deflated once, for the gzip of every page that carries it.
    let deflated: Gzip.SharedPart?

    /// Nil when the sheet could close its own element early (`</style`), which a stylesheet of
    /// ours never needs; the page then has no inline style and the policy allows none.
    init?(css: String) {
        let text = Self.minify(css)
        guard text.range(of: "</style", options: .caseInsensitive) == nil else { return nil }
        element = TrustedHTML(trusted: "<style>" + text + "</style>")
        policySource = "'sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() + "'"
        deflated = Gzip.SharedPart(Array(element.html.utf8))
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
