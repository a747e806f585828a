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
    /// nil for anything else, including days that do not exist.
    static func parse(_ text: String) -> Date? {
        let separator: Character = text.contains("/") ? "/" : "-"
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }),
              parts[0].utf8.count == 4, parts[1].utf8.count <= 2, parts[2].utf8.count <= 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...CivilDateTime.daysInMonth(month, year: year)).contains(day)
        else { return nil }
        return CivilDateTime.date(year: year, month: month, day: day)
    }
}

extension String {
    /// At most 100 characters, ending in "…" when cut, for echoing file contents back in messages.
    var shortenedForDisplay: String {
        count > 100 ? String(prefix(99)) + "…" : self
    }
}
