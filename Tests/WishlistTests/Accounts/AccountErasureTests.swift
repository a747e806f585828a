import Foundation
import GRDB
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Deleting an account leaves none of her words or her picture in the database's files", .removesTemporaryDirectories)
struct AccountErasureTests {
    /// Her words, each unlike anything else in the database.
    static let words = ["Marmalade note zq7", "Wombats everywhere qx9 review", "Lighthouse keeper jv4 bio"]

    /// Signs up `username` (with `email`) with a note, a review and a bio made of `words`.
    static func member(_ browser: inout TestBrowser, _ username: String, email: String = "", book: String, _ database: AppDatabase) async throws {
        try await browser.signUp(username, email: email)
        try await browser.post("/wishlist", [("book", book), ("return_to", "/lists")])
        let item = try await DataExportHTTPTests.itemID(database, owner: username, book: book)
        #expect(try await browser.post("/wishlist/\(item)", [("note", words[0]), ("priority", "normal")]).status == .seeOther)
        #expect(try await browser.markRead(book, rating: "4", review: words[1]).status == .seeOther)
        #expect(try await browser.post("/settings/profile", [("bio", words[2]), ("birthday_month", ""), ("birthday_day", "")]).status == .seeOther)
    }

    /// The database's file and its write-ahead log, as bytes.
    static func files(_ database: AppDatabase) throws -> Data {
        let path = database.pool.path
        return try [path, path + "-wal"].filter { FileManager.default.fileExists(atPath: $0) }
            .reduce(into: Data()) { $0.append(try Data(contentsOf: URL(fileURLWithPath: $1))) }
    }

    static func checkpoint(_ database: AppDatabase) async throws {
        _ = try await database.pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }

    @Test func aMemberWithAPictureIsRewrittenOutOfTheFileByTheDeletionItself() async throws {
        let server = try await TestApp.build()
        let database = server.database
        let books = try await WishlistHTTPTests.fictionIDs(server)
        try await TestApp.run(server) { keeper in
            try await keeper.signUp("keeper-2w")
            var erin = TestBrowser(client: keeper.client)
            try await Self.member(&erin, "erin-5z", book: books[0], database)
            #expect(try await erin.uploadPicture(PictureSamples.png(width: 300, height: 200)).status == .seeOther)
            let picture = try await database.pool.read { try Data.fetchOne($0, sql: "SELECT large FROM profile_picture")! }
            // A stretch from the middle of the JPEG: no other bytes in the file look like it.
            let needles = Self.words.map { Data($0.utf8) } + [picture.subdata(in: picture.count / 2..<picture.count / 2 + 64)]
            try await Self.checkpoint(database)
            let before = try Self.files(database)
            #expect(needles.allSatisfy { before.range(of: $0) != nil }, "the search finds her before")

            // Debian builds SQLite with SECURE_DELETE, which zeroes deleted rows by itself; SQLite's
            // own default (and macOS's) leaves them, which is what the rewrite is for.
            try await database.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA secure_delete = OFF") }
            try await erin.get("/settings")
            #expect(try await erin.post("/settings/delete-account", [("password", "correct horse battery")]).location == "/login")
            try await Self.checkpoint(database)

            let bytes = try Self.files(database)
            for needle in needles {
                #expect(bytes.range(of: needle) == nil, "left in the file: \(String(decoding: needle.prefix(30), as: UTF8.self))")
            }
            #expect(try await keeper.get("/settings").status == .ok, "the server goes on")
        }
    }

    @Test func aSmallAccountIsDeletedWithoutARewriteAndAVacuumLeavesNothingOfHer() async throws {
        let server = try await TestApp.build()
        let database = server.database
        let books = try await WishlistHTTPTests.fictionIDs(server)
        try await TestApp.run(server) { browser in
            try await Self.member(&browser, "sam-3k", book: books[0], database)
            let id = try await database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user WHERE username = 'sam-3k'")! }

            try await database.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA secure_delete = OFF") }
            let rewrite = try await database.pool.write { try AccountDeletion.delete(userID: id, username: "sam-3k", $0) }

            #expect(!rewrite, "three rows and no picture: a quick write")
            try await Self.checkpoint(database)
            try await database.pool.writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
            try await Self.checkpoint(database)
            let bytes = try Self.files(database)
            #expect(Self.words.allSatisfy { bytes.range(of: Data($0.utf8)) == nil })
        }
    }

    @Test func moreRowsThanTheThresholdAreRewrittenEvenWithoutAPicture() async throws {
        let database = try await TestApp.build().database
        let (atThreshold, pastIt) = try await database.pool.write { db in
            try db.execute(sql: "INSERT INTO user (username, username_key, password_hash, created_at) VALUES ('many', 'many', 'x', '2026-01-01 00:00:00.000')")
            let id = UserID(db.lastInsertedRowID)
            let addReading = { (index: Int) in
                try db.execute(
                    sql: "INSERT INTO reading (user_id, title, author, updated_at) VALUES (?, ?, 'A', '2026-01-01 00:00:00.000')",
                    arguments: [id, "Book \(index)"]
                )
            }
            for index in 0..<AccountDeletion.rowsWorthRewriting { try addReading(index) }
            let atThreshold = try AccountDeletion.worthRewriting(userID: id, db)
            try addReading(AccountDeletion.rowsWorthRewriting)
            return (atThreshold, try AccountDeletion.worthRewriting(userID: id, db))
        }
        #expect(!atThreshold && pastIt)
    }

    /// Issue 50: a small account's deletion rewrites nothing, and left her note and address in
    /// the write-ahead log, where a copy of the files, or a process killed a moment later, found
    /// them. The deletion now empties the log itself: no checkpoint of the test's own here.
    @Test func theDeletionEmptiesTheWriteAheadLogOfHerWords() async throws {
        let server = try await TestApp.build()
        let database = server.database
        let books = try await WishlistHTTPTests.fictionIDs(server)
        let address = "wal-erin-q8@example.com"
        try await TestApp.run(server) { keeper in
            try await keeper.signUp("keeper-4v")
            var erin = TestBrowser(client: keeper.client)
            try await Self.member(&erin, "erin-4v", email: address, book: books[0], database)
            let needles = (Self.words + [address]).map { Data($0.utf8) }
            #expect(needles.allSatisfy { (try? Self.files(database).range(of: $0)) != nil }, "the search finds her before")

            try await erin.get("/settings")
            #expect(try await erin.post("/settings/delete-account", [("password", "correct horse battery")]).location == "/login")

            let bytes = try Self.files(database)
            for needle in needles {
                #expect(bytes.range(of: needle) == nil, "left in the files: \(String(decoding: needle, as: UTF8.self))")
            }
            let log = try FileManager.default.attributesOfItem(atPath: database.pool.path + "-wal")[.size] as? Int
            #expect(log == 0, "the write-ahead log is cut to nothing")
            #expect(try await keeper.get("/settings").status == .ok, "the server goes on")
        }
    }

    /// A reader on a snapshot from before the deletion needs the log's pages: the log cannot be
    /// emptied under her, the tries end without hanging, and once she has moved on it empties.
    @Test func aReaderOnAnOlderSnapshotKeepsTheLogUntilSheMovesOn() async throws {
        let database = try await TestApp.build().database
        var held = Configuration()
        held.allowsUnsafeTransactions = true
        let reader = try DatabaseQueue(path: database.pool.path, configuration: held)
        try reader.inDatabase { db in
            try db.execute(sql: "BEGIN")
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user")
        }
        try await database.pool.write { db in
            try db.execute(sql: "INSERT INTO user (username, username_key, password_hash, created_at) VALUES ('later', 'later', 'x', ?)", arguments: [Date()])
        }
        #expect(await AccountDeletion.emptyLog(database, tries: 2) == false, "a reader on an older snapshot holds the log")
        #expect(try await database.pool.write { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM user WHERE username = 'later'") } == 1,
                "and the writer is free meanwhile")
        try reader.inDatabase { try $0.execute(sql: "COMMIT") }
        #expect(await AccountDeletion.emptyLog(database, tries: 1))
        #expect(try FileManager.default.attributesOfItem(atPath: database.pool.path + "-wal")[.size] as? Int == 0)
        try reader.close()
    }
}
