import Foundation
import GRDB

/// "Reading now" and the yearly goal (issue 57, migration 36).
extension ReadingStore {
    public enum StartOutcome: Sendable, Equatable {
        case started
        /// She has read it already: a book read is not started again.
        case alreadyRead
        case unknownBook
    }

    /// Marks a catalog book as being read now; starting it again keeps the first start.
    public func startReading(bookID: String, userID: UserID, at now: Date) async throws -> StartOutcome {
        try await database.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM book WHERE id = ?)", arguments: [bookID]) == true else { return .unknownBook }
            guard try Reader(db: db).reading(bookID: bookID, userID: userID) == nil else { return .alreadyRead }
            try db.execute(
                sql: "INSERT INTO reading_now (user_id, book_id, started_at) VALUES (?, ?, ?) ON CONFLICT (user_id, book_id) DO NOTHING",
                arguments: [userID, bookID, StoredDate(now)]
            )
            return .started
        }
    }

    /// Ends "reading now" without marking the book read; false when she was not reading it.
    public func stopReading(bookID: String, userID: UserID) async throws -> Bool {
        try await database.write { db in
            try Self.endReadingNow(bookID: bookID, userID: userID, db)
            return db.changesCount > 0
        }
    }

    /// A book marked read, rated or forgotten is no longer being read now.
    static func endReadingNow(bookID: String, userID: UserID, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM reading_now WHERE user_id = ? AND book_id = ?", arguments: [userID, bookID])
    }

    /// Sets the member's goal for `year`, or clears it with nil.
    public func setGoal(userID: UserID, year: Int, books: Int?) async throws {
        try await database.write { db in
            if let books {
                try db.execute(
                    sql: "INSERT INTO reading_goal (user_id, year, books) VALUES (?, ?, ?) ON CONFLICT (user_id, year) DO UPDATE SET books = excluded.books",
                    arguments: [userID, year, books]
                )
            } else {
                try db.execute(sql: "DELETE FROM reading_goal WHERE user_id = ? AND year = ?", arguments: [userID, year])
            }
        }
    }

    public func readingNow(userID: UserID) async throws -> [CurrentReading] {
        try await database.pool.read { try Reader(db: $0).readingNow(userID: userID) }
    }

    public func isReadingNow(bookID: String, userID: UserID) async throws -> Bool {
        try await database.pool.read { try Reader(db: $0).isReadingNow(bookID: bookID, userID: userID) }
    }
}

extension ReadingStore.Reader {
    /// The books the member is reading now, the latest started first.
    public func readingNow(userID: UserID) throws -> [CurrentReading] {
        try Row.decodeAll(db.cachedStatement(sql: """
                SELECT reading_now.book_id, reading_now.started_at, book.title, book.author
                FROM reading_now JOIN book ON book.id = reading_now.book_id
                WHERE reading_now.user_id = ? ORDER BY reading_now.started_at DESC, book.title COLLATE NOCASE
                """), arguments: [userID]) { row in
            CurrentReading(bookID: row["book_id"], title: row["title"], author: row["author"], startedAt: row.date("started_at"))
        }
    }

    public func isReadingNow(bookID: String, userID: UserID) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM reading_now WHERE user_id = ? AND book_id = ?)"), arguments: [userID, bookID]
        ) ?? false
    }

    /// The member's goal for `year`, if she set one.
    public func goal(userID: UserID, year: Int) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT books FROM reading_goal WHERE user_id = ? AND year = ?"), arguments: [userID, year])
    }
}
