import CivilTime
import Foundation

/// An iCalendar stream (RFC 5545) of all-day events: the household's birthdays and occasions
/// (`/calendar/{token}.ics`). Written by hand as `AtomFeed` is: CRLF line ends, lines folded at
/// 75 octets without splitting a character, and text escaped as section 3.3.11 says.
struct ICalendar {
    struct Event {
        enum Recurrence {
            /// Once, on this day.
            case once
            /// Every year on the start's month and day; 29 February falls on 28 February in other
            /// years (the rule's last day of February), as on `/people`.
            case yearly
        }

        let uid: String
        let summary: String
        /// The day: year, month, day. A yearly event starts in 2000, a leap year, so that 29
        /// February is a day its first year has.
        let start: (year: Int, month: Int, day: Int)
        let recurrence: Recurrence
        let url: String
    }

    let name: String
    let stamp: Date
    let events: [Event]

    var text: String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Bestseller Wishlist//Occasions//EN", "CALSCALE:GREGORIAN",
                     "X-WR-CALNAME:" + Self.escaped(name)]
        let stamp = Self.moment(stamp)
        for event in events {
            lines += [
                "BEGIN:VEVENT", "UID:" + event.uid, "DTSTAMP:" + stamp,
                "DTSTART;VALUE=DATE:" + Self.day(event.start),
                "DTEND;VALUE=DATE:" + Self.day(Self.nextDay(event.start)),
                "SUMMARY:" + Self.escaped(event.summary), "URL;VALUE=URI:" + event.url, "TRANSP:TRANSPARENT",
            ]
            if event.recurrence == .yearly {
                lines.append(event.start.month == 2 && event.start.day == 29 ? "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1" : "RRULE:FREQ=YEARLY")
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(Self.folded).joined(separator: "\r\n") + "\r\n"
    }

    /// TEXT as section 3.3.11 writes it: backslash, semicolon, comma and line breaks escaped.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\n", "\r\n", "\r": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A content line folded after at most 75 octets, each continuation starting with a space
    /// (section 3.1), never inside a UTF-8 sequence.
    static func folded(_ line: String) -> String {
        var result = ""
        var octets = 0
        var limit = 75
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if octets + size > limit {
                result += "\r\n "
                octets = 1
                limit = 75
            }
            result.unicodeScalars.append(scalar)
            octets += size
        }
        return result
    }

    static func day(_ day: (year: Int, month: Int, day: Int)) -> String {
        var text = ""
        text.appendPadded(day.year, minimumDigits: 4)
        text.appendPadded(day.month, minimumDigits: 2)
        text.appendPadded(day.day, minimumDigits: 2)
        return text
    }

    static func nextDay(_ day: (year: Int, month: Int, day: Int)) -> (year: Int, month: Int, day: Int) {
        if day.day < CivilDateTime.daysInMonth(day.month, year: day.year) { return (day.year, day.month, day.day + 1) }
        return day.month == 12 ? (day.year + 1, 1, 1) : (day.year, day.month + 1, 1)
    }

    /// A UTC moment as `YYYYMMDDTHHMMSSZ`.
    static func moment(_ date: Date) -> String {
        let moment = CivilDateTime(date)
        var text = day((moment.year, moment.month, moment.day)) + "T"
        text.appendPadded(moment.hour, minimumDigits: 2)
        text.appendPadded(moment.minute, minimumDigits: 2)
        text.appendPadded(moment.second, minimumDigits: 2)
        return text + "Z"
    }
}
