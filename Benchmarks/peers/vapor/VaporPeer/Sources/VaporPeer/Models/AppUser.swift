import Fluent
import Vapor

/// The app's `user` table: who is signed in. Only the columns the list page reads are mapped.
final class AppUser: Model, @unchecked Sendable {
    static let schema = "user"

    @ID(custom: "id", generatedBy: .database)
    var id: Int?

    @Field(key: "username")
    var username: String

    /// The lower-cased username, unique: how a sign-in name finds its account.
    @Field(key: "username_key")
    var usernameKey: String

    @Field(key: "is_admin")
    var isAdmin: Bool

    init() {}
}

/// The session keeps the user's id; each request loads the user with one `find`.
extension AppUser: ModelSessionAuthenticatable {}
