import Fluent
import Vapor

/// `list_entry`: the current edition of a list, one row per rank. Its primary key is
/// (list_name_encoded, rank), so the model has a composite id.
final class ListEntry: Model, @unchecked Sendable {
    static let schema = "list_entry"

    final class IDValue: Fields, Hashable, @unchecked Sendable {
        @Field(key: "list_name_encoded")
        var listName: String

        @Field(key: "rank")
        var rank: Int

        init() {}

        static func == (lhs: IDValue, rhs: IDValue) -> Bool { lhs.listName == rhs.listName && lhs.rank == rhs.rank }
        func hash(into hasher: inout Hasher) { hasher.combine(listName); hasher.combine(rank) }
    }

    @CompositeID
    var id: IDValue?

    @Parent(key: "book_id")
    var book: Book

    /// 0 when the API says the book was not on last week's edition.
    @Field(key: "rank_last_week")
    var rankLastWeek: Int

    @Field(key: "weeks_on_list")
    var weeksOnList: Int

    init() {}
}
