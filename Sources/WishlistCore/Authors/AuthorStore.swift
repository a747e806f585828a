import Foundation
import GRDB

/// An author a member follows, under the name she first saw them by.
public struct FollowedAuthor: Sendable, Equatable {
    public let key: String
    public let name: String
    public let followedAt: Date
}

/// A book of an author's, as the author's page shows it: where it is now (its current lists come
/// from `CatalogStore.Reader.placements`), or the last edition of the kept history it was in.
public struct AuthorBook: Sendable, Equatable {
    public let book: BookSummary
    /// What the author did for it ("author" for most).
    public let role: CreditedName.Role
    /// The newest stored edition it was on (`yyyy-MM-dd`), and its best rank in any.
    public let lastSeen: String
    public let peak: Int
    public let isOnACurrentList: Bool
}

/// What the author's page shows: the name the catalog most often writes, and their books on the
/// lists now and in the history.
public struct AuthorBooks: Sendable, Equatable {
    public let name: String
    public let books: [AuthorBook]
}

/// A member of the household who read one of the author's books, among those who share.
public struct AuthorReader: Sendable, Equatable {
    public let username: String
    /// The name to show (``MemberName``).
    public let name: String
    public let rating: Int?
}

/// A book new on a list by an author the member follows: the edition's entry, and the author's
/// name as she follows them.
public struct NewFromAuthor: Sendable, Equatable {
    public let entry: NewEntry
    public let authorName: String
}

/// Authors (issue 52): who each list's book credits (`book_credit`, by `AuthorKey`), the authors
/// members follow (`followed_author`), and what follows from them: an author's page, and the
/// books their followers hear about ("New from authors you follow" on `/lists`, the digest, a feed).
public struct AuthorStore: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    // MARK: Credits (written with each list's book)

    /// Replaces the book's credits with the names its byline gives (``Byline/of(author:contributor:)``).
    static func writeCredits(bookID: String, author: String, contributor: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM book_credit WHERE book_id = ?", arguments: [bookID])
        for (position, credited) in Byline.of(author: author, contributor: contributor).names.enumerated() where !credited.key.isEmpty {
            try db.execute(
                sql: "INSERT INTO book_credit (book_id, position, author_key, name, role) VALUES (?, ?, ?, ?, ?)",
                arguments: [bookID, position, credited.key, credited.name, credited.role.rawValue]
            )
        }
    }

    // MARK: Following

    /// Follows the author of `key`, or stops following them; returns whether she follows them now.
    public func toggleFollowing(userID: UserID, key: String, name: String, at now: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM followed_author WHERE user_id = ? AND author_key = ?", arguments: [userID, key])
            guard db.changesCount == 0 else { return false }
            try db.execute(
                sql: "INSERT INTO followed_author (user_id, author_key, name, followed_at) VALUES (?, ?, ?, ?)",
                arguments: [userID, key, name, StoredDate(now)]
            )
            return true
        }
    }

    public func followed(userID: UserID) async throws -> [FollowedAuthor] {
        try await database.pool.read { try Reader(db: $0).followed(userID: userID) }
    }

    /// The books that entered a list in its newest edition by authors the member follows.
    public func newFromFollowed(userID: UserID) async throws -> [NewFromAuthor] {
        try await database.pool.read { try Reader(db: $0).newFromFollowed(userID: userID, newestOnly: true, weeks: 0, limit: 100) }
    }

    /// The same over the editions of the last `weeks` weeks of each list, newest first: a feed's entries.
    public func feedEntries(userID: UserID, weeks: Int, limit: Int = 200) async throws -> [NewFromAuthor] {
        try await database.pool.read { try Reader(db: $0).newFromFollowed(userID: userID, newestOnly: false, weeks: weeks, limit: limit) }
    }

    /// The author queries on a connection a ``PageRead`` holds.
    public struct Reader {
        let db: Database

        /// The author's name as the catalog writes it most often, and their list books, those on a
        /// current list first, then the most recently seen; nil when no list ever carried one.
        public func books(key: String) throws -> AuthorBooks? {
            let credited = try Row.decodeAll(
                db.cachedStatement(sql: """
                    SELECT book.*, book_credit.name AS credited_name, book_credit.role,
                        (SELECT MAX(published_date) FROM edition_entry WHERE edition_entry.book_id = book.id) AS last_seen,
                        (SELECT MIN(rank) FROM edition_entry WHERE edition_entry.book_id = book.id) AS peak,
                        EXISTS (SELECT 1 FROM list_entry JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded
                                WHERE list_entry.book_id = book.id AND catalog_list.is_current) AS is_current
                    FROM book_credit JOIN book ON book.id = book_credit.book_id
                    WHERE book_credit.author_key = ? AND book.source = 'nyt'
                    ORDER BY is_current DESC, last_seen IS NULL, last_seen DESC, book.title COLLATE NOCASE
                    """),
                arguments: [key]
            ) { row in
                (name: row["credited_name"] as String, book: AuthorBook(
                    book: CatalogStore.bookSummary(row), role: CreditedName.Role(rawValue: row["role"]) ?? .author,
                    lastSeen: row["last_seen"] ?? "", peak: row["peak"] ?? 0, isOnACurrentList: row["is_current"]
                ))
            }
            guard !credited.isEmpty else { return nil }
            let spellings = Dictionary(grouping: credited.map(\.name), by: { $0 }).mapValues(\.count)
            let name = spellings.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key
            return AuthorBooks(name: name, books: credited.map(\.book))
        }

        /// Whether the member follows the author, and under which name.
        public func following(userID: UserID, key: String) throws -> FollowedAuthor? {
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT author_key, name, followed_at FROM followed_author WHERE user_id = ? AND author_key = ?"),
                arguments: [userID, key]
            ).map(Self.followedAuthor)
        }

        public func followed(userID: UserID) throws -> [FollowedAuthor] {
            try Row.decodeAll(
                db.cachedStatement(sql: "SELECT author_key, name, followed_at FROM followed_author WHERE user_id = ? ORDER BY name COLLATE NOCASE"),
                arguments: [userID], Self.followedAuthor
            )
        }

        /// Who among the members who share has read each of these books, newest reading first;
        /// a private member is never named (``ReadingStore/Reader/sharingMember``).
        public func readers(of bookIDs: [String]) throws -> [String: [AuthorReader]] {
            guard !bookIDs.isEmpty else { return [:] }
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT reading.book_id, user.username, \(MemberName.shownSQL("user")) AS name, reading.rating
                    FROM reading CROSS JOIN user ON user.id = reading.user_id
                    WHERE reading.book_id IN (SELECT value FROM json_each(?)) AND \(ReadingStore.Reader.sharingMember)
                    ORDER BY reading.finished_on IS NULL, reading.finished_on DESC, reading.updated_at DESC
                    """),
                arguments: [JSONText.array(of: bookIDs)]
            )
            return Dictionary(grouping: rows, by: { $0["book_id"] as String }).mapValues { rows in
                rows.map { AuthorReader(username: $0["username"], name: $0["name"], rating: $0["rating"]) }
            }
        }

        /// The books that entered a current list, in its newest edition (`newestOnly`) or in those
        /// of the last `weeks` weeks before it, by authors the member follows: an entry is new
        /// when the book was not on the list's edition before (for a list's first stored edition,
        /// when the API calls it new), as "New this week on your favourite lists" reckons it.
        func newFromFollowed(userID: UserID, newestOnly: Bool, weeks: Int, limit: Int) throws -> [NewFromAuthor] {
            try Row.decodeAll(
                db.cachedStatement(sql: """
                    WITH editions AS (
                        SELECT edition.list_name_encoded, edition.published_date, catalog_list.display_name, catalog_list.frequency,
                            (SELECT MAX(before.published_date) FROM edition AS before
                             WHERE before.list_name_encoded = edition.list_name_encoded AND before.published_date < edition.published_date) AS previous_date
                        FROM catalog_list JOIN edition ON edition.list_name_encoded = catalog_list.name_encoded
                        WHERE catalog_list.is_current AND edition.published_date >= date(catalog_list.published_date, ?2)
                            AND (NOT ?3 OR edition.published_date = catalog_list.published_date)
                    ),
                    followed_books AS (
                        SELECT book_credit.book_id, MIN(followed_author.name) AS author_name
                        FROM followed_author JOIN book_credit ON book_credit.author_key = followed_author.author_key
                        WHERE followed_author.user_id = ?1
                        GROUP BY book_credit.book_id
                    )
                    SELECT editions.*, entry.rank, book.*, followed_books.author_name,
                        entry.weeks_on_list > 1 OR EXISTS (
                            SELECT 1 FROM edition_entry AS earlier
                            WHERE earlier.book_id = entry.book_id AND earlier.list_name_encoded = entry.list_name_encoded
                                AND earlier.published_date < editions.published_date
                        ) AS is_returning
                    FROM followed_books
                    JOIN edition_entry AS entry ON entry.book_id = followed_books.book_id
                    JOIN editions ON editions.list_name_encoded = entry.list_name_encoded AND editions.published_date = entry.published_date
                    JOIN book ON book.id = entry.book_id
                    WHERE CASE WHEN editions.previous_date IS NULL THEN entry.rank_last_week = 0
                        ELSE NOT EXISTS (
                            SELECT 1 FROM edition_entry AS before
                            WHERE before.book_id = entry.book_id AND before.list_name_encoded = entry.list_name_encoded
                                AND before.published_date = editions.previous_date
                        ) END
                    ORDER BY editions.published_date DESC, editions.display_name, entry.rank
                    LIMIT ?4
                    """),
                arguments: [userID, "-\(weeks * 7) days", newestOnly, limit]
            ) { row in
                NewFromAuthor(
                    entry: NewEntry(
                        listNameEncoded: row["list_name_encoded"], displayName: row["display_name"],
                        frequency: ListFrequency(rawValue: row["frequency"]) ?? .weekly, publishedDate: row["published_date"],
                        rank: row["rank"], isReturning: row["is_returning"], book: CatalogStore.bookSummary(row)
                    ),
                    authorName: row["author_name"]
                )
            }
        }

        private static func followedAuthor(_ row: Row) -> FollowedAuthor {
            FollowedAuthor(key: row["author_key"], name: row["name"], followedAt: row.date("followed_at"))
        }
    }
}
