import Foundation

/// A book a member is reading now (issue 57): at the top of her "Books I've read", and wherever
/// her reading is shown to others. Marking the book read ends it.
public struct CurrentReading: Sendable, Equatable {
    public let bookID: String
    public let title: String
    public let author: String
    public let startedAt: Date
}

/// How many books a member means to finish in a year: "7 of 24 books this year".
public enum ReadingGoal {
    public static let books = 1...1000

    /// What the goal form's field asks for.
    public enum Entry: Sendable, Equatable {
        case books(Int)
        /// Left empty: no goal.
        case cleared
        /// Not a whole number from 1 to 1000.
        case refused
    }

    public static func entry(_ text: String) -> Entry {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return .cleared }
        guard text.count <= 4, text.allSatisfy(\.isASCIIDigit), let count = Int(text), books.contains(count) else { return .refused }
        return .books(count)
    }
}
