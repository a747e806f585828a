/// RFC 3986 percent-encoding, for values placed in URLs we build: the NYT API's paths and query,
/// and this site's own `?next=` values; and its decoding, for what the access log shows of a path.
package enum PercentEncoding {
    /// Encodes every byte but the unreserved characters (letters, digits, `-._~`) and the ASCII
    /// characters in `keeping`.
    package static func encode(_ text: String, keeping kept: Set<UInt8> = []) -> String {
        var output = ""
        for byte in text.utf8 {
            if isUnreserved(byte) || kept.contains(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0x0F)])
            }
        }
        return output
    }

    private static let hexDigits = Array("0123456789ABCDEF")

    /// `bytes` with every `%XX` escape decoded, again and again until none is left (at most four
    /// rounds: `%2573` is `%73`, then `s`); a `%` without two hex digits after it stays as it is.
    package static func decodedFully(_ bytes: [UInt8]) -> [UInt8] {
        var current = bytes
        for _ in 0..<4 {
            let decoded = decodedOnce(current)
            if decoded == current { break }
            current = decoded
        }
        return current
    }

    /// `text` with its `%XX` escapes decoded once, or nil when the bytes are not UTF-8 text: a
    /// path's component as a person would read it.
    package static func decoded(_ text: String) -> String? {
        String(validating: decodedOnce(Array(text.utf8)), as: UTF8.self)
    }

    private static func decodedOnce(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
