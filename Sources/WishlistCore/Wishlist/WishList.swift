import CivilTime
import Foundation

/// A list of a member's wants (issue 51): her default "Wishlist", a birthday list, a private
/// "Someday". A want may be on several lists; its note, priority and reservation are the want's.
public struct WishList: Sendable, Equatable {
    public let id: ListID
    public let ownerID: UserID
    public let name: String
    public let occasion: Occasion
    /// The day of a `date` occasion, `YYYY-MM-DD`; nil for the others.
    public let occasionDate: String?
    public let visibility: ListVisibility
    /// The list every account has, that cannot be deleted and that a new want goes to.
    public let isDefault: Bool
    public let createdAt: Date
    /// How many wants are on it.
    public let itemCount: Int
}

/// A member's days that matter to givers: her birthday, if she set one, and her lists the
/// household sees that have an occasion.
public struct SharedOccasions: Sendable, Equatable {
    public let ownerID: UserID
    public let username: String
    /// The name to show (``MemberName``).
    public let name: String
    public let birthday: Birthday?
    public let lists: [WishList]
}

extension WishList {
    /// Days from `today` (a local calendar day) to the list's next occasion, 0 on the day: her
    /// birthday (`birthday`, nil when she set none), 25 December, or the list's date while it is
    /// still to come; nil for no occasion, or one that has passed or cannot be reckoned.
    public func daysUntilOccasion(birthday: Birthday?, from today: (year: Int, month: Int, day: Int)) -> Int? {
        switch occasion {
        case .none: return nil
        case .birthday: return birthday?.daysUntil(from: today)
        case .christmas: return Birthday(month: 12, day: 25)!.daysUntil(from: today)
        case .date:
            let parts = (occasionDate ?? "").split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            let days = CivilDateTime.daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
                - CivilDateTime.daysSinceEpoch(year: today.year, month: today.month, day: today.day)
            return days >= 0 ? days : nil
        }
    }
}

/// A list's id.
public typealias ListID = ID<WishList>

/// What a list is for, which tells givers when it matters.
public enum Occasion: String, Sendable, CaseIterable {
    case none, birthday, christmas, date
}

/// Who sees a list: the household (as far as its owner shares), or its owner alone.
public enum ListVisibility: String, Sendable, CaseIterable {
    case household
    case `private`
}

/// What the list form holds, checked before anything is written.
public struct WishListDraft: Sendable, Equatable {
    public static let nameMaximumLength = 60

    public var name: String
    public var occasion: String
    public var date: String
    public var visibility: String

    public init(name: String, occasion: String, date: String, visibility: String) {
        self.name = name
        self.occasion = occasion
        self.date = date
        self.visibility = visibility
    }

    /// The checked fields, or the problems the web layer words beside each field.
    public func checked() -> Result<Checked, WishListProblems> {
        var problems: WishListProblems = []
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { problems.insert(.nameMissing) }
        if name.count > Self.nameMaximumLength { problems.insert(.nameTooLong) }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { problems.insert(.nameControlCharacters) }
        let occasion = Occasion(rawValue: occasion)
        if occasion == nil { problems.insert(.occasion) }
        var date: String?
        if occasion == .date {
            date = Self.validDate(self.date)
            if date == nil { problems.insert(.date) }
        }
        let visibility = ListVisibility(rawValue: visibility)
        if visibility == nil { problems.insert(.visibility) }
        guard problems.isEmpty, let occasion, let visibility else { return .failure(problems) }
        return .success(Checked(name: name, occasion: occasion, date: date, visibility: visibility))
    }

    public struct Checked: Sendable, Equatable {
        public let name: String
        public let occasion: Occasion
        public let date: String?
        public let visibility: ListVisibility
    }

    /// `YYYY-MM-DD` naming a day that exists (years 1900–2999), as written.
    static func validDate(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1900...2999).contains(year), (1...12).contains(month), (1...CivilDateTime.daysInMonth(month, year: year)).contains(day)
        else { return nil }
        return text
    }
}

/// What is wrong with a list form, for the web layer to word beside its field.
public struct WishListProblems: OptionSet, Error, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let nameMissing = WishListProblems(rawValue: 1 << 0)
    public static let nameTooLong = WishListProblems(rawValue: 1 << 1)
    public static let nameControlCharacters = WishListProblems(rawValue: 1 << 2)
    public static let occasion = WishListProblems(rawValue: 1 << 3)
    /// `occasion=date` without a real `YYYY-MM-DD` day.
    public static let date = WishListProblems(rawValue: 1 << 4)
    public static let visibility = WishListProblems(rawValue: 1 << 5)
}
