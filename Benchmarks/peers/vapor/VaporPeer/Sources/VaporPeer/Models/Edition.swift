import Fluent
import Vapor

/// `edition`: every stored edition of a list, by published date.
final class Edition: Model, @unchecked Sendable {
    static let schema = "edition"

    final class IDValue: Fields, Hashable, @unchecked Sendable {
        @Field(key: "list_name_encoded")
        var listName: String

        @Field(key: "published_date")
        var publishedDate: String

        init() {}

        static func == (lhs: IDValue, rhs: IDValue) -> Bool { lhs.listName == rhs.listName && lhs.publishedDate == rhs.publishedDate }
        func hash(into hasher: inout Hasher) { hasher.combine(listName); hasher.combine(publishedDate) }
    }

    @CompositeID
    var id: IDValue?

    init() {}
}

/// `edition_entry`: a book's rank in one stored edition.
final class EditionEntry: Model, @unchecked Sendable {
    static let schema = "edition_entry"

    final class IDValue: Fields, Hashable, @unchecked Sendable {
        @Field(key: "list_name_encoded")
        var listName: String

        @Field(key: "published_date")
        var publishedDate: String

        @Field(key: "rank")
        var rank: Int

        init() {}

        static func == (lhs: IDValue, rhs: IDValue) -> Bool {
            lhs.listName == rhs.listName && lhs.publishedDate == rhs.publishedDate && lhs.rank == rhs.rank
        }
        func hash(into hasher: inout Hasher) { hasher.combine(listName); hasher.combine(publishedDate); hasher.combine(rank) }
    }

    @CompositeID
    var id: IDValue?

    @Parent(key: "book_id")
    var book: Book

    init() {}
}
