/// JSON text written by hand where an encoder would cost more than the query it feeds.
enum JSONText {
    /// `strings` as a JSON array of strings (RFC 8259): quotes, backslashes and control
    /// characters escaped, everything else as it is. Written as UTF-8 bytes (what it escapes is
    /// ASCII, and no byte of a longer character is below 0x80): a character at a time, an
    /// import's 100,000 ISBNs took 40 ms (issue 58).
    static func array(of strings: [String]) -> String {
        var text: [UInt8] = [UInt8(ascii: "[")]
        text.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, string) in strings.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): text += [UInt8(ascii: "\\"), byte]
                case 0x00...0x1F: text += ("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8
                default: text.append(byte)
                }
            }
            text.append(UInt8(ascii: "\""))
        }
        text.append(UInt8(ascii: "]"))
        return String(decoding: text, as: UTF8.self)
    }

    /// `numbers` as a JSON array of integers, which `json_each` gives back as integers.
    static func array(ofNumbers numbers: [Int64]) -> String {
        "[" + numbers.map(String.init).joined(separator: ",") + "]"
    }
}
