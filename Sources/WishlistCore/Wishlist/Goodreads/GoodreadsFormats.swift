import CivilTime
import Foundation

/// Keeps spreadsheets from running a cell as a formula (CSV injection) with a leading apostrophe,
/// and takes that apostrophe off again on import.
enum FormulaGuard {
    private static let triggers: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    static func guarded(_ text: String) -> String {
        needsGuard(text.unicodeScalars) ? "'" + text : text
    }

    static func unguarded(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.first == "'", needsGuard(scalars.dropFirst()) else { return text }
        return String(scalars.dropFirst())
    }

    /// Looks past leading apostrophes so a value that already starts with "'=" gets one more:
    /// the import then always removes exactly the one the export added.
    private static func needsGuard(_ scalars: some Sequence<Unicode.Scalar>) -> Bool {
        guard let first = scalars.first(where: { $0 != "'" }) else { return false }
        return triggers.contains(first)
    }
}

/// Dates as Goodreads writes them: a calendar day, in UTC.
enum GoodreadsDate {
    /// `yyyy/MM/dd`.
    static func format(_ date: Date) -> String {
        format(FinishedDate(date))
    }

    static func format(_ day: FinishedDate) -> String {
        day.text.replacingOccurrences(of: "-", with: "/")
    }

    /// Midnight UTC of a `yyyy/MM/dd` or `yyyy-MM-dd` day (month and day may have one digit);
    /// nil for anything else, including days that do not exist. Read as UTF-8 bytes: a day is
    /// ASCII, and a byte below 0x80 is always the ASCII character it reads as.
    static func parse(_ text: String) -> Date? {
        let separator = text.utf8.contains(UInt8(ascii: "/")) ? UInt8(ascii: "/") : UInt8(ascii: "-")
        let parts = text.utf8.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
              let year = decimal(parts[0]), let month = decimal(parts[1]), let day = decimal(parts[2]),
              (1...12).contains(month), (1...CivilDateTime.daysInMonth(month, year: year)).contains(day)
        else { return nil }
        return CivilDateTime.date(year: year, month: month, day: day)
    }

    /// The number the ASCII digits write; nil when any byte is not one.
    private static func decimal(_ digits: Substring.UTF8View) -> Int? {
        var value = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension String {
    /// At most 100 characters, ending in "…" when cut, for echoing file contents back in messages.
    var shortenedForDisplay: String {
        count > 100 ? String(prefix(99)) + "…" : self
    }

    /// The text as `trimmingCharacters(in: .whitespacesAndNewlines)` leaves it, for an import's
    /// cells. Foundation's goes through NSString, a third of parsing a 50,000-row file (issue 58):
    /// ASCII whitespace is cut here, and only text that then begins or ends beyond ASCII, where
    /// Unicode's other spaces and line separators are, is left to Foundation.
    var trimmedOfWhitespace: String {
        let bytes = utf8
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, Self.isASCIIWhitespace(bytes[start]) { bytes.formIndex(after: &start) }
        while start < end, Self.isASCIIWhitespace(bytes[bytes.index(before: end)]) { bytes.formIndex(before: &end) }
        guard start < end else { return "" }
        guard bytes[start] < 0x80, bytes[bytes.index(before: end)] < 0x80 else { return trimmingCharacters(in: .whitespacesAndNewlines) }
        return start == bytes.startIndex && end == bytes.endIndex ? self : String(self[start..<end])
    }

    /// Tab, the line breaks LF, VT, FF and CR, and space: the ASCII members of `.whitespacesAndNewlines`.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        (0x09...0x0D).contains(byte) || byte == 0x20
    }
}
