import Fluent
import Vapor

/// `favorite_list`: the lists a user starred; primary key (user_id, list_name_encoded).
final class FavoriteList: Model, @unchecked Sendable {
    static let schema = "favorite_list"

    final class IDValue: Fields, Hashable, @unchecked Sendable {
        @Field(key: "user_id")
        var userID: Int

        @Field(key: "list_name_encoded")
        var listName: String

        init() {}

        init(userID: Int, listName: String) {
            self.userID = userID
            self.listName = listName
        }

        static func == (lhs: IDValue, rhs: IDValue) -> Bool { lhs.userID == rhs.userID && lhs.listName == rhs.listName }
        func hash(into hasher: inout Hasher) { hasher.combine(userID); hasher.combine(listName) }
    }

    @CompositeID
    var id: IDValue?

    /// Text in the app's format (`yyyy-MM-dd HH:mm:ss.SSS`, UTC), so the app reads what the peer writes.
    @Field(key: "created_at")
    var createdAt: String

    init() {}

    init(userID: Int, listName: String, createdAt: String) {
        self.id = IDValue(userID: userID, listName: listName)
        self.createdAt = createdAt
    }
}
