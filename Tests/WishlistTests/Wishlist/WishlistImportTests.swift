import Foundation
import GRDB
import Synchronization
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

    /// Issue 58: every ISBN of the file is looked up in one statement, however many rows; a
    /// statement an ISBN cost a 50,000-row import 100,000 of them.
    @Test func theCatalogIsSearchedInOneStatementHoweverManyRows() async throws {
        let (database, _) = try await Self.database(catalog: [Self.catalogBook("9780000000101", isbn10: "0000000101", title: "Listed")])
        let files = [10, 100].map { count in
            [Self.imported("Listed", isbn10: "0000000101")]
                + (0..<count).map { Self.imported("Own \($0)", isbn10: "000000099X", isbn13: ImportInSlicesTests.isbn13($0)) }
        }
        let statements = try await database.pool.read { db in
            try files.map { file in
                var executed = 0
                db.trace { event in
                    if case .statement(let statement) = event, !statement.sql.hasPrefix("--") { executed += 1 }
                }
                defer { db.trace(options: []) }
                let matched = try WishlistStore.matchCatalog(file, db)
                #expect(matched.map(\.id) == ["9780000000101"] + Array(repeating: "", count: file.count - 1), "matched by its ISBN-10; the others are her own")
                return executed
            }
        }
        #expect(statements[0] == statements[1], "statements for 10 rows and for 100: \(statements)")
    }

    /// Issue 58: an imported want is written once, shared as her default list makes it. The
    /// default list's trigger wrote each one again (`shared`), and that update ran every update
    /// trigger of `wishlist_item` for every row; the household's count of the book is the same.
    @Test func anImportedWantIsWrittenOnceSharedAsItsListMakesIt() async throws {
        let (database, userID) = try await Self.database(catalog: [Self.catalogBook("9780000000101", isbn10: "0000000101", title: "Listed")])
        try await HouseholdStore(database: database).setSharing(userID: userID, .household)
        let updateTriggers = Mutex<[String]>([])
        try await database.pool.writeWithoutTransaction { db in
            db.trace { event in
                if case .statement(let statement) = event, statement.sql.hasPrefix("-- TRIGGER wishlist_item_update") {
                    updateTriggers.withLock { $0.append(statement.sql) }
                }
            }
        }
        let wants = { () async throws -> [String] in
            try await database.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT title, shared FROM wishlist_item ORDER BY id").map { "\($0["title"] as String): \($0["shared"] as Bool)" }
            }
        }
        _ = try await Self.importing([Self.imported("Listed", isbn13: "9780000000101"), Self.imported("Own Book", author: "Ann Author")], into: database, userID: userID)
        #expect(updateTriggers.withLock { $0 }.isEmpty, "\(updateTriggers.withLock { $0 })")
        #expect(try await wants() == ["Listed: true", "Own Book: true"], "on her default list, which the household sees")
        let wanted = try await database.pool.read { try Int.fetchOne($0, sql: "SELECT wanted FROM book_household WHERE book_id = '9780000000101'") }
        #expect(wanted == 1, "the household counts her want of the list's book")

        try await database.pool.write { db in
            try db.execute(sql: "UPDATE wish_list SET visibility = 'private' WHERE user_id = ? AND is_default", arguments: [userID])
        }
        updateTriggers.withLock { $0.removeAll() }
        _ = try await Self.importing([Self.imported("Kept To Herself", author: "Ann Author")], into: database, userID: userID)
        #expect(updateTriggers.withLock { $0 }.isEmpty, "\(updateTriggers.withLock { $0 })")
        #expect(try await wants() == ["Listed: false", "Own Book: false", "Kept To Herself: false"], "her default list is hers alone now")
    }
}
