import GRDB

extension CatalogStore {
    /// The catalog's queries on a connection someone else holds: a ``PageRead`` composes them
    /// with other stores' in one read transaction; the async methods run each in its own.
    public struct Reader {
        let db: Database

        /// Grows with every change to the catalog tables (migration 11's triggers): rendered
        /// catalog pages are cached under it.
        public func generation() throws -> Int64 {
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM catalog_generation")) ?? 0
        }

        /// Every current list that has an edition, by name.
        public func currentLists() throws -> [ListSummary] {
            try Row.decodeAll(
                db.cachedStatement(sql: "SELECT \(CatalogStore.listColumns) FROM catalog_list WHERE is_current AND published_date IS NOT NULL ORDER BY display_name"),
                CatalogStore.listSummary
            )
        }

        /// Books on the current lists whose title or author match `query`; with `list`, only that
        /// list's (the NYT's lists are its genres).
        public func search(_ query: String, list: String? = nil, order: SearchOrder = .relevance, limit: Int = 50) throws -> [BookSummary] {
            guard let match = CatalogStore.ftsQuery(query) else { return [] }
            let orderBy = switch order {
            case .relevance: "book_search.rank, (SELECT MIN(rank) FROM list_entry WHERE list_entry.book_id = book.id), book.title"
            case .title: "book.title COLLATE NOCASE, book.author COLLATE NOCASE"
            case .author: "book.author COLLATE NOCASE, book.title COLLATE NOCASE"
            }
            return try Row.decodeAll(
                db.cachedStatement(sql: """
                    SELECT book.* FROM book_search JOIN book ON book.id = book_search.book_id
                    WHERE book_search MATCH ?
                      AND EXISTS (SELECT 1 FROM list_entry JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded
                                  WHERE list_entry.book_id = book.id AND catalog_list.is_current AND (?2 IS NULL OR catalog_list.name_encoded = ?2))
                    ORDER BY \(orderBy)
                    LIMIT ?
                    """),
                arguments: [match, list, limit],
                CatalogStore.bookSummary
            )
        }

        /// Page `number` of what ``search(_:list:order:limit:)`` finds by relevance, every match
        /// rather than the page's first fifty, for the API (issue 54); a number past the last page
        /// is the last page.
        public func search(_ query: String, page number: Int) throws -> PagedList<BookSummary> {
            guard let match = CatalogStore.ftsQuery(query) else { return PagedList(items: [], total: 0, number: 1) }
            let matching = """
                FROM book_search JOIN book ON book.id = book_search.book_id
                WHERE book_search MATCH ?
                  AND EXISTS (SELECT 1 FROM list_entry JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded
                              WHERE list_entry.book_id = book.id AND catalog_list.is_current)
                """
            return try PagedList.read(
                db, count: "SELECT COUNT(*) \(matching)",
                rows: """
                    SELECT book.* \(matching)
                    ORDER BY book_search.rank, (SELECT MIN(rank) FROM list_entry WHERE list_entry.book_id = book.id), book.title, book.id
                    """,
                arguments: [match], page: number, CatalogStore.bookSummary
            )
        }

        /// A current list and its books in rank order, or nil when there is no such list.
        public func list(named nameEncoded: String) throws -> (ListSummary, [ListedBook])? {
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT \(CatalogStore.listColumns) FROM catalog_list WHERE name_encoded = ? AND is_current AND published_date IS NOT NULL"),
                arguments: [nameEncoded]
            ) else { return nil }
            let books = try Row.decodeAll(
                db.cachedStatement(sql: """
                    SELECT list_entry.rank, list_entry.rank_last_week, list_entry.weeks_on_list, book.*
                    FROM list_entry JOIN book ON book.id = list_entry.book_id
                    WHERE list_entry.list_name_encoded = ? ORDER BY list_entry.rank
                    """),
                arguments: [nameEncoded],
                CatalogStore.listedBook
            )
            return (CatalogStore.listSummary(row), books)
        }

        /// A current list's edition of `date` from the history, or nil when none is stored.
        public func edition(list nameEncoded: String, date: String) throws -> StoredEdition? {
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT catalog_list.name_encoded, catalog_list.display_name, catalog_list.frequency,
                        edition.published_date, edition.fetched_at,
                        (SELECT COUNT(*) FROM edition_entry AS e WHERE e.list_name_encoded = edition.list_name_encoded AND e.published_date = edition.published_date) AS book_count,
                        (SELECT MAX(published_date) FROM edition AS e WHERE e.list_name_encoded = edition.list_name_encoded AND e.published_date < edition.published_date) AS previous_date,
                        (SELECT MIN(published_date) FROM edition AS e WHERE e.list_name_encoded = edition.list_name_encoded AND e.published_date > edition.published_date) AS next_date
                    FROM edition JOIN catalog_list ON catalog_list.name_encoded = edition.list_name_encoded
                    WHERE edition.list_name_encoded = ? AND edition.published_date = ? AND catalog_list.is_current
                    """),
                arguments: [nameEncoded, date]
            ) else { return nil }
            let books = try Row.decodeAll(
                db.cachedStatement(sql: """
                    SELECT edition_entry.rank, edition_entry.rank_last_week, edition_entry.weeks_on_list, book.*
                    FROM edition_entry JOIN book ON book.id = edition_entry.book_id
                    WHERE edition_entry.list_name_encoded = ? AND edition_entry.published_date = ? ORDER BY edition_entry.rank
                    """),
                arguments: [nameEncoded, date],
                CatalogStore.listedBook
            )
            return StoredEdition(list: CatalogStore.listSummary(row), books: books, previousDate: row["previous_date"], nextDate: row["next_date"])
        }

        /// The date of the edition stored before the current one of a list, if any.
        public func previousEditionDate(list nameEncoded: String) throws -> String? {
            try String.fetchOne(
                db.cachedStatement(sql: """
                    SELECT MAX(edition.published_date) FROM edition JOIN catalog_list ON catalog_list.name_encoded = edition.list_name_encoded
                    WHERE edition.list_name_encoded = ? AND edition.published_date < catalog_list.published_date
                    """),
                arguments: [nameEncoded]
            )
        }

        /// For the given books of a list's edition of `date`: the last edition before it that each
        /// was on, with its rank there. Books never on the list before are absent.
        public func earlierAppearances(list: String, before date: String, books: [String]) throws -> [String: EarlierAppearance] {
            guard !books.isEmpty else { return [:] }
            // SQLite takes `rank` from the row holding the MAX: the rank of that latest appearance.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT book_id, MAX(published_date) AS published_date, rank FROM edition_entry
                    WHERE book_id IN (\(databaseQuestionMarks(count: books.count))) AND list_name_encoded = ? AND published_date < ?
                    GROUP BY book_id
                    """,
                arguments: StatementArguments(books) + [list, date]
            )
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["book_id"], EarlierAppearance(date: $0["published_date"], rank: $0["rank"])) })
        }

        public func favoriteLists(userID: UserID) throws -> Set<String> {
            Set(try String.fetchAll(db.cachedStatement(sql: "SELECT list_name_encoded FROM favorite_list WHERE user_id = ?"), arguments: [userID]))
        }

        /// The list `GET /` opens for the user, when it is still a current list.
        public func defaultList(userID: UserID) throws -> String? {
            try String.fetchOne(
                db.cachedStatement(sql: """
                    SELECT user.default_list FROM user JOIN catalog_list ON catalog_list.name_encoded = user.default_list
                    WHERE user.id = ? AND catalog_list.is_current
                    """),
                arguments: [userID]
            )
        }

        /// A book with all its links, or nil.
        public func book(id: String) throws -> CatalogBook? {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM book WHERE id = ?"), arguments: [id]) else { return nil }
            let links = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT kind, name, url FROM book_link WHERE book_id = ? ORDER BY kind, position"), arguments: [id]
            )
            func linksOf(_ kind: String) -> [CatalogBook.Link] {
                links.filter { $0["kind"] == kind }.map { CatalogBook.Link(name: $0["name"], url: $0["url"]) }
            }
            let otherISBNs: String = row["other_isbns"]
            var book = CatalogBook(
                id: row["id"], title: row["title"], author: row["author"], contributor: row["contributor"],
                publisher: row["publisher"], description: row["description"], price: row["price"],
                isbn10: row["isbn10"], isbn13: row["isbn13"], otherISBNs: otherISBNs.split(separator: " ").map(String.init),
                imageURL: row["image_url"], imageWidth: row["image_width"], imageHeight: row["image_height"],
                buyLinks: linksOf("buy"), readingLinks: linksOf("reading")
            )
            book.isAdded = row["source"] == "added"
            book.firstPublished = row["first_published"]
            return book
        }

        /// The current lists each book is on, best rank first.
        public func placements(of bookIDs: [String]) throws -> [String: [Placement]] {
            guard !bookIDs.isEmpty else { return [:] }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT list_entry.book_id, list_entry.rank, catalog_list.name_encoded, catalog_list.display_name
                    FROM list_entry JOIN catalog_list ON catalog_list.name_encoded = list_entry.list_name_encoded
                    WHERE catalog_list.is_current AND list_entry.book_id IN (\(databaseQuestionMarks(count: bookIDs.count)))
                    ORDER BY list_entry.rank, catalog_list.display_name
                    """,
                arguments: StatementArguments(bookIDs)
            )
            return Dictionary(grouping: rows, by: { $0["book_id"] as String }).mapValues { rows in
                rows.map { Placement(listNameEncoded: $0["name_encoded"], displayName: $0["display_name"], rank: $0["rank"]) }
            }
        }
    }
}
