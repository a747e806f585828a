import CivilTime
import Foundation
import WishlistLanguages

/// What a member tells the household about themselves: a bio, a birthday, a picture and the
/// books they would press on anyone.
public struct Profile: Sendable, Equatable {
    public static let bioMaximumLength = 500
    public static let favoriteMaximumCount = 6

    /// The name the member chose to be known by, or nil: their username is shown.
    public let displayName: String?
    public let bio: String
    public let birthday: Birthday?
    /// The current picture's key (its address), or nil for initials on a colour.
    public let pictureKey: String?
    /// Up to six books from what the member has read, in the order chosen.
    public let favorites: [Reading]

    public static let empty = Profile(displayName: nil, bio: "", birthday: nil, pictureKey: nil, favorites: [])
}

/// A birthday without the year: month and day.
public struct Birthday: Sendable, Equatable {
    public let month: Int
    public let day: Int

    /// Any day that exists in some year, 29 February included.
    public init?(month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.longestMonth(month)).contains(day) else { return nil }
        (self.month, self.day) = (month, day)
    }

    /// Reads the stored `MM-DD`.
    init?(stored: String) {
        let parts = stored.split(separator: "-")
        guard parts.count == 2, let month = Int(parts[0]), let day = Int(parts[1]) else { return nil }
        self.init(month: month, day: day)
    }

    var stored: String {
        var text = ""
        text.appendPadded(month, minimumDigits: 2)
        text.append("-")
        text.appendPadded(day, minimumDigits: 2)
        return text
    }

    /// Days from `today` (a local calendar day) to the next birthday: 0 on the day. In a year
    /// without 29 February, a birthday on it is kept on the 28th.
    public func daysUntil(from today: (year: Int, month: Int, day: Int)) -> Int {
        let todayNumber = CivilDateTime.daysSinceEpoch(year: today.year, month: today.month, day: today.day)
        for year in [today.year, today.year + 1] {
            let day = min(day, CivilDateTime.daysInMonth(month, year: year))
            let number = CivilDateTime.daysSinceEpoch(year: year, month: month, day: day)
            if number >= todayNumber { return number - todayNumber }
        }
        return 366
    }

    /// "14 March" in the language's words and order ("14. März", "14 de marzo"): the catalog's
    /// "{day} {month}", as a birthday has no year for a CLDR date pattern.
    package func text(in translations: Translations) -> String {
        translations.text(
            "{day} {month}", context: "birthday", values: ["day": String(day), "month": translations.language.monthNames[month - 1]]
        )
    }

    private static func longestMonth(_ month: Int) -> Int {
        switch month {
        case 2: 29
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
