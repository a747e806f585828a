/// The member names of a JSON text's top-level object, as written, duplicates included.
///
/// A JWT's claims and a JOSE header must not name a member twice (RFC 7519 §4, RFC 7515 §5.2):
/// JSON parsers disagree about which of two `"sub"` wins (JSONSerialization and JSONDecoder here
/// do), so a token read one way by us and another way by whoever checked it could name two
/// different people. `JSONSerialization` keeps one silently, so the names are read here first.
///
/// Meant for text `JSONSerialization` has accepted as an object: anything else gives nil, and
/// the caller refuses the token.
enum JSONMemberNames {
    /// Whether the top-level object names a member twice (after its escapes are read, so
    /// `"s\u0075b"` is `"sub"`); nil when `json` is not an object this reader follows.
    static func haveDuplicates(_ json: [UInt8]) -> Bool? {
        var reader = Reader(bytes: json)
        guard let names = reader.topLevelNames() else { return nil }
        return Set(names).count != names.count
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func topLevelNames() -> [String]? {
            skipSpace()
            guard next() == UInt8(ascii: "{") else { return nil }
            var names: [String] = []
            skipSpace()
            if peek() == UInt8(ascii: "}") { return names }
            while true {
                skipSpace()
                guard let name = string() else { return nil }
                names.append(name)
                skipSpace()
                guard next() == UInt8(ascii: ":"), skipValue() else { return nil }
                skipSpace()
                switch next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return names
                default: return nil
                }
            }
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func next() -> UInt8? {
            defer { position += 1 }
            return peek()
        }

        mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
        }

        /// A string's text with its escapes read; the opening quote is next.
        mutating func string() -> String? {
            guard next() == UInt8(ascii: "\"") else { return nil }
            var units: [UInt16] = []
            while let byte = next() {
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: units, as: UTF16.self)
                case UInt8(ascii: "\\"):
                    guard let escape = next() else { return nil }
                    switch escape {
                    case UInt8(ascii: "u"):
                        guard position + 4 <= bytes.count, let unit = UInt16(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else { return nil }
                        position += 4
                        units.append(unit)
                    case UInt8(ascii: "b"): units.append(0x08)
                    case UInt8(ascii: "f"): units.append(0x0C)
                    case UInt8(ascii: "n"): units.append(0x0A)
                    case UInt8(ascii: "r"): units.append(0x0D)
                    case UInt8(ascii: "t"): units.append(0x09)
                    default: units.append(UInt16(escape))
                    }
                default:
                    // Raw UTF-8: gather the character's bytes and add its UTF-16.
                    let start = position - 1
                    while let continuation = peek(), continuation & 0xC0 == 0x80 { position += 1 }
                    units.append(contentsOf: String(decoding: bytes[start..<position], as: UTF8.self).utf16)
                }
            }
            return nil
        }

        /// Steps over one value of any kind; false at the end of the text.
        mutating func skipValue() -> Bool {
            skipSpace()
            var depth = 0
            repeat {
                guard let byte = peek() else { return false }
                switch byte {
                case UInt8(ascii: "\""):
                    guard string() != nil else { return false }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    // The end of the enclosing object, where a value was due.
                    guard depth > 0 else { return false }
                    depth -= 1
                    position += 1
                case UInt8(ascii: ","), UInt8(ascii: ":"):
                    guard depth > 0 else { return false }
                    position += 1
                default:
                    // A number or a literal: up to the next structural character.
                    while let byte = peek(), !",:]} \t\r\n".utf8.contains(byte) { position += 1 }
                    skipSpace()
                }
                if depth > 0 { skipSpace() }
            } while depth > 0
            return true
        }
    }
}
