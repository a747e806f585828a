import Foundation

/// A moment broken down into proleptic Gregorian calendar fields in UTC.
///
/// Computed with integer arithmetic rather than `Calendar`, so it is cheap enough to
/// run on every render, needs no shared, non-thread-safe formatter state, and keeps ICU out of
/// the process: Foundation's `Calendar`, `TimeZone(identifier:)` and date formatters load it,
/// about 5 MB of resident memory for arithmetic that needs no locale.
package struct CivilDateTime {
    package let year: Int
    package let month: Int
    package let day: Int
    package let hour: Int
    package let minute: Int
    package let second: Int
    /// The part of the second after `second`, in [0, 1).
    package let fraction: Double
    /// 0 = Sunday … 6 = Saturday.
    package let weekday: Int

    private static let secondsPerDay = 86_400
    /// About ±3 million years: far beyond any real date, and safely inside `Int`.
    private static let representableSeconds = 1e14

    package init(_ date: Date) {
        let interval = date.timeIntervalSince1970
        let clamped = interval.isFinite ? min(max(interval, -Self.representableSeconds), Self.representableSeconds) : 0
        let wholeSeconds = clamped.rounded(.down)
        let seconds = Int(wholeSeconds)
        let days = Self.floorDivide(seconds, Self.secondsPerDay)
        let secondOfDay = seconds - days * Self.secondsPerDay
        (year, month, day) = Self.civilDate(fromDaysSinceEpoch: days)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        fraction = clamped - wholeSeconds
        weekday = Self.floorModulo(days + 4, 7)  // 1970-01-01 was a Thursday.
    }

    /// `yyyy-MM-dd`, the default rendering of a date.
    package var isoDate: String {
        Self.isoDate(year: year, month: month, day: day)
    }

    /// `yyyy-MM-dd` of a calendar day held as its fields.
    package static func isoDate(year: Int, month: Int, day: Int) -> String {
        var text = ""
        text.appendPadded(year, minimumDigits: 4)
        text.append("-")
        text.appendPadded(month, minimumDigits: 2)
        text.append("-")
        text.appendPadded(day, minimumDigits: 2)
        return text
    }

    /// `yyyy-MM-ddTHH:mm:ssZ`, RFC 3339 in UTC, to the second.
    package var rfc3339: String {
        var text = isoDate
        text.append("T")
        text.appendPadded(hour, minimumDigits: 2)
        text.append(":")
        text.appendPadded(minute, minimumDigits: 2)
        text.append(":")
        text.appendPadded(second, minimumDigits: 2)
        text.append("Z")
        return text
    }

    package static func date(
        year: Int, month: Int, day: Int,
        hour: Int = 0, minute: Int = 0, second: Int = 0, fraction: Double = 0,
        utcOffsetSeconds: Int = 0
    ) -> Date {
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * secondsPerDay + hour * 3600 + minute * 60 + second - utcOffsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    package static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    // The two conversions below count days in 400-year eras starting on 1 March,
    // which puts the leap day at the end of each counted year and keeps the
    // arithmetic free of month tables.

    private static func civilDate(fromDaysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // Days from 0000-03-01 to 1970-01-01.
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchBasedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchBasedMonth + 2) / 5 + 1
        let month = marchBasedMonth < 10 ? marchBasedMonth + 3 : marchBasedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let marchBasedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(marchBasedYear, 400)
        let yearOfEra = marchBasedYear - era * 400
        let marchBasedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * marchBasedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func floorDivide(_ dividend: Int, _ divisor: Int) -> Int {
        let quotient = dividend / divisor
        return (dividend % divisor != 0 && (dividend < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    private static func floorModulo(_ dividend: Int, _ divisor: Int) -> Int {
        dividend - floorDivide(dividend, divisor) * divisor
    }
}

package extension String {
    /// Appends `value` in decimal, left-padded with zeros to `minimumDigits`.
    mutating func appendPadded(_ value: Int, minimumDigits: Int) {
        let digits = String(value.magnitude)
        if value < 0 { append("-") }
        if digits.utf8.count < minimumDigits {
            append(String(repeating: "0", count: minimumDigits - digits.utf8.count))
        }
        append(digits)
    }
}
