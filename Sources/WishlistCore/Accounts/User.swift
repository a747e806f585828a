import Foundation
import GRDB

/// A person with an account.
public struct User: Sendable, Equatable {
    public let id: Int64
    public let username: String
    public let email: String?
    public let createdAt: Date
    public let isAdmin: Bool
    public let isDisabled: Bool
    let passwordHash: String

    init(row: Row) {
        id = row["id"]
        username = row["username"]
        email = row["email"]
        createdAt = row.date("created_at")
        isAdmin = row["is_admin"]
        isDisabled = row.optionalDate("disabled_at") != nil
        passwordHash = row["password_hash"]
    }
}

/// Field name to the sentence shown beside that field.
public typealias FieldErrors = [String: String]
