import GRDB

/// Deleting an account, the same wherever it is asked for: Settings, `/admin` and
/// `wishlist user delete`.
///
/// Deleting the `user` row takes every row of hers with it (foreign keys, cascade). Unless SQLite
/// was built with `SECURE_DELETE` (Debian's is), it then only marks the space free, so her words
/// and picture stay in the file's bytes until something overwrites them; when she held much, the
/// file is rewritten without them (`VACUUM`).
enum AccountDeletion {
    /// Rows of hers (wishes, books received, readings, gifts and ideas given) beyond which the
    /// file is rewritten even without a picture. Below it, deletion stays a quick write, and
    /// what she leaves in free pages is reused by the next writes or cleared by the next
    /// rewrite (docs/architecture.md, "Data export decisions").
    static let rowsWorthRewriting = 200

    /// Deletes the account and the sign-in failures recorded under its name; never the last
    /// admin's. Answers whether the file should be rewritten once this transaction commits.
    static func delete(userID: Int64, username: String, _ db: Database) throws -> Bool {
        let shouldRewrite = try worthRewriting(userID: userID, db)
        try db.execute(sql: "DELETE FROM throttle_event WHERE scope = ?", arguments: [LoginThrottle.Scope.account(username).key])
        try Administration.keepingAnAdmin(whileChanging: userID, db) {
            try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [userID])
        }
        return shouldRewrite
    }

    /// Whether she holds much: more rows than ``rowsWorthRewriting``, or any picture, whose
    /// freed pages would be her face, whole.
    static func worthRewriting(userID: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM profile_picture WHERE user_id = :user)
                    OR (SELECT COUNT(*) FROM wishlist_item WHERE user_id = :user) + (SELECT COUNT(*) FROM received_item WHERE user_id = :user)
                        + (SELECT COUNT(*) FROM reading WHERE user_id = :user) + (SELECT COUNT(*) FROM reservation WHERE giver_id = :user)
                        + (SELECT COUNT(*) FROM gift_idea WHERE suggested_by = :user) > :limit
                """,
            arguments: ["user": userID, "limit": rowsWorthRewriting]
        ) ?? false
    }

    /// Rewrites the file without its free pages, then empties the write-ahead log, which still
    /// holds the pages as they were. It costs about a copy of the database, during which other
    /// writes wait. The account is gone whatever happens here: a rewrite that fails (a full
    /// disk) leaves her bytes in free pages until the next one, and is no reason to say the
    /// deletion failed.
    static func rewrite(_ database: AppDatabase) async {
        try? await database.pool.writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM")
            _ = try db.checkpoint(.truncate)
        }
    }
}
