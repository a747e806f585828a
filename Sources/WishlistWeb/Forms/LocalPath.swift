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

    /// Percent-encodes everything but unreserved characters and `/`, for a path in a query value.
    static func percentEncoded(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: [UInt8(ascii: "/")])
    }
}
