import CivilTime
import Foundation

/// A book a member has read, with what they thought of it.
public struct Reading: Sendable, Equatable {
    public let id: ReadingID
    /// The catalog's id, or nil for a book read elsewhere (imported from Goodreads).
    public let bookID: String?
    public let title: String
    public let author: String
    /// The book's ISBN-13 when known, so an export to Goodreads finds the same edition.
    public let isbn13: String
    public let rating: Int?
    public let review: String
    public let finished: FinishedDate?
    public let updatedAt: Date
}

/// The orders of "Books I've read".
public enum ReadingSort: String, Sendable, CaseIterable {
    case finished, rating, title, author

    /// Every order ends on the reading's id, so that readings alike in everything else fall on
    /// exactly one page of a ``PagedList``.
    var orderBy: String {
        switch self {
        // Books without a date come after the dated ones, most recently recorded first.
        case .finished: "finished_on IS NULL, finished_on DESC, updated_at DESC, id DESC"
        case .rating: "rating IS NULL, rating DESC, finished_on DESC, title COLLATE NOCASE, id"
        case .title: "title COLLATE NOCASE, author COLLATE NOCASE, id"
        case .author: "author COLLATE NOCASE, title COLLATE NOCASE, id"
        }
    }
}

/// The day a book was finished, as a reader gives it: `YYYY-MM-DD`, a real calendar day.
public struct FinishedDate: Sendable, Equatable, Comparable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Reads `YYYY-MM-DD`; nil for anything else, or a day that does not exist.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              year >= 1000, (1...12).contains(month), (1...CivilDateTime.daysInMonth(month, year: year)).contains(day)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The calendar day of `date` in UTC.
    public init(_ date: Date) {
        let moment = CivilDateTime(date)
        (year, month, day) = (moment.year, moment.month, moment.day)
    }

    public var text: String {
        CivilDateTime.isoDate(year: year, month: month, day: day)
    }

    /// The latest day a reader may give: the date somewhere on Earth already has (UTC+14), so
    /// "today" is accepted wherever the reader lives, and no later day anywhere.
    public static func latestAllowed(at now: Date) -> FinishedDate {
        FinishedDate(now.addingTimeInterval(14 * 3600))
    }

    public static func < (lhs: FinishedDate, rhs: FinishedDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// What a reading's form got wrong, named by what it is about (as ``AccountProblem`` is): the
/// web layer words each and shows it beside its field.
public enum ReadingProblem: Hashable, Sendable {
    /// Not one to five stars.
    case rating
    /// Over ``ReadingInput/reviewMaximumLength`` characters: it has `characters`.
    case reviewTooLong(characters: Int)
    /// Not a date written year, month and day.
    case finishedUnreadable
    /// A finishing date after today.
    case finishedInFuture
}

/// What a reader entered about a book, checked.
public struct ReadingInput: Sendable, Equatable {
    public static let reviewMaximumLength = 5000

    public let rating: Int?
    public let review: String
    public let finished: FinishedDate?

    public init(rating: Int?, review: String, finished: FinishedDate?) {
        self.rating = rating
        self.review = review
        self.finished = finished
    }

    /// What is wrong with what was entered, in the form's order; empty when all is well.
    public static func problems(rating: String, review: String, finished: String, now: Date) -> [ReadingProblem] {
        var problems: [ReadingProblem] = []
        if !rating.isEmpty, Int(rating).map({ (1...5).contains($0) }) != true {
            problems.append(.rating)
        }
        if review.count > reviewMaximumLength {
            problems.append(.reviewTooLong(characters: review.count))
        }
        if !finished.isEmpty {
            if let date = FinishedDate(finished) {
                if date > FinishedDate.latestAllowed(at: now) { problems.append(.finishedInFuture) }
            } else {
                problems.append(.finishedUnreadable)
            }
        }
        return problems
    }

    /// The input, when ``problems(rating:review:finished:now:)`` found none.
    public init?(rating: String, review: String, finished: String, now: Date) {
        guard Self.problems(rating: rating, review: review, finished: finished, now: now).isEmpty else { return nil }
        self.init(rating: Int(rating), review: review.trimmingCharacters(in: .whitespacesAndNewlines), finished: FinishedDate(finished))
    }
}

/// What the household (the members who share) thinks of one book.
public struct HouseholdOpinion: Sendable, Equatable {
    public struct Review: Sendable, Equatable {
        public let username: String
        /// The reviewer's name to show (``MemberName``).
        public let name: String
        public let rating: Int?
        public let review: String
        public let finished: FinishedDate?
    }

    public let wantCount: Int
    public let readCount: Int
    public let averageRating: Double?
    public let ratingCount: Int
    /// Readings with a rating or a review, newest first.
    public let reviews: [Review]

    public static let none = HouseholdOpinion(wantCount: 0, readCount: 0, averageRating: nil, ratingCount: 0, reviews: [])
}

/// A book's household figures as a list row shows them: "2 here want it", "★ 4.5 (3)".
public struct BookStanding: Sendable, Hashable {
    public let wantCount: Int
    public let averageRating: Double?
    public let ratingCount: Int

    public static let none = BookStanding(wantCount: 0, averageRating: nil, ratingCount: 0)

    /// The same figures less the viewer's own `count` wishes.
    func withoutOwnWants(_ count: Int) -> BookStanding {
        BookStanding(wantCount: max(0, wantCount - count), averageRating: averageRating, ratingCount: ratingCount)
    }
}
