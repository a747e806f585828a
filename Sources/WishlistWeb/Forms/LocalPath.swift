import WishlistCore

/// Paths on this site that it is safe to send a browser to after a form, such as `?next=`.
enum LocalPath {
    /// `candidate` when it is a path on this site, else `fallback`.
    ///
    /// Refused: anything not starting with one `/` (absolute URLs, other schemes), `//host` and
    /// `/\host` (browsers read both as another host), backslashes and control characters anywhere.
    static func validated(_ candidate: String, fallback: String = "/") -> String {
        guard candidate.hasPrefix("/"), !candidate.hasPrefix("//"),
              !candidate.utf8.contains(UInt8(ascii: "\\")),
              !candidate.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f || $0 == " " }),
              candidate.count <= 2000
        else { return fallback }
        return candidate
    }

    /// `path` (a validated local path) at its confirmation, `#flash`: what a form on a card of a
    /// list, member or search page returns to. The page shows the confirmation on the card the
    /// form was on (the flash cookie names it), so the fragment scrolls back to the book, and it
    /// focuses the confirmation (`tabindex="-1"`), which `autofocus` would not: browsers skip
    /// autofocus on a page opened at a fragment. A fragment the path had is replaced.
    static func atConfirmation(_ path: String) -> String {
        (path.firstIndex(of: "#").map { String(path[..<$0]) } ?? path) + "#flash"
    }

    /// Whether `id` can be a card's id (`book-<id>`, `item-<id>`): ASCII letters, digits and `-`,
    /// so that it is safe in a URL's fragment, an attribute and a cookie alike.
    static func isCardID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
    }

    /// Percent-encodes everything but unreserved characters and `/`, for a path in a query value.
    static func percentEncoded(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: [UInt8(ascii: "/")])
    }
}
