import CivilTime

/// The API's publication dates, checked when a response arrives: each becomes part of a page's
/// address, a database key and a feed's timestamp, so a response with one that is not a real
/// day written `YYYY-MM-DD` is refused whole as malformed (issue 27), like any body we cannot read.
protocol PublicationDated {
    /// Every date the response carries; nil or empty where the API may leave one out.
    var publicationDates: [String?] { get }
}

enum PublicationDate {
    /// Whether `text` is a day of the Gregorian calendar written `YYYY-MM-DD` (`2026-02-30` is not).
    static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month) else { return false }
        return year >= 1900 && (1...CivilDateTime.daysInMonth(month, year: year)).contains(day)
    }

    /// A date the API must send: empty is as wrong as any other text that is not a day.
    static func required(_ text: String) -> String { text.isEmpty ? "(empty)" : text }

    /// The first date of `response` that is not a day, if any.
    static func firstInvalid(in response: Any) -> String? {
        guard let dated = response as? any PublicationDated else { return nil }
        return dated.publicationDates.compactMap { $0 }.first { !$0.isEmpty && !isDay($0) }
    }
}

extension NYTNamesResponse: PublicationDated {
    var publicationDates: [String?] { results.flatMap { [$0.oldestPublishedDate, PublicationDate.required($0.newestPublishedDate)] } }
}

extension NYTOverviewResponse: PublicationDated {
    var publicationDates: [String?] {
        [PublicationDate.required(results.publishedDate)] + results.lists.flatMap(\.publicationDates)
    }
}

extension NYTListResponse: PublicationDated {
    var publicationDates: [String?] { results.publicationDates }
}

extension NYTList {
    var publicationDates: [String?] { [publishedDate, previousPublishedDate, nextPublishedDate] }
}
