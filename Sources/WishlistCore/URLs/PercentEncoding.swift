/// RFC 3986 percent-encoding, for values placed in URLs we build: the NYT API's paths and query,
/// and this site's own `?next=` values.
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
