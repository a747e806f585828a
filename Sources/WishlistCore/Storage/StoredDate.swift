import CivilTime
import Foundation
import GRDB

/// A date as the database keeps it: text, `yyyy-MM-dd HH:mm:ss.SSS` in UTC.
///
/// That is GRDB's own format for `Date`, so rows written before this type read the same, and the
/// text sorts and compares in SQL as the moments do. Every date bound to a statement or read from
/// a row goes through this type rather than GRDB's `Date` conformance, which formats with a
/// `DateFormatter` and reads through a `Calendar`: either loads ICU into the server, about 5 MB of
/// its resident memory, for arithmetic that needs no locale (docs/memory.md).
struct StoredDate: DatabaseValueConvertible, Sendable {
    let date: Date

    init(_ date: Date) {
        self.date = date
    }

    var databaseValue: DatabaseValue {
        Self.text(date).databaseValue
    }

    /// Text in the stored format, also what SQLite's date functions read: to the nearest
    /// millisecond, as GRDB's formatter wrote it.
    static func text(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let moment = CivilDateTime(Date(timeIntervalSince1970: seconds))
        var text = moment.isoDate
        text.append(" ")
        text.appendPadded(moment.hour, minimumDigits: 2)
        text.append(":")
        text.appendPadded(moment.minute, minimumDigits: 2)
        text.append(":")
        text.appendPadded(moment.second, minimumDigits: 2)
        text.append(".")
        text.appendPadded(Int(milliseconds - seconds * 1000), minimumDigits: 3)
        return text
    }

    /// Text in the stored format or any other ISO 8601 form SQLite writes (`CURRENT_TIMESTAMP`
    /// has no milliseconds), or a number of seconds since 1970, as GRDB read them.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredDate? {
        switch dbValue.storage {
        case .string(let text): ISODateParser.date(from: text).map(StoredDate.init)
        case .int64(let seconds): StoredDate(Date(timeIntervalSince1970: Double(seconds)))
        case .double(let seconds): StoredDate(Date(timeIntervalSince1970: seconds))
        case .null, .blob: nil
        }
    }
}

extension Row {
    /// The date in `column`, which must hold one.
    func date(_ column: String) -> Date {
        (self[column] as StoredDate).date
    }

    /// The date in `column`, or nil when it is NULL.
    func optionalDate(_ column: String) -> Date? {
        (self[column] as StoredDate?)?.date
    }
}
