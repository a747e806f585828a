import Foundation
import GRDB

/// One book's ranks on one list, edition by edition, from the edition it first appeared in to the
/// list's newest stored edition. `rank` is nil in the editions it was off the list.
public struct RankHistory: Sendable, Hashable {
    public struct Edition: Sendable, Hashable {
        /// `yyyy-MM-dd`
        public let date: String
        public let rank: Int?
        /// The NYT's own count of the book's weeks on the list in this edition (`weeks_on_list`),
        /// which goes back before the first edition stored.
        public var weeksOnList: Int? = nil
    }

    public let listNameEncoded: String
    public let displayName: String
    public let frequency: ListFrequency
    public let editions: [Edition]

    /// The best rank it reached (1 is the best).
    public var peak: Int? { editions.compactMap(\.rank).min() }
    public var editionsAtPeak: Int { editions.filter { $0.rank != nil && $0.rank == peak }.count }
    public var editionsOnList: Int { editions.filter { $0.rank != nil }.count }
    public var firstSeen: String? { editions.first { $0.rank != nil }?.date }
    public var lastSeen: String? { editions.last { $0.rank != nil }?.date }
    /// The NYT's count of weeks on the list in the latest edition the book is on, when it says.
    public var weeksOnListByTheNYT: Int? { editions.last { $0.rank != nil }?.weeksOnList.flatMap { $0 > 0 ? $0 : nil } }
}

/// Where a book stood the last time it was on a list before a given edition.
public struct EarlierAppearance: Sendable, Equatable {
    public let date: String
    public let rank: Int
}

/// A book that entered a list in an edition: it was not on the edition stored before it (or, for
/// the first edition stored, the API says it is new).
public struct NewEntry: Sendable, Equatable {
    public let listNameEncoded: String
    public let displayName: String
    public let frequency: ListFrequency
    public let publishedDate: String
    public let rank: Int
    /// On the list before, with at least one edition off it in between.
    public let isReturning: Bool
    public let book: BookSummary
}

extension CatalogStore {
    /// The book's rank history on every list it has been on, lists by name. Reads one index range
    /// of `edition_entry_by_book` per list edition, so two years on three lists stay cheap.
    public func rankHistory(bookID: String) async throws -> [RankHistory] {
        try await database.pool.read { try Reader(db: $0).rankHistory(bookID: bookID) }
    }

    /// For the given books of a list's edition of `date`: the last edition before it that each was
    /// on, with its rank there. Books never on the list before are absent.
    public func earlierAppearances(list: String, before date: String, books: [String]) async throws -> [String: EarlierAppearance] {
        try await database.pool.read { try Reader(db: $0).earlierAppearances(list: list, before: date, books: books) }
    }

    /// The books that entered the user's favourite lists in their newest editions.
    public func newOnFavoriteLists(userID: UserID) async throws -> [NewEntry] {
        try await newEntries(userID: userID, newestOnly: true, weeks: 0, limit: 200)
    }

    /// The books that entered the user's favourite lists in the editions of the last `weeks`
    /// weeks of each list (counted back from its newest edition, so a list the NYT stopped
    /// publishing keeps its last news), newest editions first: the Atom feed's entries.
    public func feedEntries(userID: UserID, weeks: Int, limit: Int = 200) async throws -> [NewEntry] {
        try await newEntries(userID: userID, newestOnly: false, weeks: weeks, limit: limit)
    }

    private func newEntries(userID: UserID, newestOnly: Bool, weeks: Int, limit: Int) async throws -> [NewEntry] {
        try await database.pool.read { try Reader(db: $0).newEntries(userID: userID, newestOnly: newestOnly, weeks: weeks, limit: limit) }
    }
}

extension CatalogStore.Reader {
    /// The book's rank history on every list it has been on, lists by name.
    public func rankHistory(bookID: String) throws -> [RankHistory] {
        // Columns by position: the loop reads every row of two years of editions.
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT edition.list_name_encoded, catalog_list.display_name, catalog_list.frequency,
                    edition.published_date, mine.rank, mine.weeks_on_list
                FROM edition
                JOIN catalog_list ON catalog_list.name_encoded = edition.list_name_encoded
                LEFT JOIN edition_entry AS mine ON mine.book_id = ?1
                    AND mine.list_name_encoded = edition.list_name_encoded AND mine.published_date = edition.published_date
                WHERE edition.list_name_encoded IN (SELECT DISTINCT list_name_encoded FROM edition_entry WHERE book_id = ?1)
                    AND edition.published_date >= (
                    SELECT MIN(first.published_date) FROM edition_entry AS first
                    WHERE first.book_id = ?1 AND first.list_name_encoded = edition.list_name_encoded
                )
                ORDER BY catalog_list.display_name, edition.list_name_encoded, edition.published_date
                """),
            arguments: [bookID]
        )
        var histories: [RankHistory] = []
        var editions: [RankHistory.Edition] = []
        for (index, row) in rows.enumerated() {
            editions.append(RankHistory.Edition(date: row[3], rank: row[4], weeksOnList: row[5]))
            let list: String = row[0]
            guard index == rows.count - 1 || rows[index + 1][0] != list else { continue }
            histories.append(RankHistory(
                listNameEncoded: list, displayName: row[1], frequency: ListFrequency(rawValue: row[2]) ?? .weekly, editions: editions
            ))
            editions = []
        }
        return histories
    }

    /// The books that entered the user's favourite lists in their newest editions.
    public func newOnFavoriteLists(userID: UserID) throws -> [NewEntry] {
        try newEntries(userID: userID, newestOnly: true, weeks: 0, limit: 200)
    }

    func newEntries(userID: UserID, newestOnly: Bool, weeks: Int, limit: Int) throws -> [NewEntry] {
        try Row.decodeAll(db.cachedStatement(sql: """
                WITH followed AS (
                    SELECT edition.list_name_encoded, edition.published_date, catalog_list.display_name, catalog_list.frequency,
                        (SELECT MAX(before.published_date) FROM edition AS before
                         WHERE before.list_name_encoded = edition.list_name_encoded AND before.published_date < edition.published_date) AS previous_date
                    FROM favorite_list
                    JOIN catalog_list ON catalog_list.name_encoded = favorite_list.list_name_encoded AND catalog_list.is_current
                    JOIN edition ON edition.list_name_encoded = catalog_list.name_encoded
                    WHERE favorite_list.user_id = ?1 AND edition.published_date >= date(catalog_list.published_date, ?2)
                        AND (NOT ?3 OR edition.published_date = catalog_list.published_date)
                )
                SELECT followed.*, entry.rank, book.*,
                    entry.weeks_on_list > 1 OR EXISTS (
                        SELECT 1 FROM edition_entry AS earlier
                        WHERE earlier.book_id = entry.book_id AND earlier.list_name_encoded = entry.list_name_encoded
                            AND earlier.published_date < followed.published_date
                    ) AS is_returning
                FROM followed
                JOIN edition_entry AS entry
                    ON entry.list_name_encoded = followed.list_name_encoded AND entry.published_date = followed.published_date
                JOIN book ON book.id = entry.book_id
                WHERE CASE WHEN followed.previous_date IS NULL THEN entry.rank_last_week = 0
                    ELSE NOT EXISTS (
                        SELECT 1 FROM edition_entry AS before
                        WHERE before.book_id = entry.book_id AND before.list_name_encoded = entry.list_name_encoded
                            AND before.published_date = followed.previous_date
                    ) END
                ORDER BY followed.published_date DESC, followed.display_name, entry.rank
                LIMIT ?4
                """), arguments: [userID, "-\(weeks * 7) days", newestOnly, limit]) { row in
            NewEntry(
                listNameEncoded: row["list_name_encoded"], displayName: row["display_name"],
                frequency: ListFrequency(rawValue: row["frequency"]) ?? .weekly, publishedDate: row["published_date"],
                rank: row["rank"], isReturning: row["is_returning"], book: CatalogStore.bookSummary(row)
            )
        }
    }
}

extension NewEntry {
    /// A name for this book's arrival in this edition that stays the same across refreshes,
    /// servers and users: a UUID URN made from the SHA-256 of list, date and book (version 8,
    /// RFC 9562's custom layout), as an Atom entry's `id` must be.
    public var uniformName: String { Self.uniformName(of: "edition-entry:\(listNameEncoded):\(publishedDate):\(book.id)") }

    /// The same kind of name for any stable text, such as a feed's.
    public static func uniformName(of text: String) -> String {
        var bytes = Array(Digests.sha256(Array(text.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let groups = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return "urn:uuid:" + groups.joined(separator: "-")
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
