import Foundation

/// A wishlist item's links as stored: a JSON array of `[name, url]` pairs, as `JSONEncoder`
/// writes them (`[["Amazon","https:\/\/www.amazon.com\/s?k=…"]]`).
///
/// A member's page shows a hundred items' buy links, and `JSONDecoder` reading them took a tenth
/// of the page's CPU (issue 58). The encoder's own form is read here byte by byte; anything else
/// (a `\u` escape, a space, a pair that is not two strings) goes to `JSONDecoder` as before, so
/// what is read is always what it would read.
enum StoredLinks {
    static func encode(_ links: [CatalogBook.Link]) -> String {
        // An import's own books have none: no encoder for each of its rows.
        guard !links.isEmpty else { return "[]" }
        let pairs = links.map { [$0.name, $0.url] }
        return String(decoding: (try? JSONEncoder().encode(pairs)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// The links of `json`; none when it is not an array of pairs of strings.
    static func decode(_ json: String) -> [CatalogBook.Link] {
        if let links = encoderForm(json) { return links }
        let pairs = (try? JSONDecoder().decode([[String]].self, from: Data(json.utf8))) ?? []
        return pairs.compactMap { $0.count == 2 ? CatalogBook.Link(name: $0[0], url: $0[1]) : nil }
    }

    /// The links of `json` when it is written exactly as the encoder writes pairs, or nil.
    static func encoderForm(_ json: String) -> [CatalogBook.Link]? {
        var reader = Reader(bytes: Array(json.utf8))
        guard reader.take(UInt8(ascii: "[")) else { return nil }
        var links: [CatalogBook.Link] = []
        if !reader.take(UInt8(ascii: "]")) {
            repeat {
                guard reader.take(UInt8(ascii: "[")), let name = reader.string(), reader.take(UInt8(ascii: ",")),
                      let url = reader.string(), reader.take(UInt8(ascii: "]")) else { return nil }
                links.append(CatalogBook.Link(name: name, url: url))
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "]")) else { return nil }
        }
        return reader.isAtEnd ? links : nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string with the escapes the encoder writes (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`,
        /// `\r`, `\t`); nil at a `\u` escape or anything that is not JSON. The bytes between
        /// escapes are copied a run at a time: a stored URL has an escaped slash every few bytes.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var text: [UInt8] = []
            var run = index
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    text.append(contentsOf: bytes[run..<index])
                    index += 1
                    return String(decoding: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count, let unescaped = Self.unescaped(bytes[index + 1]) else { return nil }
                    text.append(contentsOf: bytes[run..<index])
                    text.append(unescaped)
                    index += 2
                    run = index
                case ..<0x20: return nil
                default: index += 1
                }
            }
            return nil
        }

        private static func unescaped(_ escape: UInt8) -> UInt8? {
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        }
    }
}
