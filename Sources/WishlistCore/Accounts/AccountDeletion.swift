import Foundation
import GRDB

/// Deleting an account, the same wherever it is asked for: Settings, `/admin` and
/// `wishlist user delete`.
///
/// Deleting the `user` row takes every row of hers with it (foreign keys, cascade), and
/// `secure_delete` (``AppDatabase``) overwrites them with zeros in the database's pages. The
/// write-ahead log still holds the pages as they were written, her words among them, until a
/// checkpoint empties it: every deletion ends with one (``emptyLog(_:tries:)``, issue 50). When
/// she held much, the file is also rewritten without its free pages (`VACUUM`).
enum AccountDeletion {
    /// Rows of hers (wishes, books received, readings, gifts and ideas given) beyond which the
    /// file is rewritten even without a picture. Below it, deletion stays a quick write, and
    /// what she leaves in free pages is reused by the next writes or cleared by the next
    /// rewrite (docs/decisions/deleting-an-account-leaves-no-bytes.md).
    static let rowsWorthRewriting = 200

    /// Deletes the account and the sign-in failures recorded under its name; never the last
    /// admin's. Answers whether the file should be rewritten once this transaction commits.
    static func delete(userID: UserID, username: String, _ db: Database) throws -> Bool {
        // A child's profile never goes with a manager's account, and never stays with none.
        if try Bool.fetchOne(db, sql: """
            SELECT 1 FROM child_manager AS mine WHERE mine.manager_id = ?
                AND NOT EXISTS (SELECT 1 FROM child_manager AS other WHERE other.child_id = mine.child_id AND other.manager_id != mine.manager_id)
            """, arguments: [userID]) == true {
            throw Administration.Refusal.lastManager
        }
        let shouldRewrite = try worthRewriting(userID: userID, db)
        try db.execute(sql: "DELETE FROM throttle_event WHERE scope = ?", arguments: [LoginThrottle.Scope.account(username).key])
        try Administration.keepingAnAdmin(whileChanging: userID, db) {
            try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [userID])
        }
        return shouldRewrite
    }

    /// Whether she holds much: more rows than ``rowsWorthRewriting``, or any picture, whose
    /// freed pages would be her face, whole.
    static func worthRewriting(userID: UserID, _ db: Database) throws -> Bool {
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

    /// What follows every deletion once it has committed: the file rewritten when she held
    /// much, then the write-ahead log emptied. The account is gone whatever happens here: a
    /// rewrite that fails (a full disk) leaves only zeroed free pages behind, and is no reason to
    /// say the deletion failed.
    static func erase(_ database: AppDatabase, rewriting: Bool) async {
        if rewriting {
            // About a copy of the database, during which other writes wait.
            try? await database.pool.writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
        }
        await emptyLog(database)
    }

    /// How long one try waits for readers to move on before it lets others write again.
    static let readerWait: TimeInterval = 0.1
    static let pauseBetweenTries: Duration = .milliseconds(200)

    /// Empties the write-ahead log (`wal_checkpoint(TRUNCATE)`): copies its pages into the
    /// database and cuts it to nothing, so a copy of the files, or a process killed a moment
    /// later, finds none of what was deleted. A reader still on a snapshot from before the
    /// deletion needs the log's old pages, and SQLite refuses to cut it under her (SQLITE_BUSY):
    /// each try waits `readerWait` for readers, then the writer is free for others while it
    /// pauses, about half a minute in all (pages read in milliseconds; `wishlist backup` copies
    /// under one snapshot). Any other failure ends the tries. False when the log kept its pages:
    /// the next deletion's checkpoint, or SQLite's own as the log is reused, takes them later.
    @discardableResult
    static func emptyLog(_ database: AppDatabase, tries: Int = 100) async -> Bool {
        for attempt in 0..<tries {
            if attempt > 0 { try? await Task.sleep(for: pauseBetweenTries) }
            do {
                try await database.pool.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA busy_timeout = \(Int(readerWait * 1000))")
                    defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(AppDatabase.busyTimeout * 1000))") }
                    _ = try db.checkpoint(.truncate)
                }
                return true
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                continue
            } catch {
                return false
            }
        }
        return false
    }
}
