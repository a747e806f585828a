import Foundation

/// Reads the date strings the `date` filter accepts: `yyyy-MM-dd`, or an ISO 8601
/// timestamp such as `2024-03-09T14:05:00Z`, `2024-03-09T14:05:00.250+01:00` or
/// `2024-03-09 14:05` (no offset means UTC).
package struct ISODateParser {
    private let bytes: [UInt8]
    private var offset = 0

    package static func date(from text: String) -> Date? {
        var parser = ISODateParser(bytes: Array(text.utf8))
        return parser.parse()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func parse() -> Date? {
        guard let year = number(digits: 4), skip("-"),
              let month = number(digits: 2), skip("-"),
              let day = number(digits: 2),
              (1...12).contains(month), (1...CivilDateTime.daysInMonth(month, year: year)).contains(day)
        else { return nil }
        if isAtEnd { return CivilDateTime.date(year: year, month: month, day: day) }

        guard skip("T") || skip("t") || skip(" "),
              let hour = number(digits: 2), skip(":"),
              let minute = number(digits: 2),
              hour < 24, minute < 60
        else { return nil }
        var second = 0
        var fraction = 0.0
        if skip(":") {
            guard let parsedSecond = number(digits: 2), parsedSecond < 60 else { return nil }
            second = parsedSecond
            if skip(".") || skip(",") {
                guard let parsedFraction = fractionDigits() else { return nil }
                fraction = parsedFraction
            }
        }
        guard let utcOffset = utcOffsetSeconds(), isAtEnd else { return nil }
        return CivilDateTime.date(
            year: year, month: month, day: day,
            hour: hour, minute: minute, second: second, fraction: fraction,
            utcOffsetSeconds: utcOffset
        )
    }

    private var isAtEnd: Bool { offset == bytes.count }

    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: character) else { return false }
        offset += 1
        return true
    }

    private mutating func number(digits count: Int) -> Int? {
        guard offset + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[offset..<offset + count] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        offset += count
        return value
    }

    private mutating func fractionDigits() -> Double? {
        let start = offset
        while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        guard offset > start else { return nil }
        return Double("0." + String(decoding: bytes[start..<offset], as: UTF8.self))
    }

    /// `Z`, `±hh:mm`, `±hhmm`, `±hh`, or nothing (UTC); nil when malformed.
    private mutating func utcOffsetSeconds() -> Int? {
        if isAtEnd || skip("Z") || skip("z") { return 0 }
        let sign: Int
        if skip("+") {
            sign = 1
        } else if skip("-") {
            sign = -1
        } else {
            return nil
        }
        guard let hours = number(digits: 2) else { return nil }
        var minutes = 0
        if !isAtEnd {
            _ = skip(":")
            guard let parsedMinutes = number(digits: 2) else { return nil }
            minutes = parsedMinutes
        }
        guard hours < 24, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}

private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
}
