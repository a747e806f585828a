/// The name a cover has in our URLs and files: the first 96 bits of the SHA-256 of the image's
/// address, in hex. Pages compute it from the URL they already have, with no query; anyone may
/// compute it too, which tells them only whether this server has a picture a book's page here
/// would show anyway.
package enum CoverKey {
    package static let length = 24

    /// Written digit by digit into one string: every row of a wishlist page asks for its
    /// cover's key, and a string per byte joined afterwards cost more than the digest (issue 58).
    package static func of(_ url: String) -> String {
        let digest = Digests.sha256(Array(url.utf8))
        return String(unsafeUninitializedCapacity: length) { key in
            for index in 0..<length / 2 {
                key[2 * index] = hexDigits[Int(digest[index] >> 4)]
                key[2 * index + 1] = hexDigits[Int(digest[index] & 0x0f)]
            }
            return length
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

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
