import Foundation

/// A POSIX TZ string as a TZif footer gives it (RFC 8536 §3.3), the rule for instants after the
/// file's last transition. `CET-1CEST,M3.5.0,M10.5.0/3` is one hour east of UTC, and two from
/// 02:00 on the last Sunday of March until 03:00 on the last Sunday of October.
struct PosixTimeZone: Sendable, Equatable {
    /// Seconds east of UTC. The string counts hours west, so `CET-1` is 3600.
    let standardOffset: Int
    let daylightSaving: DaylightSaving?

    struct DaylightSaving: Sendable, Equatable {
        let offset: Int
        /// In standard time.
        let start: Change
        /// In daylight saving time.
        let end: Change
    }

    /// When in a year the clocks change, in the local time in effect until then.
    struct Change: Sendable, Equatable {
        let day: Day
        /// From the day's midnight; RFC 8536 §3.3.1 allows -167 to 167 hours, which can move the
        /// change into another day, month, or year.
        let time: Int
    }

    enum Day: Sendable, Equatable {
        /// `Jn`: 1 to 365, never counting 29 February, so 60 is always 1 March.
        case julianSkippingLeapDay(Int)
        /// `n`: 0 to 365, counting 29 February in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` of month `m`, week 5 being the last.
        case weekdayOfMonth(month: Int, week: Int, weekday: Int)
    }

    func utcOffset(atSecondsSince1970 seconds: Int) -> Int {
        guard let daylightSaving, daylightSaving.isInEffect(at: seconds, standardOffset: standardOffset) else {
            return standardOffset
        }
        return daylightSaving.offset
    }

    /// Nil when `text` is not a TZ string. A daylight saving name must come with its rule: POSIX
    /// leaves a missing rule to the implementation, and tzdata's footers always give one.
    init?(parsing text: some Collection<UInt8>) {
        var parser = PosixTimeZoneParser(Array(text))
        guard let zone = parser.parse() else { return nil }
        self = zone
    }

    init(standardOffset: Int, daylightSaving: DaylightSaving?) {
        self.standardOffset = standardOffset
        self.daylightSaving = daylightSaving
    }
}

extension PosixTimeZone.DaylightSaving {
    /// The latest change at or before `seconds` decides. The changes of the year before last are
    /// among the candidates because a change time up to 167 hours can carry a year's changes into
    /// the next year. Of two changes at one instant the later-listed wins, so a zone that ends
    /// daylight saving time as it starts it again (`0/0,J365/25`) stays in it all year.
    func isInEffect(at seconds: Int, standardOffset: Int) -> Bool {
        let year = CivilDateTime(Date(timeIntervalSince1970: TimeInterval(seconds))).year
        var latest: (instant: Int, isDaylightSaving: Bool)?
        for changeYear in (year - 2)...(year + 1) {
            let changes = [
                (start.instant(in: changeYear, utcOffsetBefore: standardOffset), true),
                (end.instant(in: changeYear, utcOffsetBefore: offset), false),
            ]
            for (instant, isDaylightSaving) in changes where instant <= seconds && instant >= latest?.instant ?? .min {
                latest = (instant, isDaylightSaving)
            }
        }
        return latest?.isDaylightSaving ?? false
    }
}

extension PosixTimeZone.Change {
    /// Seconds since 1970 at which this change happens in `year`.
    func instant(in year: Int, utcOffsetBefore utcOffset: Int) -> Int {
        day.daysSinceEpoch(in: year) * 86_400 + time - utcOffset
    }
}

extension PosixTimeZone.Day {
    func daysSinceEpoch(in year: Int) -> Int {
        let newYearsDay = CivilDateTime.daysSinceEpoch(year: year, month: 1, day: 1)
        switch self {
        case .julianSkippingLeapDay(let day):
            let skipsLeapDay = day >= 60 && CivilDateTime.daysInMonth(2, year: year) == 29
            return newYearsDay + day - 1 + (skipsLeapDay ? 1 : 0)
        case .zeroBased(let day):
            return newYearsDay + day
        case .weekdayOfMonth(let month, let week, let weekday):
            return Self.daysSinceEpoch(year: year, month: month, week: week, weekday: weekday)
        }
    }

    private static func daysSinceEpoch(year: Int, month: Int, week: Int, weekday: Int) -> Int {
        let firstOfMonth = CivilDateTime.daysSinceEpoch(year: year, month: month, day: 1)
        let firstWeekday = CivilDateTime(CivilDateTime.date(year: year, month: month, day: 1)).weekday
        let day = firstOfMonth + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
        // Week 5 means the last such weekday, which in a short month is the fourth.
        let isPastMonthEnd = day >= firstOfMonth + CivilDateTime.daysInMonth(month, year: year)
        return isPastMonthEnd ? day - 7 : day
    }
}

/// `std offset [dst [offset] ,start[/time],end[/time]]`, as POSIX and RFC 8536 §3.3 define it.
private struct PosixTimeZoneParser {
    private static let hour = 3600
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parse() -> PosixTimeZone? {
        guard skipName(), let standardWest = duration(maximumHours: 24) else { return nil }
        if isAtEnd { return PosixTimeZone(standardOffset: -standardWest, daylightSaving: nil) }
        guard skipName() else { return nil }
        // Without its own offset, daylight saving time is one hour ahead of standard time.
        let daylightWest = isNext(",") ? standardWest - Self.hour : duration(maximumHours: 24)
        guard let daylightWest, skip(","), let start = change(), skip(","), let end = change(), isAtEnd else {
            return nil
        }
        let daylightSaving = PosixTimeZone.DaylightSaving(offset: -daylightWest, start: start, end: end)
        return PosixTimeZone(standardOffset: -standardWest, daylightSaving: daylightSaving)
    }

    /// Three or more letters, or `<…>` around three or more letters, digits and signs (`<+0530>`).
    private mutating func skipName() -> Bool {
        guard skip("<") else { return skipWhile(Self.isLetter) >= 3 }
        return skipWhile { Self.isLetter($0) || Self.isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") } >= 3
            && skip(">")
    }

    /// `[+|-]hh[:mm[:ss]]` in seconds.
    private mutating func duration(maximumHours: Int) -> Int? {
        let sign = skip("-") ? -1 : 1
        if sign == 1 { _ = skip("+") }
        guard let hours = number(maximumDigits: 3), hours <= maximumHours else { return nil }
        var seconds = hours * Self.hour
        if skip(":") {
            guard let minutes = number(maximumDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if skip(":") {
                guard let wholeSeconds = number(maximumDigits: 2), wholeSeconds < 60 else { return nil }
                seconds += wholeSeconds
            }
        }
        return sign * seconds
    }

    /// `day[/time]`, the time 02:00 when left out.
    private mutating func change() -> PosixTimeZone.Change? {
        guard let day = day() else { return nil }
        guard skip("/") else { return PosixTimeZone.Change(day: day, time: 2 * Self.hour) }
        guard let time = duration(maximumHours: 167) else { return nil }
        return PosixTimeZone.Change(day: day, time: time)
    }

    private mutating func day() -> PosixTimeZone.Day? {
        if skip("J") {
            guard let day = number(maximumDigits: 3), (1...365).contains(day) else { return nil }
            return .julianSkippingLeapDay(day)
        }
        if skip("M") {
            guard let month = number(maximumDigits: 2), (1...12).contains(month), skip("."),
                  let week = number(maximumDigits: 1), (1...5).contains(week), skip("."),
                  let weekday = number(maximumDigits: 1), (0...6).contains(weekday)
            else { return nil }
            return .weekdayOfMonth(month: month, week: week, weekday: weekday)
        }
        guard let day = number(maximumDigits: 3), (0...365).contains(day) else { return nil }
        return .zeroBased(day)
    }

    private var isAtEnd: Bool { offset == bytes.count }

    private func isNext(_ character: Unicode.Scalar) -> Bool {
        offset < bytes.count && bytes[offset] == UInt8(ascii: character)
    }

    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard isNext(character) else { return false }
        offset += 1
        return true
    }

    /// Skips the bytes that satisfy `predicate` and says how many there were.
    private mutating func skipWhile(_ predicate: (UInt8) -> Bool) -> Int {
        let start = offset
        while offset < bytes.count, predicate(bytes[offset]) { offset += 1 }
        return offset - start
    }

    private mutating func number(maximumDigits: Int) -> Int? {
        let start = offset
        var value = 0
        while offset - start < maximumDigits, offset < bytes.count, Self.isDigit(bytes[offset]) {
            value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
            offset += 1
        }
        return offset > start ? value : nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
