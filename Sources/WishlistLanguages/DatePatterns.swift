import CivilTime

/// A language's four CLDR date patterns (full, long, medium, short), parsed once.
package struct DatePatterns: Sendable {
    package enum Style: Sendable {
        case full, long, medium, short
    }

    private let full: DatePattern
    private let long: DatePattern
    private let medium: DatePattern
    private let short: DatePattern

    /// Patterns from the generated data: one that does not parse is a bug in the generator, caught by
    /// the first test that touches the language.
    init(full: String, long: String, medium: String, short: String) {
        self.full = DatePattern(full)
        self.long = DatePattern(long)
        self.medium = DatePattern(medium)
        self.short = DatePattern(short)
    }

    subscript(style: Style) -> DatePattern {
        switch style {
        case .full: full
        case .long: long
        case .medium: medium
        case .short: short
        }
    }
}

/// A CLDR date pattern (LDML syntax) reduced to the fields a date without time needs: `y`, `yy`,
/// `M`… `MMMM` (and `L`), `d`, `dd`, `E`… `EEEE`, and `'quoted text'`.
struct DatePattern: Sendable {
    private enum Field: Sendable {
        case literal(String)
        case year, twoDigitYear
        case month(digits: Int), monthName, abbreviatedMonthName
        case day(digits: Int)
        case weekdayName, abbreviatedWeekdayName
    }

    private let fields: [Field]

    init(_ pattern: String) {
        var fields: [Field] = []
        var characters = pattern[...]
        while let first = characters.first {
            if first == "'" {
                let quoted = characters.dropFirst().prefix { $0 != "'" }
                fields.append(.literal(quoted.isEmpty ? "'" : String(quoted)))
                characters = characters.dropFirst(quoted.count + 2)
            } else if first.isASCII, first.isLetter {
                let run = characters.prefix { $0 == first }
                fields.append(Self.field(letter: first, count: run.count, in: pattern))
                characters = characters.dropFirst(run.count)
            } else {
                let text = characters.prefix { $0 != "'" && !($0.isASCII && $0.isLetter) }
                fields.append(.literal(String(text)))
                characters = characters.dropFirst(text.count)
            }
        }
        self.fields = fields
    }

    private static func field(letter: Character, count: Int, in pattern: String) -> Field {
        switch (letter, count) {
        case ("y", 2): .twoDigitYear
        case ("y", _): .year
        case ("M", 1...2), ("L", 1...2): .month(digits: count)
        case ("M", 3), ("L", 3): .abbreviatedMonthName
        case ("M", _), ("L", _): .monthName
        case ("d", 1...2): .day(digits: count)
        case ("E", 1...3): .abbreviatedWeekdayName
        case ("E", _): .weekdayName
        default: preconditionFailure("date pattern \(pattern): \(String(repeating: letter, count: count)) is no date field")
        }
    }

    func format(_ date: CivilDateTime, in language: LanguageData) -> String {
        var text = ""
        for field in fields {
            switch field {
            case .literal(let literal): text += literal
            case .year: text += String(date.year)
            case .twoDigitYear: text += Self.padded(date.year % 100, digits: 2)
            case .month(let digits): text += Self.padded(date.month, digits: digits)
            case .monthName: text += language.monthNames[date.month - 1]
            case .abbreviatedMonthName: text += language.abbreviatedMonthNames[date.month - 1]
            case .day(let digits): text += Self.padded(date.day, digits: digits)
            case .weekdayName: text += language.weekdayNames[date.weekday]
            case .abbreviatedWeekdayName: text += language.abbreviatedWeekdayNames[date.weekday]
            }
        }
        return text
    }

    private static func padded(_ number: Int, digits: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
