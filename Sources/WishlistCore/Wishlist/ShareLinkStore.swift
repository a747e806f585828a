import Foundation
import GRDB

/// Share links (issue 57): each opens ONE of a member's lists, read-only, to whoever holds it,
/// without an account. A list has at most one link; making a new one replaces it, and deleting
/// the list deletes it (migration 34). As with the other secret links (``SecretLinkStore``), the
/// token is 256-bit random and only its SHA-256 is kept, so a link is shown once, when it is made.
///
/// Every call names the list by its id, scoped to the owner (another's list finds nothing), or by
/// `nil` for her default list: Settings → Sharing's link, which was her whole wishlist's before lists.
public struct ShareLinkStore: Sendable {
    /// What a link opens.
    public struct Shared: Sendable, Equatable {
        /// The owner's name to show (``MemberName``).
        public let ownerName: String
        public let list: WishList
    }

    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The owner's list `list` (or her default list), as an SQL condition on `wish_list`.
    private static let ownList = "wish_list.user_id = ?1 AND (CASE WHEN ?2 IS NULL THEN wish_list.is_default ELSE wish_list.id = ?2 END)"

    /// Makes the list's new link, replacing any earlier one (which stops working), and returns its
    /// token; nil when the owner has no such list.
    public func create(list: ListID?, ownerID: UserID, at now: Date) async throws -> String? {
        let token = SecureRandom.token()
        return try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO share_link (list_id, token_hash, created_at) SELECT wish_list.id, ?3, ?4 FROM wish_list WHERE \(Self.ownList)
                    ON CONFLICT (list_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
                    """,
                arguments: [ownerID, list?.rawValue, SessionStore.fingerprint(token), StoredDate(now)]
            )
            return db.changesCount == 1 ? token : nil
        }
    }

    /// Revokes the list's link; false when there was none (or no such list).
    public func revoke(list: ListID?, ownerID: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM share_link WHERE list_id IN (SELECT id FROM wish_list WHERE \(Self.ownList))", arguments: [ownerID, list?.rawValue])
            return db.changesCount == 1
        }
    }

    /// When the list's current link was made, or nil when it has none.
    public func createdAt(list: ListID?, ownerID: UserID) async throws -> Date? {
        try await database.pool.read { db in
            try StoredDate.fetchOne(
                db, sql: "SELECT share_link.created_at FROM share_link JOIN wish_list ON wish_list.id = share_link.list_id WHERE \(Self.ownList)",
                arguments: [ownerID, list?.rawValue]
            )?.date
        }
    }

    /// The list behind a token, or nil for an unknown or revoked one, or one whose owner's account
    /// is disabled (``SecretToken``). A private list is returned as it is: whether it shows is the
    /// page's rule.
    public func shared(token: String) async throws -> Shared? {
        try await database.pool.read { db in
            try SecretToken.row(
                behind: token,
                """
                SELECT wish_list.*, (SELECT COUNT(*) FROM wish_list_item WHERE list_id = wish_list.id) AS item_count,
                    \(MemberName.shownSQL("user")) AS owner_name, share_link.token_hash
                FROM share_link JOIN wish_list ON wish_list.id = share_link.list_id JOIN user ON user.id = wish_list.user_id
                WHERE share_link.token_hash = ? AND user.disabled_at IS NULL
                """,
                db
            ).map { Shared(ownerName: $0["owner_name"], list: WishListStore.list($0)) }
        }
    }
}
