/// JSON text written by hand where an encoder would cost more than the query it feeds.
enum JSONText {
    /// `strings` as a JSON array of strings (RFC 8259): quotes, backslashes and control
    /// characters escaped, everything else as it is. A string with none of them (an ISBN, a
    /// book's id: what every list page sends) is copied whole; the others go byte by byte (what
    /// it escapes is ASCII, and no byte of a longer character is below 0x80). A character at a
    /// time, an import's 100,000 ISBNs took 40 ms (issue 58).
    static func array(of strings: [String]) -> String {
        var text = "["
        text.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, string) in strings.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            if string.utf8.contains(where: needsEscape) {
                text += escaped(string)
            } else {
                text += string
            }
            text += "\""
        }
        text += "]"
        return text
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// `string`'s bytes with quotes, backslashes and control characters escaped.
    private static func escaped(_ string: String) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(string.utf8.count + 8)
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): text += [UInt8(ascii: "\\"), byte]
            case 0x00...0x1F: text += ("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8
            default: text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `numbers` as a JSON array of integers, which `json_each` gives back as integers.
    static func array(ofNumbers numbers: [Int64]) -> String {
        "[" + numbers.map(String.init).joined(separator: ",") + "]"
    }
}
