import Foundation
import GRDB
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Storage: migrations, WAL, transactions", .removesTemporaryDirectories)
struct StorageTests {
    func databasePath() throws -> String {
        try temporaryDirectory().appendingPathComponent("nested/dir/test.sqlite").path
    }

    @Test func migratesFromEmptyAndReRunsAsANoOp() throws {
        let path = try databasePath()
        let database = try AppDatabase.open(path: path)
        let applied = try database.appliedMigrations()
        #expect(applied == AppDatabase.migrator.migrations)
        #expect(applied.first == "1-secrets")
        try database.migrate()
        let reopened = try AppDatabase.open(path: path)
        #expect(try reopened.appliedMigrations() == applied)
        let tables = try reopened.pool.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        #expect(Set(tables).isSuperset(of: ["user", "session", "throttle_event", "secret", "grdb_migrations"]))
    }

    @Test func aDatabaseFromAnEarlierVersionUpgradesInPlace() throws {
        let path = try databasePath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabasePool(path: path)
        try AppDatabase.migrator.migrate(old, upTo: "2-accounts")
        try old.write { db in
            try db.execute(sql: "INSERT INTO user (username, username_key, password_hash, created_at) VALUES ('early', 'early', 'x', ?)", arguments: [Date()])
        }
        try old.close()
        let upgraded = try AppDatabase.open(path: path)
        #expect(try upgraded.appliedMigrations() == AppDatabase.migrator.migrations)
        let user = try upgraded.pool.read { try Row.fetchOne($0, sql: "SELECT username, default_list FROM user") }
        #expect(user?["username"] == "early")
        #expect(user?["default_list"] == nil as String?)
    }

    @Test func theUpgradeIndexesTheISBNsOfBooksAlreadyInTheCatalog() throws {
        let path = try databasePath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabasePool(path: path)
        try AppDatabase.migrator.migrate(old, upTo: "4-wishlist")
        try old.write { db in
            for (id, isbn10, isbn13, others) in [
                ("9780000000101", "0000000101", "9780000000101", "9780000000118 9780000000125"),
                ("0000000202", "0000000202", "", ""),
                ("AUDIO-1", "", "", ""),
            ] {
                try db.execute(
                    sql: """
                        INSERT INTO book (id, title, author, contributor, publisher, description, isbn10, isbn13, other_isbns, image_width, image_height)
                        VALUES (?, 'Title', 'Author', '', '', '', ?, ?, ?, 0, 0)
                        """,
                    arguments: [id, isbn10, isbn13, others]
                )
            }
        }
        try old.close()
        let upgraded = try AppDatabase.open(path: path)
        let indexed = try upgraded.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT book_id, isbn FROM book_isbn ORDER BY book_id, isbn").map { "\($0["book_id"] as String) \($0["isbn"] as String)" }
        }
        #expect(indexed == [
            "0000000202 0000000202",
            "9780000000101 0000000101",
            "9780000000101 9780000000101",
            "9780000000101 9780000000118",
            "9780000000101 9780000000125",
        ])
    }

    @Test func theSearchIndexHoldsTheBooksOfTheCurrentEditionsWhoeverWrites() async throws {
        let server = try await TestApp.build()
        let catalog = CatalogStore(database: server.database)
        let (current, stored) = try await server.database.pool.read { db in
            (Set(try String.fetchAll(db, sql: "SELECT book_id FROM list_entry")), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") ?? 0)
        }
        #expect(stored > current.count, "the sample's earlier editions keep books that left the lists")
        #expect(try await server.database.pool.read { Set(try String.fetchAll($0, sql: "SELECT book_id FROM book_search")) } == current)

        let book = try #require(try await catalog.list(named: "hardcover-fiction")).1[0]
        try await server.database.pool.write { db in
            try db.execute(sql: "UPDATE book SET title = 'Quixotic Zebra' WHERE id = ?", arguments: [book.book.id])
        }
        #expect(try await catalog.search("quixotic").map(\.id) == [book.book.id], "a changed title is found")
        try await server.database.pool.write { db in
            try db.execute(sql: "DELETE FROM list_entry WHERE book_id = ?", arguments: [book.book.id])
        }
        #expect(try await catalog.search("quixotic").isEmpty)
        #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book_search WHERE book_id = ?", arguments: [book.book.id]) } == 0)
        try await server.database.pool.write { db in
            try db.execute(
                sql: "INSERT INTO list_entry (list_name_encoded, rank, book_id, rank_last_week, weeks_on_list) VALUES ('hardcover-fiction', 99, ?, 0, 1)",
                arguments: [book.book.id]
            )
        }
        #expect(try await catalog.search("quixotic").map(\.id) == [book.book.id], "back on a list, back in the index")
    }

    @Test func theUpgradeDropsBooksNoLongerOnAListFromTheSearchIndex() throws {
        let path = try databasePath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabasePool(path: path)
        try AppDatabase.migrator.migrate(old, upTo: "12-wishlist-generation")
        try old.write { db in
            try db.execute(sql: "INSERT INTO catalog_list (name_encoded, display_name, frequency, newest_published_date, is_current) VALUES ('fiction', 'Fiction', 'WEEKLY', '2024-01-07', 1)")
            for id in ["ON-LIST", "LEFT-LONG-AGO"] {
                try db.execute(
                    sql: """
                        INSERT INTO book (id, title, author, contributor, publisher, description, isbn10, isbn13, other_isbns, image_width, image_height)
                        VALUES (?, 'Title', 'Author', '', '', '', '', '', '', 0, 0)
                        """,
                    arguments: [id]
                )
                try db.execute(sql: "INSERT INTO book_search (book_id, title, author) VALUES (?, 'Title', 'Author')", arguments: [id])
            }
            try db.execute(sql: "INSERT INTO list_entry (list_name_encoded, rank, book_id, rank_last_week, weeks_on_list) VALUES ('fiction', 1, 'ON-LIST', 0, 1)")
        }
        try old.close()
        let upgraded = try AppDatabase.open(path: path)
        #expect(try upgraded.pool.read { try String.fetchAll($0, sql: "SELECT book_id FROM book_search") } == ["ON-LIST"])
    }

    @Test func runsInWALModeWithForeignKeys() throws {
        let database = try AppDatabase.open(path: try databasePath())
        let (journal, foreignKeys) = try database.pool.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA foreign_keys"))
        }
        let synchronous = try database.pool.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(journal == "wal")
        #expect(foreignKeys == 1)
        #expect(synchronous == 2, "FULL")
    }

    @Test func readersSeeTheLastCommitWhileAWriteIsInProgress() async throws {
        let database = try AppDatabase.open(path: try databasePath())
        try await database.pool.write { db in
            try db.execute(sql: "INSERT INTO secret (name, value) VALUES ('a', x'01')")
        }
        // The writer blocks GRDB's writer thread (not a Swift task) until the reader is done.
        let writerInside = DispatchSemaphore(value: 0)
        let releaseWriter = DispatchSemaphore(value: 0)
        let writer = Task {
            try await database.pool.write { db in
                try db.execute(sql: "INSERT INTO secret (name, value) VALUES ('b', x'02')")
                writerInside.signal()
                releaseWriter.wait()
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                writerInside.wait()
                continuation.resume()
            }
        }
        let seenDuringWrite = try await database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM secret") }
        releaseWriter.signal()
        try await writer.value
        let seenAfter = try await database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM secret") }
        #expect(seenDuringWrite == 1, "the reader is not blocked and sees only committed rows")
        #expect(seenAfter == 2)
    }

    @Test func aFailedTransactionLeavesNothingBehind() async throws {
        let database = try AppDatabase.open(path: try databasePath())
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await database.pool.write { db in
                try db.execute(sql: "INSERT INTO secret (name, value) VALUES ('half', x'00')")
                throw Abort()
            }
        }
        await #expect(throws: DatabaseError.self) {
            try await database.pool.write { db in
                try db.execute(sql: "INSERT INTO secret (name, value) VALUES ('first', x'00')")
                try db.execute(sql: "INSERT INTO secret (name, value) VALUES ('first', x'00')")
            }
        }
        let count = try await database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM secret") }
        #expect(count == 0)
    }
}
