import Foundation
import GRDB
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 50: a 5,000-row import held SQLite's one writer for its whole run, and another member's
/// sign-in waited 14.8 s for it. The import is written in slices now, and stays all or nothing.
/// Slices here are cut by rows only (an hour's duration), so that each test knows where the
/// import stands; nothing waits on the wall clock.
@Suite("A Goodreads import in slices: others write meanwhile, and what fails leaves nothing", .removesTemporaryDirectories)
struct ImportInSlicesTests {
    static let slice = GoodreadsImporter.Slice(rows: 10, duration: .seconds(3600))

    /// A 979 ISBN-13 of `number`, its check digit right.
    static func isbn13(_ number: Int) -> String {
        let twelve = "979" + String(format: "%09d", number)
        let sum = twelve.enumerated().reduce(0) { $0 + ($1.offset % 2 == 0 ? 1 : 3) * Int(String($1.element))! }
        return twelve + String((10 - sum % 10) % 10)
    }

    /// `count` rows no catalog has, each with an ISBN of its own (so each adds a book), every
    /// fifth on the read shelf, then the books of `catalog` (ISBN-13s) to read.
    static func export(_ count: Int, catalog: [String] = []) -> [GoodreadsImportedBook] {
        (0..<count).map { number in
            GoodreadsImportedBook(
                shelf: number % 5 == 4 ? .read : .toRead, title: "Sliced \(number)", author: "Author \(number)", isbn10: "",
                isbn13: isbn13(100_000 + number), publisher: "", dateAdded: nil, notes: "", rating: number % 5 == 4 ? 4 : nil, line: number + 2
            )
        } + catalog.enumerated().map { index, isbn13 in
            GoodreadsImportedBook(title: "Listed \(index)", author: "", isbn10: "", isbn13: isbn13, publisher: "", dateAdded: nil, notes: "", line: count + index + 2)
        }
    }

    /// Pauses the import after its first slice (any later one passes) until the test lets it go.
    final class Pause: Sendable {
        let reached = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        private let slices = Mutex(0)

        @Sendable func betweenSlices() async {
            guard slices.withLock({ $0 += 1; return $0 }) == 1 else { return }
            reached.continuation.yield()
            for await _ in release.stream { return }
        }

        func waitUntilReached() async {
            for await _ in reached.stream { return }
        }
    }

    /// Whether another connection can begin writing this moment: `BEGIN IMMEDIATE` without
    /// waiting, which fails at once while any connection holds a write transaction.
    static func writerIsFree(_ database: AppDatabase) throws -> Bool {
        let other = try DatabaseQueue(path: database.pool.path)
        defer { try? other.close() }
        do {
            try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE; ROLLBACK") }
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            return false
        }
    }

    static func userID(_ username: String, _ database: AppDatabase) async throws -> UserID {
        try await database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user WHERE username = ?", arguments: [username])! }
    }

    /// What an import writes: her wishes and readings, the books no list has, the imports under way.
    static func counts(_ database: AppDatabase) async throws -> [Int] {
        try await database.pool.read { db in
            try ["wishlist_item", "reading", "book WHERE source = 'added'", "goodreads_import", "gift_idea", "reservation WHERE idea_id IS NOT NULL"]
                .map { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)")! }
        }
    }

    @Test func anotherMemberSignsInAndAddsABookWhileAnImportIsUnderWay() async throws {
        let server = try await TestApp.build()
        let database = server.database
        let books = try await WishlistHTTPTests.fictionIDs(server)
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader-s2")
            var importing = TestBrowser(client: browser.client)
            try await importing.signUp("importer-s2")
            let pause = Pause()
            let importer = GoodreadsImporter(database: database, slice: Self.slice, betweenSlices: pause.betweenSlices)
            let userID = try await Self.userID("importer-s2", database)
            let run = Task { try await importer.run(Self.export(100), userID: userID, at: Date()) }
            await pause.waitUntilReached()

            let free = try Self.writerIsFree(database)
            #expect(free, "the import holds the writer between its slices")
            // Without a free writer the writes below would wait for an import that waits for them.
            if free {
                #expect(try await database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") } == 10,
                        "one slice in, the import is under way")
                var reader = TestBrowser(client: browser.client)
                #expect(try await reader.signIn("reader-s2").status == .seeOther, "a sign-in writes its session meanwhile")
                #expect(try await reader.post("/wishlist", [("book", books[0]), ("return_to", "/wishlist")]).status == .seeOther)
                #expect(try await importer.run(Self.export(3), userID: userID, at: Date()) == .alreadyImporting,
                        "a second import of hers waits for none and counts nothing as hers")
            }
            pause.release.continuation.yield()
            #expect(try await run.value == .imported(WishlistImportSummary(added: 80, alreadyPresent: 0, readAdded: 20, readAlreadyPresent: 0)))
            #expect(try await Self.counts(database)[3] == 0, "the import is finished")
        }
    }

    @Test func anImportThatFailsHalfwayLeavesNothingOfIt() async throws {
        struct Failure: Error {}
        let (database, userID) = try await WishlistImportTests.database(catalog: [
            WishlistImportTests.catalogBook("9780000000101", isbn10: "0000000101", title: "An Idea's Book"),
        ])
        // A giver's idea for a book of the file, reserved: her import would make it her wish.
        let giverID = try await database.pool.write { db in
            try db.execute(sql: "INSERT INTO user (username, username_key, password_hash, created_at) VALUES ('giver', 'giver', 'x', ?)", arguments: [Date()])
            return UserID(db.lastInsertedRowID)
        }
        let household = HouseholdStore(database: database)
        try await household.setSharing(userID: userID, .household)
        #expect(try await household.suggest(bookID: "9780000000101", for: userID, by: giverID, note: "", at: Date()) == .suggested)
        let ideaID = try await database.pool.read { try IdeaID.fetchOne($0, sql: "SELECT id FROM gift_idea") } ?? IdeaID(0)
        #expect(try await household.reserveIdea(ideaID: ideaID, giverID: giverID, at: Date()) == .reserved)
        let before = try await Self.counts(database)
        let export = Self.export(95, catalog: ["9780000000101"])

        let slices = Mutex(0)
        let failing = GoodreadsImporter(database: database, slice: Self.slice) {
            if slices.withLock({ $0 += 1; return $0 }) == 5 { throw Failure() }
        }
        await #expect(throws: Failure.self) { try await failing.run(export, userID: userID, at: Date()) }
        #expect(try await Self.counts(database) == before, "wishes, readings, added books, the idea and its reservation as they were")

        let summary = try await WishlistImportTests.importing(export, into: database, userID: userID)
        #expect(summary.added + summary.readAdded == 96, "the same file, imported whole")
        let after = try await Self.counts(database)
        #expect(after[4] == 0 && after[5] == 0, "once imported whole, the idea is her wish and its reservation with it")
    }

    /// The writer's settings between an import's slices and after it, whether it finished or failed:
    /// `synchronous` (2, FULL: every other writer's commit, and the import's last step, is synced
    /// before it is acknowledged) and `temp_store` (0, the default: files, as a VACUUM needs).
    static func writerSettings(_ database: AppDatabase) async throws -> [Int] {
        try await database.pool.writeWithoutTransaction { db in
            try ["synchronous", "temp_store"].map { try Int.fetchOne(db, sql: "PRAGMA \($0)")! }
        }
    }

    /// The wishes in the database file itself, without its write-ahead log: what checkpoints
    /// have copied there. Read from a copy of the file alone, which has no log.
    static func wishesInTheFile(_ database: AppDatabase) throws -> Int {
        let copy = try temporaryDirectory().appendingPathComponent("file-alone-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(atPath: database.pool.path, toPath: copy.path)
        let file = try DatabaseQueue(path: copy.path)
        defer { try? file.close() }
        return try file.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item")! }
    }

    /// An import's checkpoints run beside the writer, between its slices: its own automatic
    /// checkpoint, which held the writer inside a slice's commit, is off while the import runs
    /// and back afterwards (docs/decisions/import-writer-settings.md).
    @Test func anImportsCheckpointsRunBetweenItsSlicesNotInTheWritersCommits() async throws {
        let (database, userID) = try await WishlistImportTests.database(catalog: [])
        // The tables and her account copied into the file first: what follows is the import's.
        _ = try await database.pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        #expect(try Self.wishesInTheFile(database) == 0)
        let pause = Pause()
        let importer = GoodreadsImporter(database: database, slice: Self.slice, betweenSlices: pause.betweenSlices)
        let run = Task { try await importer.run(Self.export(35), userID: userID, at: Date()) }
        await pause.waitUntilReached()
        let autocheckpoint = { try await database.pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint")! } }
        #expect(try await autocheckpoint() == 0, "no automatic checkpoint in a commit while the import runs")
        #expect(try Self.wishesInTheFile(database) == 10, "the first slice's 10 wishes copied into the file before the second slice")
        pause.release.continuation.yield()
        #expect(try await run.value == .imported(WishlistImportSummary(added: 28, readAdded: 7)))
        #expect(try await autocheckpoint() == 1000, "SQLite's default again once the import is over")
    }

    /// An import's slices commit unsynced, with their statement journals in memory
    /// (docs/decisions/import-writer-settings.md); others' writes between them and the
    /// import's acknowledged end must not: they commit as every write does.
    @Test func othersWritesAndTheImportsLastStepAreSyncedAsEveryWrite() async throws {
        struct Failure: Error {}
        let (database, userID) = try await WishlistImportTests.database(catalog: [])
        let between = Mutex<[[Int]]>([])
        let importer = GoodreadsImporter(database: database, slice: Self.slice) {
            let settings = try await Self.writerSettings(database)
            between.withLock { $0.append(settings) }
        }
        #expect(try await importer.run(Self.export(35), userID: userID, at: Date()) == .imported(WishlistImportSummary(added: 28, readAdded: 7)))
        #expect(between.withLock { $0 } == Array(repeating: [2, 0], count: 4), "between each of its 4 slices")
        #expect(try await Self.writerSettings(database) == [2, 0], "after it")

        let failing = GoodreadsImporter(database: database, slice: Self.slice) { throw Failure() }
        await #expect(throws: Failure.self) { try await failing.run(Self.export(35), userID: userID, at: Date()) }
        #expect(try await Self.writerSettings(database) == [2, 0], "after a failure and its rollback in slices")
    }

    /// What the triggers on `wishlist_item` keep, and her wants on her lists, as text to compare.
    static func figures(_ database: AppDatabase) async throws -> [String] {
        try await database.pool.read { db in
            try [
                "SELECT value FROM wishlist_generation",
                "SELECT * FROM owner_generation ORDER BY user_id",
                "SELECT * FROM book_household ORDER BY book_id",
                "SELECT title, note, shared, import_id FROM wishlist_item ORDER BY id",
                "SELECT wish_list_item.list_id, wishlist_item.title FROM wish_list_item JOIN wishlist_item ON wishlist_item.id = item_id ORDER BY item_id, list_id",
            ].flatMap { sql in try Row.fetchAll(db, sql: sql).map(\.description) }
        }
    }

    /// What the triggers keep, summed: the generations, the household's counts and her lists' sizes,
    /// and how many books the household counts otherwise than its shared wants say.
    static func counters(_ database: AppDatabase) async throws -> [String] {
        try await database.pool.read { db in
            try [
                "SELECT value FROM wishlist_generation",
                "SELECT * FROM owner_generation ORDER BY user_id",
                "SELECT COUNT(*), SUM(wanted), SUM(rating_count) FROM book_household",
                "SELECT list_id, COUNT(*) FROM wish_list_item GROUP BY list_id ORDER BY list_id",
                """
                SELECT COUNT(*) AS miscounted FROM book_household WHERE wanted IS NOT (
                    SELECT COUNT(*) FROM wishlist_item JOIN user ON user.id = wishlist_item.user_id
                    WHERE wishlist_item.book_id = book_household.book_id AND wishlist_item.shared
                        AND user.sharing = 'household' AND user.disabled_at IS NULL)
                """,
            ].flatMap { sql in try Row.fetchAll(db, sql: sql).map(\.description) }
        }
    }

    /// Issue 58: an import's wishes go into `wishlist_item` several a statement, because each
    /// statement on it sets up its triggers' programs and a statement journal (a row's insert cost
    /// a quarter more alone), and they leave every figure that a statement a row left: the
    /// generations, the household's counts, her lists and what they share. Since migration 38 the
    /// import counts its wishes itself, and leaves the numbers the triggers left for each row.
    @Test func anImportsWishesGoSeveralAStatementAndLeaveWhatOneARowLeft() async throws {
        func imported(in slice: GoodreadsImporter.Slice) async throws -> (statements: Int, summaries: [GoodreadsImporter.Outcome], figures: [String], counters: [String]) {
            let (database, userID) = try await WishlistImportTests.database(catalog: [
                WishlistImportTests.catalogBook("9780000000101", isbn10: "0000000101", title: "Listed"),
            ])
            try await HouseholdStore(database: database).setSharing(userID: userID, .household)
            let privateList = try await database.pool.write { db in
                try db.execute(sql: "INSERT INTO wish_list (user_id, name, visibility, created_at) VALUES (?, 'Mine', 'private', ?)", arguments: [userID, Date()])
                return ListID(db.lastInsertedRowID)
            }
            let statements = Mutex(0)
            try await database.pool.writeWithoutTransaction { db in
                db.trace { event in
                    if case .statement(let statement) = event, statement.sql.hasPrefix("INSERT INTO wishlist_item") { statements.withLock { $0 += 1 } }
                }
            }
            let importer = GoodreadsImporter(database: database, slice: slice)
            let notes = Self.export(50, catalog: ["9780000000101"]).map { book in
                var book = book
                book.notes = "Note of \(book.title)"
                return book
            }
            let mine = (50..<60).map { number in WishlistImportTests.imported("Mine \(number)", isbn13: Self.isbn13(100_000 + number)) }
            let outcomes = [
                try await importer.run(notes, userID: userID, at: WishlistImportTests.importedAt),
                try await importer.run(mine, userID: userID, list: privateList, at: WishlistImportTests.importedAt),
            ]
            return (statements.withLock { $0 }, outcomes, try await Self.figures(database), try await Self.counters(database))
        }
        let oneARow = try await imported(in: GoodreadsImporter.Slice(rows: 1, duration: .seconds(3600)))
        let several = try await imported(in: GoodreadsImporter.Slice(rows: 1000, duration: .seconds(3600)))
        #expect(oneARow.statements == 51, "41 wishes, then 10 on her private list, each its own statement")
        #expect(several.statements == 6, "16, 16, 8 and 1 of the 41 wishes, then 8 and 2 of the 10")
        #expect(several.summaries == oneARow.summaries)
        #expect(several.summaries.first == .imported(WishlistImportSummary(added: 41, alreadyPresent: 0, readAdded: 10, readAlreadyPresent: 0)))
        #expect(several.figures == oneARow.figures)
        #expect(several.figures.contains { $0.contains("\"Mine 50\"") && $0.contains("shared:0") }, "\(several.figures)")
        #expect(several.counters == oneARow.counters)
        // As the triggers counted each wish before migration 38 (9d4e644): 41 wishes on her default
        // list and 10 moved to her private one, 10 readings, every wish shared counted once.
        #expect(several.counters == [
            "[value:73]", "[user_id:1 wishes:134 about:11 givers:0]", "[COUNT(*):61 SUM(wanted):41 SUM(rating_count):10]",
            "[list_id:1 COUNT(*):41]", "[list_id:2 COUNT(*):10]", "[miscounted:0]",
        ])
    }

    /// A book she adds herself while the import runs is counted as there already when a later
    /// statement of wishes meets it, and the statement's other wishes are added.
    @Test func aBookSheAddsWhileHerImportRunsIsCountedThereAlready() async throws {
        let listed = WishlistImportTests.catalogBook("9780000000101", isbn10: "0000000101", title: "Listed")
        let (database, userID) = try await WishlistImportTests.database(catalog: [listed])
        let slices = Mutex(0)
        let importer = GoodreadsImporter(database: database, slice: Self.slice) {
            guard slices.withLock({ $0 += 1; return $0 }) == 1 else { return }
            _ = try await WishlistStore(database: database).add(listed, userID: userID, at: Date())
        }
        // 16 own books to read and 4 read, then the list's book, in the second slice's statement of wishes.
        let outcome = try await importer.run(Self.export(20, catalog: ["9780000000101"]), userID: userID, at: Date())
        #expect(outcome == .imported(WishlistImportSummary(added: 16, alreadyPresent: 1, readAdded: 4, readAlreadyPresent: 0)))
        #expect(try await WishlistStore(database: database).count(userID: userID) == 17)
    }

    /// A process that stops in the middle (a kill, a power cut) leaves slices behind; the next
    /// start takes them away before any page is served.
    @Test func whatAnImportCutShortLeftIsGoneAtTheNextStart() async throws {
        let first = try await TestApp.build()
        let path = first.database.pool.path
        try await TestApp.run(first) { browser in try await browser.signUp("cut-short") }
        let userID = try await Self.userID("cut-short", first.database)
        try await first.database.pool.write { db in
            try db.execute(sql: "INSERT INTO goodreads_import (id, user_id, started_at) VALUES (7, ?, ?)", arguments: [userID, Date()])
            let half = CatalogBook(
                id: "", title: "Half Imported", author: "", contributor: "", publisher: "", description: "", price: nil,
                isbn10: "", isbn13: Self.isbn13(7), otherISBNs: [], imageURL: nil, imageWidth: 0, imageHeight: 0, buyLinks: [], readingLinks: []
            )
            let book = try AddedBookStore.book(forImported: half, at: Date(), importID: ImportID(7), db)
            let wish = WishlistStore.ImportedWish(book: book, note: "", addedAt: Date())
            #expect(try WishlistStore.insertImported([wish], userID: userID, importID: ImportID(7), db).count == 1)
        }
        #expect(try await Self.counts(first.database).prefix(4) == [1, 0, 1, 1])

        let second = try await TestApp.build { $0.database.path = path }
        #expect(try await Self.counts(second.database).prefix(4) == [0, 0, 0, 0])
    }
}
