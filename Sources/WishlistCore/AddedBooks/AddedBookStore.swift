import Foundation
import GRDB

/// Books no list carries, in the catalog's `book` table with `source` 'added' (migration 19):
/// each has a page, and can be wished for, reserved, read and rated like a list's.
public struct AddedBookStore: Sendable {
    public enum Outcome: Sendable, Equatable {
        case added(bookID: String)
        /// A book with this ISBN was there already, from a list or added before: the same book.
        case known(bookID: String)

        public var bookID: String {
            switch self {
            case .added(let id), .known(let id): id
            }
        }
    }

    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func add(_ book: NewBook, at now: Date) async throws -> Outcome {
        try await database.write { db in try Self.add(book, at: now, db) }
    }

    /// The book's id: the existing book with its ISBN, or a new one under its ISBN-13 (the id a
    /// list would give it), or under `added-` and random hex when it has no ISBN. `importID`
    /// names the Goodreads import that adds it, if one does.
    static func add(_ book: NewBook, at now: Date, importID: ImportID? = nil, _ db: Database) throws -> Outcome {
        if let isbn = book.isbn, let known = try CatalogStore.bookID(isbn: isbn.isbn13, db) ?? CatalogStore.bookID(isbn: isbn.isbn10 ?? "", db) {
            return .known(bookID: known)
        }
        let id = book.isbn?.isbn13 ?? "added-" + SecureRandom.hex(byteCount: 6)
        // Prepared once per connection, because an import adds thousands.
        try db.cachedStatement(
            sql: """
                INSERT INTO book (id, title, author, contributor, publisher, description, isbn10, isbn13, other_isbns,
                                  image_url, image_width, image_height, source, first_published, added_at, import_id)
                VALUES (?, ?, ?, '', ?, '', ?, ?, '', ?, 0, 0, 'added', ?, ?, ?)
                """
        ).execute(
            arguments: [
                id, book.title, book.author, book.publisher, book.isbn?.isbn10 ?? "", book.isbn?.isbn13 ?? "", book.coverURL, book.firstPublished,
                StoredDate(now), importID,
            ]
        )
        if let isbn = book.isbn {
            for value in [isbn.isbn13, isbn.isbn10].compactMap({ $0 }) {
                try db.cachedStatement(sql: "INSERT INTO book_isbn (book_id, isbn) VALUES (?, ?)").execute(arguments: [id, value])
            }
        }
        if let link = book.link {
            try db.execute(
                sql: "INSERT INTO book_link (book_id, kind, position, name, url) VALUES (?, 'reading', 0, ?, ?)", arguments: [id, link.name, link.url]
            )
        }
        return .added(bookID: id)
    }

    /// An imported book the catalog does not know, as an added book of its own (or the one
    /// added before under its ISBN), so that it has a page like any other. A book added here
    /// carries the import's id, so that a failed import takes it away again.
    static func book(forImported imported: CatalogBook, at now: Date, importID: ImportID, _ db: Database) throws -> CatalogBook {
        let isbn = (try? ISBN(imported.isbn13)) ?? (try? ISBN(imported.isbn10))
        let outcome = try add(
            NewBook(title: imported.title, author: imported.author, isbn: isbn, publisher: imported.publisher), at: now, importID: importID, db
        )
        return CatalogBook(
            id: outcome.bookID, title: imported.title, author: imported.author, contributor: "", publisher: imported.publisher,
            description: "", price: nil, isbn10: isbn?.isbn10 ?? imported.isbn10, isbn13: isbn?.isbn13 ?? imported.isbn13, otherISBNs: [],
            imageURL: nil, imageWidth: 0, imageHeight: 0, buyLinks: [], readingLinks: []
        )
    }

    /// A list's book carries, among its other ISBNs, the id of a book added before: the added
    /// one's wishes, readings, ideas and received gifts move to the list's, and it goes once
    /// nothing is left on it. A member who has both keeps both rows (one row a book a member).
    /// The common case, the list's primary ISBN-13, needs none of this: it is the same row.
    static func merge(addedBooksOf book: CatalogBook, _ db: Database) throws {
        let candidates = Set(([book.isbn13, book.isbn10] + book.otherISBNs).compactMap { try? ISBN($0).isbn13 }).subtracting([book.id])
        for addedID in candidates {
            guard try String.fetchOne(db, sql: "SELECT source FROM book WHERE id = ?", arguments: [addedID]) == "added" else { continue }
            for table in ["wishlist_item", "reading", "received_item", "gift_idea", "reading_now"] {
                try db.execute(sql: "UPDATE OR IGNORE \(table) SET book_id = ? WHERE book_id = ?", arguments: [book.id, addedID])
            }
            let stillUsed = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM wishlist_item WHERE book_id = ?1) OR EXISTS (SELECT 1 FROM reading WHERE book_id = ?1)
                    OR EXISTS (SELECT 1 FROM received_item WHERE book_id = ?1) OR EXISTS (SELECT 1 FROM gift_idea WHERE book_id = ?1)
                """, arguments: [addedID]) ?? false
            if !stillUsed { try db.execute(sql: "DELETE FROM book WHERE id = ?", arguments: [addedID]) }
        }
    }
}
