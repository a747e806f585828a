import Foundation
import GRDB

/// A current list as the catalog page shows it.
public struct ListSummary: Sendable, Equatable {
    public let nameEncoded: String
    public let displayName: String
    public let frequency: ListFrequency
    /// `yyyy-MM-dd`
    public let publishedDate: String
    public let fetchedAt: Date?
    public let bookCount: Int
}

/// One stored edition of a list, with the dates of the editions stored before and after it.
public struct StoredEdition: Sendable, Equatable {
    public let list: ListSummary
    public let books: [ListedBook]
    public let previousDate: String?
    public let nextDate: String?
}

/// A book on a list page or in search results.
public struct ListedBook: Sendable, Equatable {
    public let rank: Int
    public let rankLastWeek: Int
    public let weeksOnList: Int
    public let book: BookSummary
}

public struct BookSummary: Sendable, Equatable {
    public let id: String
    public let title: String
    public let author: String
    public let description: String
    public let imageURL: String?
    public let imageWidth: Int
    public let imageHeight: Int
    /// The NYT's contributor line ("by A. Illustrated by B"), where rows link each name (``Byline``).
    public var contributor = ""
}

/// Where a book stands now: a current list and its rank there.
public struct Placement: Sendable, Equatable {
    public let listNameEncoded: String
    public let displayName: String
    public let rank: Int
}

/// The cached catalog in SQLite: refreshes write editions here, pages read from here.
public struct CatalogStore: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    // MARK: Writing (sync)

    /// Records every list the API names; only `current` ones are shown.
    func recordLists(_ names: [NYTListName], current: Set<String>) async throws {
        try await database.write { db in
            for name in names {
                try db.execute(
                    sql: """
                        INSERT INTO catalog_list (name_encoded, display_name, frequency, newest_published_date, is_current)
                        VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(name_encoded) DO UPDATE SET display_name = excluded.display_name,
                            frequency = excluded.frequency, newest_published_date = excluded.newest_published_date,
                            is_current = excluded.is_current
                        """,
                    arguments: [name.listNameEncoded, name.displayName, name.updated, name.newestPublishedDate, current.contains(name.listNameEncoded)]
                )
            }
        }
    }

    /// Stores `edition` in one transaction: kept in the history under its date (a second fetch of
    /// the same date replaces that date's entries), and made the list's current edition unless a
    /// newer one is stored. Readers see the old edition or the new one, never a mix, and a failure
    /// leaves everything as it was.
    func store(_ edition: CatalogEdition, previousDate: String? = nil, fetchedAt: Date) async throws {
        try await database.write { db in try Self.write(edition, previousDate: previousDate, fetchedAt: fetchedAt, db) }
    }

    /// Stores many editions (each with the date of the one before it) in one transaction: one
    /// commit, rather than one per edition, when a whole history arrives at once.
    func store(history editions: [(CatalogEdition, previousDate: String)], fetchedAt: Date) async throws {
        try await database.write { db in
            for (edition, previousDate) in editions {
                try Self.write(edition, previousDate: previousDate, fetchedAt: fetchedAt, db)
            }
        }
    }

    private static func write(_ edition: CatalogEdition, previousDate: String?, fetchedAt: Date, _ db: Database) throws {
        let current = try String.fetchOne(
            db, sql: "SELECT published_date FROM catalog_list WHERE name_encoded = ?", arguments: [edition.listNameEncoded]
        )
        let isNewest = current.map { edition.publishedDate >= $0 } ?? true
        try db.execute(
            sql: """
                INSERT INTO catalog_list (name_encoded, display_name, frequency, newest_published_date, is_current, published_date, fetched_at)
                VALUES (?, ?, ?, ?, 1, ?, ?)
                ON CONFLICT(name_encoded) DO UPDATE SET display_name = excluded.display_name, is_current = 1
                """,
            arguments: [edition.listNameEncoded, edition.displayName, edition.frequency.rawValue, edition.publishedDate, edition.publishedDate, StoredDate(fetchedAt)]
        )
        // The newest edition's facts about a book win; an older one only adds books not yet known.
        for entry in edition.entries {
            if try isNewest || !Self.bookExists(entry.book.id, db) { try Self.upsert(entry.book, db) }
        }
        try Self.keep(edition, previousDate: previousDate, fetchedAt: fetchedAt, db)
        guard isNewest else { return }
        try db.execute(
            sql: "UPDATE catalog_list SET published_date = ?, fetched_at = ? WHERE name_encoded = ?",
            arguments: [edition.publishedDate, StoredDate(fetchedAt), edition.listNameEncoded]
        )
        try db.execute(sql: "DELETE FROM list_entry WHERE list_name_encoded = ?", arguments: [edition.listNameEncoded])
        for entry in edition.entries {
            try db.execute(
                sql: "INSERT INTO list_entry (list_name_encoded, rank, book_id, rank_last_week, weeks_on_list) VALUES (?, ?, ?, ?, ?)",
                arguments: [edition.listNameEncoded, entry.rank, entry.book.id, entry.rankLastWeek, entry.weeksOnList]
            )
        }
    }

    /// The edition in the history, replacing what was stored for its date (and keeping the date of
    /// the edition before, when this answer does not say it).
    private static func keep(_ edition: CatalogEdition, previousDate: String?, fetchedAt: Date, _ db: Database) throws {
        let key: StatementArguments = [edition.listNameEncoded, edition.publishedDate]
        let knownPrevious = try String.fetchOne(
            db, sql: "SELECT previous_published_date FROM edition WHERE list_name_encoded = ? AND published_date = ?", arguments: key
        )
        try db.execute(sql: "DELETE FROM edition WHERE list_name_encoded = ? AND published_date = ?", arguments: key)
        try db.execute(
            sql: "INSERT INTO edition (list_name_encoded, published_date, previous_published_date, fetched_at) VALUES (?, ?, ?, ?)",
            arguments: key + [previousDate ?? knownPrevious, StoredDate(fetchedAt)]
        )
        for entry in edition.entries {
            try db.execute(
                sql: """
                    INSERT INTO edition_entry (list_name_encoded, published_date, rank, book_id, rank_last_week, weeks_on_list)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: key + [entry.rank, entry.book.id, entry.rankLastWeek, entry.weeksOnList]
            )
        }
    }

    /// Deletes the editions published more than `weeks` weeks before each list's newest one;
    /// returns how many went.
    func pruneEditions(keepingWeeks weeks: Int) async throws -> Int {
        try await database.write { db in
            try db.execute(
                sql: """
                    DELETE FROM edition WHERE published_date < (
                        SELECT date(MAX(newer.published_date), ?) FROM edition AS newer WHERE newer.list_name_encoded = edition.list_name_encoded
                    )
                    """,
                arguments: ["-\(weeks * 7) days"]
            )
            return db.changesCount
        }
    }

    /// What the history knows of an edition: nil when it is not stored, else the date of the
    /// edition before it ("" at the start of the list), or nil inside when no answer said it yet.
    func storedEdition(list: String, date: String) async throws -> String?? {
        try await database.pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT previous_published_date FROM edition WHERE list_name_encoded = ? AND published_date = ?", arguments: [list, date]
            ).map { $0["previous_published_date"] as String? }
        }
    }

    /// Records that no edition before `date` can be had, so a back-fill does not ask again.
    func markFirstEdition(list: String, date: String) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE edition SET previous_published_date = '' WHERE list_name_encoded = ? AND published_date = ?", arguments: [list, date]
            )
        }
    }

    /// How many editions of the list are stored.
    func editionCount(list: String) async throws -> Int {
        try await database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM edition WHERE list_name_encoded = ?", arguments: [list]) ?? 0
        }
    }

    private static func bookExists(_ id: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM book WHERE id = ?"), arguments: [id]) ?? false
    }

    private static func upsert(_ book: CatalogBook, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO book (id, title, author, contributor, publisher, description, price, isbn10, isbn13, other_isbns,
                                  image_url, image_width, image_height)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET title = excluded.title, author = excluded.author, contributor = excluded.contributor,
                    publisher = excluded.publisher, description = excluded.description, price = excluded.price,
                    isbn10 = excluded.isbn10, isbn13 = excluded.isbn13, other_isbns = excluded.other_isbns,
                    image_url = excluded.image_url, image_width = excluded.image_width, image_height = excluded.image_height,
                    source = 'nyt'
                """,
            arguments: [
                book.id, book.title, book.author, book.contributor, book.publisher, book.description, book.price,
                book.isbn10, book.isbn13, book.otherISBNs.joined(separator: " "), book.imageURL, book.imageWidth, book.imageHeight,
            ]
        )
        try db.execute(sql: "DELETE FROM book_link WHERE book_id = ?", arguments: [book.id])
        for (kind, links) in [("buy", book.buyLinks), ("reading", book.readingLinks)] {
            for (position, link) in links.enumerated() {
                try db.execute(
                    sql: "INSERT INTO book_link (book_id, kind, position, name, url) VALUES (?, ?, ?, ?, ?)",
                    arguments: [book.id, kind, position, link.name, link.url]
                )
            }
        }
        // `book_search` follows `list_entry` and `book` by migration 13's triggers.
        try db.execute(sql: "DELETE FROM book_isbn WHERE book_id = ?", arguments: [book.id])
        for isbn in Set([book.isbn13, book.isbn10] + book.otherISBNs) where !isbn.isEmpty {
            try db.execute(sql: "INSERT INTO book_isbn (book_id, isbn) VALUES (?, ?)", arguments: [book.id, isbn])
        }
        try AuthorStore.writeCredits(bookID: book.id, author: book.author, contributor: book.contributor, db)
        try AddedBookStore.merge(addedBooksOf: book, db)
    }

    // MARK: Reading (pages)

    static let listColumns = """
        catalog_list.name_encoded, catalog_list.display_name, catalog_list.frequency, catalog_list.published_date,
        catalog_list.fetched_at, (SELECT COUNT(*) FROM list_entry WHERE list_entry.list_name_encoded = catalog_list.name_encoded) AS book_count
        """

    /// Every current list that has an edition, by name.
    public func currentLists() async throws -> [ListSummary] {
        try await database.pool.read { try Reader(db: $0).currentLists() }
    }

    /// A current list and its books in rank order, or nil when there is no such list.
    public func list(named nameEncoded: String) async throws -> (ListSummary, [ListedBook])? {
        try await database.pool.read { try Reader(db: $0).list(named: nameEncoded) }
    }

    /// A current list's edition of `date` from the history, or nil when none is stored.
    public func edition(list nameEncoded: String, date: String) async throws -> StoredEdition? {
        try await database.pool.read { try Reader(db: $0).edition(list: nameEncoded, date: date) }
    }

    /// The date of the edition stored before the current one of a list, if any.
    public func previousEditionDate(list nameEncoded: String) async throws -> String? {
        try await database.pool.read { try Reader(db: $0).previousEditionDate(list: nameEncoded) }
    }

    /// A book with all its links, or nil.
    public func book(id: String) async throws -> CatalogBook? {
        try await database.pool.read { try Reader(db: $0).book(id: id) }
    }

    /// Finds a book by any of its ISBNs with one search of `book_isbn`'s index, cheap enough for
    /// every row of a large import.
    static let bookIDByISBN = "SELECT book_id FROM book_isbn WHERE isbn = ? LIMIT 1"

    /// The id of a book that has `isbn` as its primary or one of its other ISBNs, or nil.
    static func bookID(isbn: String, _ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: bookIDByISBN), arguments: [isbn])
    }

    /// ``bookID(isbn:_:)`` for every ISBN of an import at once: each ISBN some book has, with the
    /// book that lookup answers (the first in the index). One statement, where a statement an
    /// ISBN cost 50,000-row imports 100,000 of them (issue 58).
    static func bookIDs(isbns: [String], _ db: Database) throws -> [String: String] {
        guard !isbns.isEmpty else { return [:] }
        let cursor = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT isbn, book_id FROM book_isbn WHERE isbn IN (SELECT value FROM json_each(?)) ORDER BY isbn, rowid"),
            arguments: [JSONText.array(of: isbns)]
        )
        var ids: [String: String] = [:]
        while let row = try cursor.next() {
            let isbn: String = row[0]
            if ids[isbn] == nil { ids[isbn] = row[1] }
        }
        return ids
    }

    /// The list's book that has this ISBN in either form; a book a member added is not
    /// answered, so that looking an ISBN up tells nobody what another member added (a giver's
    /// surprise, for one).
    public func listedBookID(isbn: ISBN) async throws -> String? {
        try await database.pool.read { db in
            try String.fetchOne(
                db,
                sql: "SELECT book.id FROM book_isbn JOIN book ON book.id = book_isbn.book_id WHERE book_isbn.isbn IN (?, ?) AND book.source = 'nyt' LIMIT 1",
                arguments: [isbn.isbn13, isbn.isbn10 ?? isbn.isbn13]
            )
        }
    }

    /// The current lists each book is on, best rank first.
    public func placements(of bookIDs: [String]) async throws -> [String: [Placement]] {
        guard !bookIDs.isEmpty else { return [:] }
        return try await database.pool.read { try Reader(db: $0).placements(of: bookIDs) }
    }

    /// Books on current lists whose title or author has words starting with each word of
    /// `query`, ignoring case and accents; best-ranked first.
    /// The orders of search results the catalog can give; the household's orders (rating, how
    /// many want a book) are made from these by the page, which knows the household.
    public enum SearchOrder: Sendable {
        /// How well the words match (SQLite's bm25), then the best rank on a current list.
        case relevance
        case title
        case author
    }

    /// Books on the current lists whose title or author match `query`; with `list`, only that
    /// list's (the NYT's lists are its genres).
    public func search(_ query: String, list: String? = nil, order: SearchOrder = .relevance, limit: Int = 50) async throws -> [BookSummary] {
        try await database.pool.read { try Reader(db: $0).search(query, list: list, order: order, limit: limit) }
    }

    /// Each word of the query as a quoted prefix term, so nothing typed is read as FTS syntax.
    static func ftsQuery(_ query: String) -> String? {
        let words = query.split { !$0.isLetter && !$0.isNumber }.prefix(8)
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
    }

    // MARK: Per-user preferences

    public func favoriteLists(userID: UserID) async throws -> Set<String> {
        try await database.pool.read { try Reader(db: $0).favoriteLists(userID: userID) }
    }

    /// Stars or unstars a list; returns whether it is a favourite now.
    public func toggleFavorite(userID: UserID, list: String, at now: Date) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM favorite_list WHERE user_id = ? AND list_name_encoded = ?", arguments: [userID, list])
            guard db.changesCount == 0 else { return false }
            try db.execute(sql: "INSERT INTO favorite_list (user_id, list_name_encoded, created_at) VALUES (?, ?, ?)", arguments: [userID, list, StoredDate(now)])
            return true
        }
    }

    /// The list `GET /` opens for the user, when it is still a current list.
    public func defaultList(userID: UserID) async throws -> String? {
        try await database.pool.read { try Reader(db: $0).defaultList(userID: userID) }
    }

    /// Sets (or with nil clears) the user's start list; false when `list` is not a current list.
    public func setDefaultList(userID: UserID, list: String?) async throws -> Bool {
        try await database.write { db in
            if let list, try Bool.fetchOne(db, sql: "SELECT 1 FROM catalog_list WHERE name_encoded = ? AND is_current", arguments: [list]) != true {
                return false
            }
            try db.execute(sql: "UPDATE user SET default_list = ? WHERE id = ?", arguments: [list, userID])
            return true
        }
    }

    // MARK: Rows

    static func listedBook(_ row: Row) -> ListedBook {
        ListedBook(rank: row["rank"], rankLastWeek: row["rank_last_week"], weeksOnList: row["weeks_on_list"], book: bookSummary(row))
    }

    static func listSummary(_ row: Row) -> ListSummary {
        ListSummary(
            nameEncoded: row["name_encoded"], displayName: row["display_name"],
            frequency: ListFrequency(rawValue: row["frequency"]) ?? .weekly, publishedDate: row["published_date"],
            fetchedAt: row.optionalDate("fetched_at"), bookCount: row["book_count"]
        )
    }

    static func bookSummary(_ row: Row) -> BookSummary {
        BookSummary(
            id: row["id"], title: row["title"], author: row["author"], description: row["description"],
            imageURL: row["image_url"], imageWidth: row["image_width"], imageHeight: row["image_height"],
            contributor: row["contributor"]
        )
    }
}
