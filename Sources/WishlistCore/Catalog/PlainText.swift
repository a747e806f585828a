/// Book descriptions sometimes arrive with HTML in them (`The third <i>Emberwake</i> novel`,
/// `Salt &amp; Ember`). The pages show text, so tags go and character references become the
/// characters they stand for; the templates escape the result again on output, so nothing here
/// can become markup.
enum PlainText {
    static func fromHTMLFragment(_ html: String) -> String {
        var text = ""
        var rest = Substring(html)
        while let next = rest.firstIndex(where: { $0 == "<" || $0 == "&" }) {
            text += rest[..<next]
            rest = rest[next...]
            if rest.first == "<", let (tagName, after) = tag(at: rest) {
                // Tags that break a line must not glue the words on either side together.
                if ["br", "p", "div", "li"].contains(tagName) { text += " " }
                rest = after
            } else if rest.first == "&", let (character, after) = reference(at: rest) {
                text.append(character)
                rest = after
            } else {
                text.append(rest.removeFirst())
            }
        }
        text += rest
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `<name …>` or `</name>`: the lower-cased name and what follows the tag; nil when the `<`
    /// starts no tag ("a < b").
    private static func tag(at text: Substring) -> (String, Substring)? {
        var body = text.dropFirst()
        if body.first == "/" { body = body.dropFirst() }
        guard let first = body.first, first.isASCII, first.isLetter, let close = body.firstIndex(of: ">") else { return nil }
        let name = body[..<close].prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }.lowercased()
        return (name, body[body.index(after: close)...])
    }

    private static let named: [Substring: Character] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]

    /// `&amp;`, `&#39;`, `&#x2019;`: the character and what follows; nil for a lone `&`.
    private static func reference(at text: Substring) -> (Character, Substring)? {
        guard let semicolon = text.prefix(12).firstIndex(of: ";") else { return nil }
        let name = text[text.index(after: text.startIndex)..<semicolon]
        let after = text[text.index(after: semicolon)...]
        if let character = named[name] { return (character, after) }
        guard name.first == "#" else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return (Character(scalar), after)
    }
}
