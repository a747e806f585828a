/// The browser's `Accept-Language` (RFC 9110, section 12.5.4): language ranges with q-values,
/// matched against the languages the app has by RFC 4647's lookup, so "de-AT" finds "de".
package struct AcceptLanguage: Sendable, Equatable {
    package struct Range: Sendable, Equatable {
        /// Lower-cased: tags compare without case.
        package let tag: String
        /// From 0 (not acceptable) to 1000 (1.0): RFC 9110 allows three decimals.
        package let weight: Int
    }

    /// The acceptable ranges, most wanted first; equal weights keep the header's order.
    package let ranges: [Range]

    /// Reads a header leniently: an element that is not a range with a valid q-value is skipped,
    /// as if the browser had not sent it, and a header with nothing readable prefers nothing.
    package init(_ header: String) {
        let elements = header.split(separator: ",").compactMap(Self.range)
        ranges = elements.enumerated()
            .filter { $0.element.weight > 0 }
            .sorted { ($0.element.weight, -$0.offset) > ($1.element.weight, -$1.offset) }
            .map(\.element)
    }

    /// The first of `available` the browser accepts, by its preference: a range matches a language
    /// with the same tag, or whose tag it starts with at a hyphen ("de-AT" finds "de"). `*` or no
    /// match answers nil, leaving the choice to the server's default.
    package func preferred(among available: [String]) -> String? {
        for range in ranges {
            if range.tag == "*" {
                return nil
            }
            var tag = range.tag[...]
            while !tag.isEmpty {
                if let match = available.first(where: { $0.lowercased() == tag }) {
                    return match
                }
                tag = tag.lastIndex(of: "-").map { tag[..<$0] } ?? ""
            }
        }
        return nil
    }

    private static func range(_ element: Substring) -> Range? {
        let parts = element.split(separator: ";", omittingEmptySubsequences: false).map { $0.filter { $0 != " " && $0 != "\t" } }
        guard let tag = parts.first, isLanguageRange(tag), parts.count <= 2 else {
            return nil
        }
        guard parts.count == 2 else {
            return Range(tag: tag.lowercased(), weight: 1000)
        }
        guard parts[1].lowercased().hasPrefix("q="), let weight = qValue(parts[1].dropFirst(2)) else {
            return nil
        }
        return Range(tag: tag.lowercased(), weight: weight)
    }

    /// `language-range` of RFC 4647: `*`, or 1 to 8 letters then `-` and 1 to 8 letters or digits.
    private static func isLanguageRange(_ text: String) -> Bool {
        if text == "*" {
            return true
        }
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        return subtags.enumerated().allSatisfy { index, subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || (index > 0 && $0.isNumber)) }
        }
    }

    /// `qvalue`: "0" to "1" with at most three decimals, as thousandths.
    private static func qValue(_ text: Substring) -> Int? {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = pieces.first, whole == "0" || whole == "1" else {
            return nil
        }
        let decimals = pieces.count == 2 ? pieces[1] : ""
        guard decimals.count <= 3, decimals.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        let thousandths = (whole == "1" ? 1000 : 0) + Int(decimals + String(repeating: "0", count: 3 - decimals.count))!
        return thousandths <= 1000 ? thousandths : nil
    }
}
