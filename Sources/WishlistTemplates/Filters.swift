import CivilTime
import Foundation
import WishlistLanguages

/// A filter applied with `|`, validated when the template compiles.
///
/// Filters that transform text return plain strings, so their result is always
/// escaped; no filter turns data into ``TrustedHTML``.
enum Filter: Sendable {
    case date(DateFormat)
    /// `date: "long"` (or full, medium, short): the day in the language being compiled, by its
    /// CLDR pattern ("28. November 2026"). Parsed with English; the compiler gives each language's.
    case languageDate(DatePatterns.Style, LanguageData)
    case pluralize(singular: String, plural: String)
    /// The `default` filter (`default` is a Swift keyword).
    case fallback(TemplateValue)
    case truncate(characters: Int)
    case upper
    case lower
    case length
    case urlencode
    /// A `{% t %}` count, with its language's digit groups ("1.234"); no template names it.
    case count(LanguageData)

    static let names = ["date", "default", "length", "lower", "pluralize", "truncate", "upper", "urlencode"]

    /// Builds a filter from its name and literal arguments, or explains what is wrong with them.
    init(name: String, arguments: [TemplateValue], location: SourceLocation) throws(TemplateError) {
        let check = ArgumentCheck(filter: name, arguments: arguments, location: location)
        switch name {
        case "date":
            let pattern = try check.singleString(describing: "the format, e.g. \"MMMM d, yyyy\", or a style: \"long\"")
            if let style = Self.dateStyles[pattern] {
                self = .languageDate(style, LanguageData.shipped[0])  // English
                return
            }
            do {
                self = .date(try DateFormat(pattern: pattern))
            } catch {
                throw location.error(error.message)
            }
        case "pluralize":
            let words = try check.strings(1...2, describing: "the singular and optionally the plural, e.g. \"person\", \"people\"")
            self = .pluralize(singular: words[0], plural: words.count == 2 ? words[1] : words[0] + "s")
        case "default":
            self = .fallback(try check.single(describing: "the value to use when the input is empty"))
        case "truncate":
            self = .truncate(characters: try check.singleCount(describing: "the maximum number of characters"))
        case "upper": try check.none(); self = .upper
        case "lower": try check.none(); self = .lower
        case "length": try check.none(); self = .length
        case "urlencode": try check.none(); self = .urlencode
        default:
            throw location.error("unknown filter '\(name)'; expected one of \(Self.names.joined(separator: ", "))")
        }
    }

    /// The styles `date:` takes besides a pattern; none of them parses as one (o, n, g, e, i, u, r, t, l are no fields).
    private static let dateStyles: [String: DatePatterns.Style] = ["full": .full, "long": .long, "medium": .medium, "short": .short]

    /// This filter as it writes in `language`: only a styled date differs.
    func inLanguage(_ language: LanguageData) -> Filter {
        guard case .languageDate(let style, _) = self else { return self }
        return .languageDate(style, language)
    }

    func apply(to value: TemplateValue) -> TemplateValue {
        switch self {
        case .date(let format):
            return Self.date(from: value).map { .string(format.string(from: $0)) } ?? .null
        case .languageDate(let style, let language):
            return Self.date(from: value).map { .string(language.formatted(CivilDateTime($0), style: style)) } ?? .null
        case .pluralize(let singular, let plural):
            return Self.pluralized(value, singular: singular, plural: plural)
        case .fallback(let fallback):
            return value.isTruthy ? value : fallback
        case .truncate(let limit):
            return value.text.map { .string(Self.truncated($0, to: limit)) } ?? .null
        case .upper:
            return value.text.map { .string($0.uppercased()) } ?? .null
        case .lower:
            return value.text.map { .string($0.lowercased()) } ?? .null
        case .length:
            return Self.length(of: value)
        case .urlencode:
            return value.text.map { .string(Self.percentEncoded($0)) } ?? .null
        case .count(let language):
            guard case .int(let count) = value else { return value }
            return .string(language.formatted(count))
        }
    }

    private static func date(from value: TemplateValue) -> Date? {
        switch value {
        case .date(let date): date
        case .string(let text): ISODateParser.date(from: text)
        default: nil
        }
    }

    private static func pluralized(_ value: TemplateValue, singular: String, plural: String) -> TemplateValue {
        switch value {
        case .int(let count): .string("\(count) \(count == 1 ? singular : plural)")
        case .double(let count): .string("\(count) \(count == 1 ? singular : plural)")
        case .array(let items): pluralized(.int(items.count), singular: singular, plural: plural)
        default: .null
        }
    }

    /// Keeps the first `limit` characters (grapheme clusters, so emoji and accents stay
    /// whole), drops whitespace left dangling at the cut and appends "…".
    private static func truncated(_ text: String, to limit: Int) -> String {
        // A string has at least as many UTF-8 bytes as characters: skip the count when it cannot be too long.
        guard text.utf8.count > limit, text.count > limit else { return text }
        var kept = text.prefix(limit)
        while let last = kept.last, last.isWhitespace { kept.removeLast() }
        return String(kept) + "…"
    }

    private static func length(of value: TemplateValue) -> TemplateValue {
        switch value {
        case .null: .int(0)
        case .array(let items): .int(items.count)
        case .dictionary(let entries): .int(entries.count)
        case .string(let text): .int(text.count)
        default: .null
        }
    }

    /// Percent-encodes every byte except RFC 3986 unreserved characters, so the result
    /// is safe as one path segment or one query value.
    static func percentEncoded(_ text: String) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte.isIdentifierByte || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~") {
                encoded.append(byte)
            } else {
                encoded.append(contentsOf: [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}

/// Validates a filter's literal arguments and words the complaint when they are wrong.
private struct ArgumentCheck {
    let filter: String
    let arguments: [TemplateValue]
    let location: SourceLocation

    func none() throws(TemplateError) {
        guard arguments.isEmpty else {
            throw location.error("filter '\(filter)' takes no arguments, found \(arguments.count)")
        }
    }

    func single(describing purpose: String) throws(TemplateError) -> TemplateValue {
        guard arguments.count == 1 else { throw countError("1 argument", purpose) }
        return arguments[0]
    }

    func singleString(describing purpose: String) throws(TemplateError) -> String {
        try strings(1...1, describing: purpose)[0]
    }

    func strings(_ counts: ClosedRange<Int>, describing purpose: String) throws(TemplateError) -> [String] {
        let expected = counts.count == 1 ? "1 string argument" : "\(counts.lowerBound) or \(counts.upperBound) string arguments"
        guard counts.contains(arguments.count) else { throw countError(expected, purpose) }
        var strings: [String] = []
        for argument in arguments {
            guard case .string(let text) = argument else { throw typeError("a string", argument) }
            strings.append(text)
        }
        return strings
    }

    func singleCount(describing purpose: String) throws(TemplateError) -> Int {
        guard arguments.count == 1 else { throw countError("1 integer argument", purpose) }
        guard case .int(let count) = arguments[0], count >= 0 else { throw typeError("a non-negative integer", arguments[0]) }
        return count
    }

    private func countError(_ expected: String, _ purpose: String) -> TemplateError {
        location.error("filter '\(filter)' expects \(expected) (\(purpose)), found \(arguments.count)")
    }

    private func typeError(_ expected: String, _ found: TemplateValue) -> TemplateError {
        location.error("filter '\(filter)' expects \(expected), found \(found.literalDescription)")
    }
}

package extension TemplateValue {
    /// How a literal is written in a template, for error messages.
    var literalDescription: String {
        switch self {
        case .string(let text): "string \"\(text)\""
        case .int(let number): "integer \(number)"
        case .double(let number): "number \(number)"
        case .bool(let flag): "\(flag)"
        default: "value"
        }
    }
}
