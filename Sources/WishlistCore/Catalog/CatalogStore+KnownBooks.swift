import GRDB

/// Search over every book the household knows (issue 57, item 9): the lists' books of every week
/// kept, and the books members added, not only the current lists' (``Reader/search(_:list:order:limit:)``).
extension CatalogStore {
    public func searchKnown(_ query: String, limit: Int = 20) async throws -> [BookSummary] {
        try await database.pool.read { try Reader(db: $0).searchKnown(query, limit: limit) }
    }
}

extension CatalogStore.Reader {
    /// Books whose title or author holds every word of `query` (up to eight, case folded as
    /// SQLite folds ASCII), on a current list first, then by title. The full-text index holds only
    /// the current lists' books (migration 13), so this reads the book table itself: a few
    /// thousand rows a year of history, read only when a giver searches for an idea.
    public func searchKnown(_ query: String, limit: Int) throws -> [BookSummary] {
        // Letters and digits only, as the full-text search reads a query: no word holds LIKE's `%` or `_`.
        let words = query.split { !$0.isLetter && !$0.isNumber }.prefix(8).map { "%\($0)%" }
        guard !words.isEmpty else { return [] }
        let matches = Array(repeating: "(book.title || ' ' || book.author) LIKE ?", count: words.count).joined(separator: " AND ")
        return try Row.decodeAll(
            db.cachedStatement(sql: """
                SELECT book.* FROM book WHERE \(matches)
                ORDER BY NOT EXISTS (SELECT 1 FROM list_entry WHERE list_entry.book_id = book.id), book.title COLLATE NOCASE, book.id
                LIMIT ?
                """),
            arguments: StatementArguments(words) + [limit],
            CatalogStore.bookSummary
        )
    }
}
