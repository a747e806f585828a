import Foundation
import GRDB

/// The `reading` table: what each member has read, rated and reviewed.
///
/// A member's own readings are always theirs to see. What others see of them, one by one or
/// counted, comes only from members whose sharing is `household` (and whose account is not
/// disabled): a count that included a private member would change when she read or wished, and
/// so tell on her.
public struct ReadingStore: Sendable {
    public enum RecordOutcome: Sendable, Equatable {
        /// Recorded; `removedFromWishlist` says the wishlist item of the book went with it.
        case recorded(removedFromWishlist: Bool)
        case unknownBook
    }

    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Marks a catalog book read, or updates the reading, which ends reading it now; with
    /// `removeFromWishlist`, the member's wishlist item of the book goes in the same transaction.
    public func record(bookID: String, userID: UserID, _ input: ReadingInput, removeFromWishlist: Bool, at now: Date) async throws -> RecordOutcome {
        try await database.write { db in
            guard let book = try Row.fetchOne(db, sql: "SELECT title, author, isbn13 FROM book WHERE id = ?", arguments: [bookID]) else {
                return .unknownBook
            }
            try db.execute(
                sql: """
                    INSERT INTO reading (user_id, book_id, title, author, isbn13, rating, review, finished_on, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, book_id) DO UPDATE SET
                        rating = excluded.rating, review = excluded.review, finished_on = excluded.finished_on, updated_at = excluded.updated_at
                    """,
                arguments: [userID, bookID, book["title"], book["author"], book["isbn13"], input.rating, input.review, input.finished?.text, StoredDate(now)]
            )
            try Self.endReadingNow(bookID: bookID, userID: userID, db)
            var removed = false
            if removeFromWishlist {
                try db.execute(sql: "DELETE FROM wishlist_item WHERE user_id = ? AND book_id = ?", arguments: [userID, bookID])
                removed = db.changesCount > 0
            }
            return .recorded(removedFromWishlist: removed)
        }
    }

    /// Rates a catalog book with one tap (issue 57): marks it read when it was not, keeping its
    /// review and date when it was.
    public func rate(bookID: String, userID: UserID, rating: Int, at now: Date) async throws -> RecordOutcome {
        try await database.write { db in
            guard let book = try Row.fetchOne(db, sql: "SELECT title, author, isbn13 FROM book WHERE id = ?", arguments: [bookID]) else {
                return .unknownBook
            }
            try db.execute(
                sql: """
                    INSERT INTO reading (user_id, book_id, title, author, isbn13, rating, review, updated_at) VALUES (?, ?, ?, ?, ?, ?, '', ?)
                    ON CONFLICT (user_id, book_id) DO UPDATE SET rating = excluded.rating, updated_at = excluded.updated_at
                    """,
                arguments: [userID, bookID, book["title"], book["author"], book["isbn13"], rating, StoredDate(now)]
            )
            try Self.endReadingNow(bookID: bookID, userID: userID, db)
            return .recorded(removedFromWishlist: false)
        }
    }

    /// Forgets the member's reading of a book; false when there was none.
    public func forget(bookID: String, userID: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM reading WHERE user_id = ? AND book_id = ?", arguments: [userID, bookID])
            return db.changesCount > 0
        }
    }

    /// Adds a book of an import's "read" shelf (``GoodreadsImporter``) with its rating, date
    /// and review, tagged with the import's id; false when the member has read it already (she
    /// marked it while the import ran).
    static func insertImported(_ book: CatalogBook, _ imported: GoodreadsImportedBook, userID: UserID, at now: Date, importID: ImportID, _ db: Database) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT INTO reading (user_id, book_id, title, author, isbn13, rating, review, finished_on, updated_at, import_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, book_id) DO NOTHING
            """).execute(arguments: [
            userID, book.id, book.title, book.author, book.isbn13, imported.rating, imported.review,
            imported.dateRead?.text, StoredDate(now), importID,
        ])
        return db.changesCount == 1
    }

    public func readings(userID: UserID, sort: ReadingSort) async throws -> [Reading] {
        try await database.pool.read { try Reader(db: $0).readings(userID: userID, sort: sort) }
    }

    public func reading(bookID: String, userID: UserID) async throws -> Reading? {
        try await database.pool.read { try Reader(db: $0).reading(bookID: bookID, userID: userID) }
    }

    /// The reading queries on a connection a ``PageRead`` holds.
    public struct Reader {
        let db: Database

        /// Members whose readings and wishes others may see.
        static let sharingMember = "user.sharing = 'household' AND user.disabled_at IS NULL"

        /// Each book of a JSON array of ids with household figures: how many sharing members want
        /// it, and the sum and number of their ratings. Kept by triggers (migration 24), one row a book.
        static let figures = """
            SELECT book_id, wanted, rating_sum, rating_count FROM book_household
            WHERE book_id IN (SELECT value FROM json_each(?)) AND (wanted > 0 OR rating_count > 0)
            """

        public func readings(userID: UserID, sort: ReadingSort) throws -> [Reading] {
            try Row.decodeAll(db.cachedStatement(sql: "SELECT * FROM reading WHERE user_id = ? ORDER BY \(sort.orderBy)"), arguments: [userID], ReadingStore.reading)
        }

        /// Page `number` of the member's readings in `sort`'s order; a number past the last page
        /// is the last page. A Goodreads import brings a reader's whole shelf, hundreds of books.
        public func readings(userID: UserID, sort: ReadingSort, page number: Int) throws -> PagedList<Reading> {
            try PagedList.read(
                db, count: "SELECT COUNT(*) FROM reading WHERE user_id = ?", rows: "SELECT * FROM reading WHERE user_id = ? ORDER BY \(sort.orderBy)",
                arguments: [userID], page: number, ReadingStore.reading
            )
        }

        public func reading(bookID: String, userID: UserID) throws -> Reading? {
            try Row.decodeOne(db.cachedStatement(sql: "SELECT * FROM reading WHERE user_id = ? AND book_id = ?"), arguments: [userID, bookID], ReadingStore.reading)
        }

        /// How many books the member finished in `year`; a book read without a date counts in the
        /// year it was marked (last changed), so a profile never says "0 books read this year"
        /// above a book read this year (issue 57, docs/decisions/first-week-small-choices.md).
        public func finishedCount(userID: UserID, year: Int) throws -> Int {
            try Int.fetchOne(
                db.cachedStatement(sql: """
                    SELECT COUNT(*) FROM reading WHERE user_id = ?1
                    AND (finished_on >= ?2 AND finished_on < ?3 OR finished_on IS NULL AND updated_at >= ?2 AND updated_at < ?3)
                    """),
                arguments: [userID, "\(year)-01-01", "\(year + 1)-01-01"]
            ) ?? 0
        }

        /// The sharing members' wishes, readings, ratings and reviews of one book.
        public func opinion(bookID: String) throws -> HouseholdOpinion {
            let wanted = try Int.fetchOne(db.cachedStatement(sql: "SELECT wanted FROM book_household WHERE book_id = ?"), arguments: [bookID]) ?? 0
            let readings = try Row.decodeAll(
                db.cachedStatement(sql: """
                    SELECT user.username, \(MemberName.shownSQL("user")) AS name, reading.rating, reading.review, reading.finished_on
                    FROM reading CROSS JOIN user ON user.id = reading.user_id
                    WHERE reading.book_id = ? AND \(Self.sharingMember)
                    ORDER BY reading.finished_on IS NULL, reading.finished_on DESC, reading.updated_at DESC
                    """),
                arguments: [bookID]
            ) { row in
                HouseholdOpinion.Review(
                    username: row["username"], name: row["name"], rating: row["rating"], review: row["review"],
                    finished: (row["finished_on"] as String?).flatMap(FinishedDate.init)
                )
            }
            let ratings = readings.compactMap(\.rating)
            let reviews = readings.filter { $0.rating != nil || !$0.review.isEmpty }
            return HouseholdOpinion(
                wantCount: wanted, readCount: readings.count, averageRating: Self.average(ratings), ratingCount: ratings.count, reviews: reviews
            )
        }

        /// Each of these books' figures among the sharing members; books with none are left out.
        public func standings(of bookIDs: [String]) throws -> [String: BookStanding] {
            guard !bookIDs.isEmpty else { return [:] }
            var standings: [String: BookStanding] = [:]
            let rows = try Row.fetchCursor(db.cachedStatement(sql: Self.figures), arguments: [JSONText.array(of: bookIDs)])
            while let row = try rows.next() {
                let (sum, count): (Int, Int) = (row["rating_sum"], row["rating_count"])
                standings[row["book_id"]] = BookStanding(
                    wantCount: row["wanted"], averageRating: count == 0 ? nil : Double(sum) / Double(count), ratingCount: count
                )
            }
            return standings
        }

        /// The `household`'s figures (``standings(of:)``) as `viewer` reads them: her own counted
        /// wishes are not among "here want it" (issue 57), which would otherwise say "1 here wants
        /// it" of her own wish. Taking the figures already read spares a page reading them twice,
        /// and asks only about the books that have any.
        public func standings(_ household: [String: BookStanding], asSeenBy viewer: UserID) throws -> [String: BookStanding] {
            guard !household.isEmpty else { return household }
            var standings = household
            let own = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT wishlist_item.book_id, COUNT(*) AS own FROM wishlist_item JOIN user ON user.id = wishlist_item.user_id
                    WHERE wishlist_item.user_id = ? AND wishlist_item.shared AND \(Self.sharingMember)
                    AND wishlist_item.book_id IN (SELECT value FROM json_each(?)) GROUP BY wishlist_item.book_id
                    """),
                arguments: [viewer, JSONText.array(of: Array(household.keys))]
            )
            for row in own {
                let bookID: String = row["book_id"]
                standings[bookID] = standings[bookID]?.withoutOwnWants(row["own"])
            }
            return standings
        }

        static func average(_ ratings: [Int]) -> Double? {
            ratings.isEmpty ? nil : Double(ratings.reduce(0, +)) / Double(ratings.count)
        }
    }

    static func reading(_ row: Row) -> Reading {
        Reading(
            id: row["id"], bookID: row["book_id"], title: row["title"], author: row["author"], isbn13: row["isbn13"], rating: row["rating"], review: row["review"],
            finished: (row["finished_on"] as String?).flatMap(FinishedDate.init), updatedAt: row.date("updated_at")
        )
    }
}
