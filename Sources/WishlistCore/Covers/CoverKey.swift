/// The name a cover has in our URLs and files: the first 96 bits of the SHA-256 of the image's
/// address, in hex. Pages compute it from the URL they already have, with no query; anyone may
/// compute it too, which tells them only whether this server has a picture a book's page here
/// would show anyway.
package enum CoverKey {
    package static let length = 24

    package static func of(_ url: String) -> String {
        Digests.sha256(Array(url.utf8)).prefix(length / 2).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Whether `text` could be a key: 24 lowercase hex digits.
    package static func isWellFormed(_ text: Substring) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// The two widths every cover is kept at, and the words the URLs use for them.
package enum CoverSize: Int, Sendable, CaseIterable {
    case small = 128
    case large = 384

    package var name: String { String(rawValue) }

    package init?(name: Substring) {
        guard let width = Int(name), let size = CoverSize(rawValue: width) else { return nil }
        self = size
    }
}
