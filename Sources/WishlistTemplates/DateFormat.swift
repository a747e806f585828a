import CivilTime
import Foundation

/// A date pattern in DateFormatter (Unicode LDML) syntax, compiled once and applied in
/// UTC with en_US_POSIX names.
///
/// Supports the fields pages need: `y yy yyyy`, `M MM MMM MMMM MMMMM` (and `L`),
/// `d dd`, `E…EEE EEEE EEEEE`, `H HH`, `h hh`, `m mm`, `s ss`, `S…` (fraction),
/// `a`, `Z…ZZZZZ`, `X…` and `'quoted text'` (`''` is a single quote). Any other ASCII
/// letter is rejected when the template compiles, which also catches the classic
/// `YYYY` (week-based year) and `DD` (day of year) mistakes.
struct DateFormat: Sendable {
    struct InvalidPattern: Error {
        let message: String
    }

    private enum NameWidth: Sendable {
        case abbreviated, wide, narrow

        init(letterCount: Int) {
            self = switch letterCount {
            case 4: .wide
            case 5...: .narrow
            default: .abbreviated
            }
        }

        func pick(from wideNames: [String], index: Int) -> Substring {
            let name = wideNames[index]
            switch self {
            case .wide: return name[...]
            case .abbreviated: return name.prefix(3)
            case .narrow: return name.prefix(1)
            }
        }
    }

    private enum Field: Sendable {
        case literal(String)
        case year(minimumDigits: Int)
        case twoDigitYear
        case monthNumber(minimumDigits: Int)
        case monthName(NameWidth)
        case day(minimumDigits: Int)
        case weekdayName(NameWidth)
        case hourOf24(minimumDigits: Int)
        case hourOf12(minimumDigits: Int)
        case minute(minimumDigits: Int)
        case second(minimumDigits: Int)
        case fractionalSecond(digits: Int)
        case dayPeriod
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    private static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let supportedLetters = "y, M, L, d, E, H, h, m, s, S, a, Z, X"

    private let fields: [Field]

    init(pattern: String) throws(InvalidPattern) {
        var fields: [Field] = []
        var characters = pattern[...]
        while let character = characters.first {
            if character == "'" {
                fields.append(.literal(try Self.readQuoted(&characters, pattern: pattern)))
            } else if character.isASCII, character.isLetter {
                let count = characters.prefix { $0 == character }.count
                characters = characters.dropFirst(count)
                fields.append(try Self.field(letter: character, count: count, pattern: pattern))
            } else {
                fields.append(.literal(String(character)))
                characters = characters.dropFirst()
            }
        }
        self.fields = fields
    }

    func string(from date: Date) -> String {
        let moment = CivilDateTime(date)
        var text = ""
        for field in fields {
            append(field, of: moment, to: &text)
        }
        return text
    }

    private func append(_ field: Field, of moment: CivilDateTime, to text: inout String) {
        switch field {
        case .literal(let literal): text.append(literal)
        case .year(let digits): text.appendPadded(moment.year, minimumDigits: digits)
        case .twoDigitYear: text.appendPadded(abs(moment.year) % 100, minimumDigits: 2)
        case .monthNumber(let digits): text.appendPadded(moment.month, minimumDigits: digits)
        case .monthName(let width): text.append(contentsOf: width.pick(from: Self.monthNames, index: moment.month - 1))
        case .day(let digits): text.appendPadded(moment.day, minimumDigits: digits)
        case .weekdayName(let width): text.append(contentsOf: width.pick(from: Self.weekdayNames, index: moment.weekday))
        case .hourOf24(let digits): text.appendPadded(moment.hour, minimumDigits: digits)
        case .hourOf12(let digits): text.appendPadded(moment.hour % 12 == 0 ? 12 : moment.hour % 12, minimumDigits: digits)
        case .minute(let digits): text.appendPadded(moment.minute, minimumDigits: digits)
        case .second(let digits): text.appendPadded(moment.second, minimumDigits: digits)
        case .fractionalSecond(let digits):
            let scaled = Int((moment.fraction * pow(10, Double(digits))).rounded(.down))
            text.appendPadded(scaled, minimumDigits: digits)
        case .dayPeriod: text.append(moment.hour < 12 ? "AM" : "PM")
        }
    }

    private static func field(letter: Character, count: Int, pattern: String) throws(InvalidPattern) -> Field {
        switch letter {
        case "y": return count == 2 ? .twoDigitYear : .year(minimumDigits: count)
        case "M", "L": return count <= 2 ? .monthNumber(minimumDigits: count) : .monthName(NameWidth(letterCount: count))
        case "d": return .day(minimumDigits: min(count, 2))
        case "E": return .weekdayName(NameWidth(letterCount: count))
        case "H": return .hourOf24(minimumDigits: min(count, 2))
        case "h": return .hourOf12(minimumDigits: min(count, 2))
        case "m": return .minute(minimumDigits: min(count, 2))
        case "s": return .second(minimumDigits: min(count, 2))
        case "S": return .fractionalSecond(digits: min(count, 9))
        case "a": return .dayPeriod
        // Dates render in UTC, so the zone fields are constants.
        case "Z": return .literal(count == 4 ? "GMT" : count >= 5 ? "Z" : "+0000")
        case "X": return .literal("Z")
        default:
            throw InvalidPattern(message: "unsupported date field '\(String(repeating: letter, count: count))' in \"\(pattern)\"; supported letters are \(supportedLetters); quote literal text like 'at'")
        }
    }

    private static func readQuoted(_ characters: inout Substring, pattern: String) throws(InvalidPattern) -> String {
        characters = characters.dropFirst()
        if characters.first == "'" {
            characters = characters.dropFirst()
            return "'"
        }
        var literal = ""
        while let character = characters.first {
            characters = characters.dropFirst()
            if character != "'" {
                literal.append(character)
            } else if characters.first == "'" {
                literal.append("'")
                characters = characters.dropFirst()
            } else {
                return literal
            }
        }
        throw InvalidPattern(message: "unterminated quoted text in date format \"\(pattern)\"")
    }
}
