/// JSON text written by hand where an encoder would cost more than the query it feeds.
enum JSONText {
    /// `strings` as a JSON array of strings (RFC 8259): quotes, backslashes and control
    /// characters escaped, everything else as it is.
    static func array(of strings: [String]) -> String {
        var text = "["
        for (index, string) in strings.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\u{00}"..."\u{1F}": text += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        return text + "]"
    }

    /// `numbers` as a JSON array of integers, which `json_each` gives back as integers.
    static func array(ofNumbers numbers: [Int64]) -> String {
        "[" + numbers.map(String.init).joined(separator: ",") + "]"
    }
}
