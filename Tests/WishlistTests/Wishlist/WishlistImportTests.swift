import Foundation
import GRDB
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Importing into the wishlist: catalog matches by ISBN, books already there", .removesTemporaryDirectories)
struct WishlistImportTests {
    static let importedAt = Date(timeIntervalSince1970: 1_790_000_000)

    static func catalogBook(_ isbn13: String, isbn10: String, otherISBNs: [String] = [], title: String) -> CatalogBook {
        CatalogBook(
            id: isbn13, title: title, author: "Catalog Author", contributor: "", publisher: "", description: "", price: nil,
            isbn10: isbn10, isbn13: isbn13, otherISBNs: otherISBNs, imageURL: nil, imageWidth: 0, imageHeight: 0,
            buyLinks: [], readingLinks: []
        )
    }

    static func imported(_ title: String, author: String = "", isbn10: String = "", isbn13: String = "", line: Int = 2) -> GoodreadsImportedBook {
        GoodreadsImportedBook(title: title, author: author, isbn10: isbn10, isbn13: isbn13, publisher: "", dateAdded: nil, notes: "", line: line)
    }

    /// A database whose catalog holds `books` on one list, and the id of a user to import for.
    static func database(catalog books: [CatalogBook]) async throws -> (AppDatabase, UserID) {
        let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("import.sqlite").path)
        let entries = books.enumerated().map { CatalogEdition.Entry(rank: $0.offset + 1, rankLastWeek: 0, weeksOnList: 1, book: $0.element) }
        let edition = CatalogEdition(listNameEncoded: "fiction", displayName: "Fiction", frequency: .weekly, publishedDate: "2026-09-20", entries: entries)
        try await CatalogStore(database: database).store(edition, fetchedAt: importedAt)
        let userID = try await database.pool.write { db in
            try db.execute(sql: "INSERT INTO user (username, username_key, password_hash, created_at) VALUES ('reader', 'reader', 'x', ?)", arguments: [importedAt])
            return UserID(db.lastInsertedRowID)
        }
        return (database, userID)
    }

    /// What importing `books` did, in one run of the importer.
    static func importing(_ books: [GoodreadsImportedBook], into database: AppDatabase, userID: UserID) async throws -> WishlistImportSummary {
        let outcome = try await GoodreadsImporter(database: database).run(books, userID: userID, at: importedAt)
        guard case .imported(let summary) = outcome else {
            Issue.record("the import did not run: \(outcome)")
            return WishlistImportSummary()
        }
        return summary
    }

    @Test func booksMatchTheCatalogByISBN13ISBN10OrAnyOtherISBN() async throws {
        let (database, userID) = try await Self.database(catalog: [
            Self.catalogBook("9780000000101", isbn10: "0000000101", title: "By Thirteen"),
            Self.catalogBook("9780000000202", isbn10: "000000020X", title: "By Ten"),
            Self.catalogBook("9780000000303", isbn10: "0000000303", otherISBNs: ["9780000000310"], title: "By Other Edition"),
        ])
        let summary = try await Self.importing([
            Self.imported("Goodreads' title", isbn13: "9780000000101"),
            Self.imported("Only an ISBN-10", isbn10: "000000020X"),
            Self.imported("The paperback", isbn13: "9780000000310"),
            Self.imported("Not in the catalog", isbn10: "000000099X", isbn13: "9780000000996"),
        ], into: database, userID: userID)
        #expect(summary == WishlistImportSummary(added: 4, alreadyPresent: 0, skipped: []))
        let items = try await WishlistStore(database: database).items(userID: userID, sort: .title)
        #expect(items.map { "\($0.bookID ?? "none"): \($0.title)" } == [
            "9780000000303: By Other Edition",
            "9780000000202: By Ten",
            "9780000000101: By Thirteen",
            "9780000000996: Not in the catalog",
        ], "a book the catalog does not know becomes an added book under its ISBN-13")
        let added = try await CatalogStore(database: database).book(id: "9780000000996")
        #expect(added?.title == "Not in the catalog" && added?.isAdded == true)
    }

    @Test func theISBNLookupSearchesBookISBNsIndex() async throws {
        let (database, _) = try await Self.database(catalog: [Self.catalogBook("9780000000101", isbn10: "0000000101", title: "Indexed")])
        let plan = try await database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + CatalogStore.bookIDByISBN, arguments: ["9780000000101"]).map { $0["detail"] as String }
        }
        #expect(plan.count == 1)
        #expect(plan.first?.hasPrefix("SEARCH book_isbn USING ") == true && plan.first?.contains("INDEX book_isbn_on_isbn (isbn=?)") == true, "\(plan)")
    }

    @Test func aRefreshReplacesABooksISBNs() async throws {
        let (database, _) = try await Self.database(catalog: [
            Self.catalogBook("9780000000101", isbn10: "0000000101", otherISBNs: ["9780000000118"], title: "First printing"),
        ])
        let reissued = Self.catalogBook("9780000000101", isbn10: "", otherISBNs: ["9780000000125"], title: "Reissued")
        let edition = CatalogEdition(
            listNameEncoded: "fiction", displayName: "Fiction", frequency: .weekly, publishedDate: "2026-09-27",
            entries: [CatalogEdition.Entry(rank: 1, rankLastWeek: 1, weeksOnList: 2, book: reissued)]
        )
        try await CatalogStore(database: database).store(edition, fetchedAt: Self.importedAt)
        let found = try await database.pool.read { db in
            try ["9780000000101", "0000000101", "9780000000118", "9780000000125"].map { try CatalogStore.bookID(isbn: $0, db) }
        }
        #expect(found == ["9780000000101", nil, nil, "9780000000101"])
    }

    @Test func booksAlreadyThereOrTwiceInTheFileAreCountedNotAdded() async throws {
        let (database, userID) = try await Self.database(catalog: [Self.catalogBook("9780000000101", isbn10: "0000000101", title: "On The List")])
        let store = WishlistStore(database: database)
        _ = try await Self.importing([
            Self.imported("On the list", isbn13: "9780000000101"),
            Self.imported("Own Book", author: "Ann Author", isbn13: "9780000000999"),
        ], into: database, userID: userID)
        let summary = try await Self.importing([
            Self.imported("Same catalog book by its ISBN-10", isbn10: "0000000101"),
            Self.imported("Same ISBN-13, other title", isbn13: "9780000000999"),
            Self.imported("OWN BOOK", author: "ann author"),
            Self.imported("New Book", author: "Someone"),
            Self.imported("new book", author: "SOMEONE"),
            Self.imported("On The List", author: "Catalog Author"),
        ], into: database, userID: userID)
        #expect(summary.added == 1)
        #expect(summary.alreadyPresent == 5, "title and author match ignoring case, catalog books by id, any book by ISBN-13")
        #expect(try await store.count(userID: userID) == 3)
    }
}
