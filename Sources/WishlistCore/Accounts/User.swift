import Foundation
import GRDB

/// A person with an account.
public struct User: Sendable, Equatable {
    public let id: UserID
    public let username: String
    public let email: String?
    public let createdAt: Date
    public let isAdmin: Bool
    public let isDisabled: Bool
    /// A child's profile that members manage (``Children``): no password, no way to sign in.
    public let isChild: Bool
    let passwordHash: String

    init(row: Row) {
        id = row["id"]
        username = row["username"]
        email = row["email"]
        createdAt = row.date("created_at")
        isAdmin = row["is_admin"]
        isDisabled = row.optionalDate("disabled_at") != nil
        isChild = row["kind"] as String? == "child"
        passwordHash = row["password_hash"]
    }
}

/// What an account form got wrong, named by what it is about, not by any form's field: the web
/// layer decides which field of which form shows each ``AccountFault``.
public enum AccountProblem: Hashable, Sendable {
    case username
    case email
    /// The new password (at sign-up, in Settings, through a reset link).
    case password
    /// The password typed twice differs.
    case passwordConfirmation
    /// The password of the signed-in account, asked before a change.
    case currentPassword
    /// The change would leave the server without an admin.
    case lastAdmin
    /// The change would leave a child's profile without a manager.
    case lastManager
}

/// What is wrong with each, with the values its sentence names: the web layer words it in the
/// reader's language (issue 53).
public typealias AccountProblems = [AccountProblem: AccountFault]

/// Why a username, address or password was refused.
public enum AccountFault: Hashable, Sendable {
    case usernameMissing
    case usernameLength(minimum: Int, maximum: Int)
    /// A character other than ASCII letters, digits, `.`, `-` and `_`.
    case usernameCharacters
    /// Another account has it, in any letter case.
    case usernameTaken
    case emailMalformed
    case passwordMissing
    case passwordTooShort(minimum: Int)
    case passwordTooLong(maximum: Int)
    /// The password typed twice differs.
    case passwordsDiffer
    /// The password asked before a change is wrong: `current` when the form asks for the
    /// current one beside a new one.
    case wrongPassword(current: Bool)
    /// The signed-in account was deleted meanwhile.
    case accountGone
    /// Linking asks for the password, or, for an account without one, a recent sign-in.
    case noPasswordAndNoRecentSignIn
    case lastAdmin
    case lastManager
}
