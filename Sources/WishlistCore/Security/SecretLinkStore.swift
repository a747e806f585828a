import Foundation
import GRDB

/// Links that open one user's data without a session: the Atom feeds and calendar of a user's
/// favourite lists, authors and household occasions. Each user has at most one of each kind. A
/// link holds a random 256-bit token; its table keeps only the SHA-256, so the link can be shown
/// once, when it is made, and a copy of the database does not reveal it. (Share links open a
/// list, not a user: ``ShareLinkStore``.)
public struct SecretLinkStore: Sendable {
    public enum Kind: String, Sendable {
        /// `/feeds/{token}/favorites.atom`: new books on the favourite lists.
        case feed = "feed_link"
    }

    /// The owner a link opens.
    public struct Owner: Sendable, Equatable {
        public let userID: UserID
        public let username: String
        /// The owner's name to show (``MemberName``).
        public let name: String
        /// The language she chose in Settings, nil for her browser's: her feeds are worded in it.
        public let language: String?
    }

    let database: AppDatabase
    let kind: Kind
    /// The table, named by the kind: never by input.
    private var table: String { kind.rawValue }

    public init(database: AppDatabase, kind: Kind) {
        self.database = database
        self.kind = kind
    }

    /// Makes a new link, replacing any earlier one (which stops working), and returns its token.
    public func create(userID: UserID, at now: Date) async throws -> String {
        let token = SecureRandom.token()
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO \(table) (user_id, token_hash, created_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
                    """,
                arguments: [userID, SessionStore.fingerprint(token), StoredDate(now)]
            )
        }
        return token
    }

    /// Revokes the user's link; false when there was none.
    public func revoke(userID: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [userID])
            return db.changesCount == 1
        }
    }

    /// When the user's current link was made, or nil when they have none.
    public func createdAt(userID: UserID) async throws -> Date? {
        try await database.pool.read { db in
            try StoredDate.fetchOne(db, sql: "SELECT created_at FROM \(table) WHERE user_id = ?", arguments: [userID])?.date
        }
    }

    /// The owner behind a token, or nil for an unknown or revoked one, or one whose account is
    /// disabled: a disabled account's data is out of everyone's reach until it is enabled again
    /// (``SecretToken``).
    public func owner(token: String) async throws -> Owner? {
        try await database.pool.read { db in
            try SecretToken.row(
                behind: token,
                """
                SELECT user.id, user.username, \(MemberName.shownSQL("user")) AS name, user.language, \(table).token_hash
                FROM \(table) JOIN user ON user.id = \(table).user_id WHERE token_hash = ? AND user.disabled_at IS NULL
                """,
                db
            ).map { Owner(userID: $0["id"], username: $0["username"], name: $0["name"], language: $0["language"]) }
        }
    }
}
