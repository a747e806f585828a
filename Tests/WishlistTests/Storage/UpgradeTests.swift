import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// Issue 33: a database made by any earlier version opens in today's server with every row's
/// meaning kept, the file sound, and the pages working. The databases are the fixtures of
/// `UpgradeFixtures`, one per migration.
@Suite("A database from every earlier version upgrades without losing a row", .removesTemporaryDirectories)
struct UpgradeTests {
    /// Tables whose rows the migrations after a fixture may add to: migration 19 gives half-books
    /// a book and that book its ISBN, and the migrator records what it ran. Every other table
    /// ends with exactly the rows it had.
    static let tablesMigrationsFill: Set = ["book", "book_isbn", "grdb_migrations"]
    /// Tables whose `book_id` migration 19 fills where it was NULL.
    static let halfBookTables = ["wishlist_item", "received_item", "reading"]
    /// Columns migration 27 rewrites on purpose (`expectMeaning` checks them): the outbox's
    /// readable messages go, a waiting one fails, and an unconfirmed address loses its key.
    /// Migration 34 keys a share link by its list, not its owner.
    static let rewrittenColumns: [String: Set<String>] = [
        "mail_outbox": ["message", "state", "last_reply", "finished_at"],
        "user": ["email_key"],
        "share_link": ["user_id"],
    ]

    @Test func everyMigrationHasAFixture() {
        let missing = AppDatabase.migrator.migrations.filter { !FileManager.default.fileExists(atPath: UpgradeFixtures.url($0).path) }
        #expect(missing.isEmpty, "add their seeds to UpgradeFixtures.seeds, then run \(UpgradeFixtures.regenerate)")
    }

    @Test(arguments: AppDatabase.migrator.migrations)
    func theDatabaseOfAnEarlierVersionOpensWithEveryRowAndEveryPage(_ version: String) async throws {
        let path = try temporaryDirectory().appendingPathComponent("upgraded.sqlite").path
        let tables = try Self.expectUpgradeKeepsEveryRow(UpgradeFixtures.url(version), path: path)
        try await Self.expectPages(path: path, tables: tables)
    }

    /// Loads the fixture into `path`, opens it with today's `AppDatabase.open` and checks the
    /// file and its rows; returns the fixture's tables. Synchronous, so that GRDB's blocking reads
    /// hand back rows, which are not `Sendable`.
    private static func expectUpgradeKeepsEveryRow(_ url: URL, path: String) throws -> Set<String> {
        let text = try String(contentsOf: url, encoding: .utf8)
        let fixture = try load(text, into: path)
        let recorded = UpgradeFixtures.recordedCounts(text[...])
        #expect(try fixture.read(SQLDump.rowCounts) == recorded, "the fixture loads whole")
        let before = try fixture.read(snapshot)
        try fixture.close()

        let database = try AppDatabase.open(path: path)
        #expect(try database.appliedMigrations() == AppDatabase.migrator.migrations)
        try database.pool.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            try expectCounts(recorded, db)
            try expectRowsKept(before, db)
            try expectHalfBooksGotBooks(before, db)
            try expectMeaning(of: before, db)
        }
        try database.pool.close()
        return Set(before.keys)
    }

    /// A fresh file holding the fixture, loaded as `sqlite3` would load it: by SQLite alone.
    private static func load(_ text: String, into path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { try $0.execute(sql: text) }
        return queue
    }

    /// Every table's rows, as the fixture has them; the generation counters are left out, since
    /// their value is only ever compared with itself.
    private static func snapshot(_ db: Database) throws -> [String: [Row]] {
        var rows: [String: [Row]] = [:]
        for table in try SQLDump.tables(db) where !table.hasSuffix("_generation") {
            rows[table] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"")
        }
        return rows
    }

    private static func expectCounts(_ recorded: [String: Int], _ db: Database) throws {
        let counts = try SQLDump.rowCounts(db)
        for (table, count) in recorded where !table.hasSuffix("_generation") {
            if tablesMigrationsFill.contains(table) {
                #expect(counts[table]! >= count, "\(table) lost rows")
            } else {
                #expect(counts[table] == count, "\(table) has \(counts[table] ?? 0) rows, the fixture \(count)")
            }
        }
    }

    /// Each row of the fixture is still there with every value it had (the half-books' `book_id`
    /// aside), whatever columns later versions added: compared as the sorted texts of the rows.
    private static func expectRowsKept(_ before: [String: [Row]], _ db: Database) throws {
        for (table, rows) in before {
            guard let first = rows.first else { continue }
            let columns = first.columnNames.filter { !(halfBookTables.contains(table) && $0 == "book_id") && rewrittenColumns[table]?.contains($0) != true }
            let selection = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let expected = rows.map { row in columns.map { row[$0] as DatabaseValue }.description }.sorted()
            let found = try Row.fetchAll(db, sql: "SELECT \(selection) FROM \"\(table)\"").map { Array($0.databaseValues).description }.sorted()
            if tablesMigrationsFill.contains(table) {
                #expect(Set(expected).isSubset(of: found), "\(table) lost or changed rows")
            } else {
                #expect(found == expected, "\(table) changed")
            }
        }
    }

    /// A half-book's row now names a stored book (so it has a page); a row that had a book keeps it.
    private static func expectHalfBooksGotBooks(_ before: [String: [Row]], _ db: Database) throws {
        for table in halfBookTables {
            for row in before[table] ?? [] {
                let id: Int64 = row["id"]
                let book = try String.fetchOne(db, sql: "SELECT book.id FROM \(table) JOIN book ON book.id = \(table).book_id WHERE \(table).id = ?", arguments: [id])
                if let kept: String = row["book_id"] {
                    #expect(book == kept, "\(table) \(id) changed books")
                } else {
                    #expect(book != nil, "\(table) \(id) has no book")
                }
            }
        }
    }

    /// What the rows mean, read across tables the way the app reads them.
    private static func expectMeaning(of before: [String: [Row]], _ db: Database) throws {
        if before["user"]?.isEmpty == false {
            #expect(try String.fetchOne(db, sql: "SELECT password_hash FROM user WHERE username_key = 'alice'") == UpgradeFixtures.passwordHash)
        }
        if before["wishlist_item"]?.isEmpty == false {
            let item = try #require(try Row.fetchOne(db, sql: "SELECT note, priority FROM wishlist_item WHERE id = 1"))
            #expect(item["note"] == "For the long train ride")
            #expect(item["priority"] == (before["reservation"] == nil ? 0 : 1))
            // The half-book with a catalog book's ISBN is that book; the one with an ISBN no book has, an added book of its own.
            #expect(try String.fetchOne(db, sql: "SELECT book_id FROM wishlist_item WHERE id = 4") == "9780000000026")
            let added = try Row.fetchOne(db, sql: "SELECT book.* FROM wishlist_item JOIN book ON book.id = book_id WHERE wishlist_item.id = 2")
            #expect(added?["source"] == "added")
            #expect(added?["title"] == "The Orchard Keeper")
        }
        if before["reservation"] != nil {
            let reserved = try Row.fetchOne(db, sql: """
                SELECT wishlist_item.title, user.username FROM reservation JOIN wishlist_item ON wishlist_item.id = reservation.item_id
                JOIN user ON user.id = reservation.giver_id WHERE reservation.id = 2
                """)
            #expect(reserved?["title"] == "The Lantern Road")
            #expect(reserved?["username"] == "carol")
        }
        if before["received_item"] != nil {
            #expect(try String.fetchOne(db, sql: "SELECT card FROM reservation WHERE received_item_id = 7") == "Happy birthday, Alice!")
        }
        if before["user"]?.isEmpty == false {
            // Only a confirmed address is unique, and keeps its key.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE (email_key IS NULL) <> (email_verified_at IS NULL OR email IS NULL)") == 0)
            let aliceConfirmed = before["user"]?.first?.hasColumn("email_verified_at") == true
            #expect(try String.fetchAll(db, sql: "SELECT email_key FROM user WHERE email_key IS NOT NULL") == (aliceConfirmed ? ["alice@example.com"] : []))
        }
        if before["mail_outbox"] != nil {
            // No message readable; the one that waited failed with a sentence, the one that failed kept its words.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM mail_outbox WHERE length(message) > 0 OR state = 'waiting'") == 0)
            #expect(try String.fetchOne(db, sql: "SELECT last_reply FROM mail_outbox WHERE id = 1")?.hasSuffix("ask for it again") == true)
            #expect(try String.fetchOne(db, sql: "SELECT last_reply FROM mail_outbox WHERE id = 2") == "550 5.1.1 No such mailbox")
        }
        if before["wishlist_item"]?.isEmpty == false, before["wish_list"] == nil {
            // Migration 30: each want on its owner's default list alone, shared as before, and the share link opening that list.
            let placed = try Row.fetchAll(db, sql: """
                SELECT wishlist_item.shared, wish_list.is_default, wish_list.name, wish_list.visibility, wish_list.user_id = wishlist_item.user_id AS owned
                FROM wishlist_item JOIN wish_list_item ON wish_list_item.item_id = wishlist_item.id JOIN wish_list ON wish_list.id = wish_list_item.list_id
                """)
            #expect(placed.count == before["wishlist_item"]!.count)
            #expect(placed.allSatisfy { $0["shared"] == true && $0["is_default"] == true && $0["name"] == "Wishlist" && $0["visibility"] == "household" && $0["owned"] == true })
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE NOT EXISTS (SELECT 1 FROM wish_list WHERE user_id = user.id AND is_default)") == 0)
            #expect(try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM share_link JOIN wish_list ON wish_list.id = share_link.list_id AND wish_list.is_default
                """) == before["share_link"]?.count ?? 0)
        }
        if let links = before["share_link"], links.first?.hasColumn("user_id") == true {
            // Migration 34: each member's link, keyed by its list now, keeps its token and opens her default list.
            for link in links {
                let userID: Int64 = link["user_id"]
                let hash: Data = link["token_hash"]
                #expect(try Int64.fetchOne(db, sql: """
                    SELECT wish_list.user_id FROM share_link JOIN wish_list ON wish_list.id = share_link.list_id AND wish_list.is_default WHERE token_hash = ?
                    """, arguments: [hash]) == userID)
            }
        }
        if before["book"]?.isEmpty == false {
            // Migration 29 read the credits of the books stored before it from their bylines.
            #expect(try String.fetchAll(db, sql: "SELECT author_key FROM book_credit WHERE book_id = '9780000000019'") == ["ada marsh"])
        }
        if before["user"]?.first?.hasColumn("display_name") == true {
            // Bea, a child's profile (migration 31), is named by her managers.
            let children = before["child_manager"] == nil ? [] : ["Bea"]
            #expect(try String.fetchAll(db, sql: "SELECT display_name FROM user WHERE display_name IS NOT NULL ORDER BY id") == ["Alice", "Grandma Carol"] + children)
        }
        if before["child_manager"] != nil {
            #expect(try String.fetchAll(db, sql: "SELECT username FROM user WHERE kind = 'child'") == ["~bea"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM wish_list WHERE user_id = 10 AND is_default") == 1, "her default list")
        }
    }

    /// The pages render on the upgraded file, read by the app's own stores: signed in as the
    /// fixture's Alice, with the password her row has held since the version that made it.
    private static func expectPages(path: String, tables: Set<String>) async throws {
        let server = try await TestApp.build { $0.database.path = path }
        try await TestApp.run(server) { browser in
            #expect(try await browser.get("/login").status == .ok)
            guard tables.contains("user") else { return }
            #expect(try await browser.signIn("alice", password: UpgradeFixtures.password).status == .seeOther)
            var expected: [(path: String, shows: [String])] = [("/settings", ["Alice"])]
            if tables.contains("book") { expected.append(("/lists/hardcover-fiction", ["The Lantern Road", "Salt and Iron", "North of Nowhere"])) }
            if tables.contains("wishlist_item") {
                let orchardKeeper = try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT book_id FROM wishlist_item WHERE id = 2") }
                expected += [
                    ("/wishlist", ["The Lantern Road", "The Orchard Keeper", "Letters Never Sent", "Salt &amp; Iron"]),
                    ("/wishlist/1", ["For the long train ride"]),
                    ("/books/\(orchardKeeper ?? "")", ["The Orchard Keeper", "Mina Hale"]),
                ]
            }
            if tables.contains("reservation") { expected += [("/people/bob", ["Salt and Iron"]), ("/reservations", ["The Lantern Road"])] }
            let bobsName = try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT display_name FROM user WHERE id = 2") }
            // Bob's display name is Alice's username: his page never shows it alone.
            if bobsName != nil { expected.append(("/people/bob", [#"<h1 id="page-title">Alice (@bob)</h1>"#])) }
            if tables.contains("invite") { expected.append(("/admin", ["carol"])) }
            if tables.contains("reading") { expected.append(("/settings/profile", ["Reads on trains."])) }
            if tables.contains("received_item") { expected.append(("/wishlist/received", ["The Quiet Year", "Winter Birds"])) }
            if tables.contains("book") { expected.append(("/authors/ada-marsh", ["<h1 id=\"page-title\">Ada Marsh</h1>", "The Lantern Road"])) }
            // The follow state by its element: a member of a later version reads the page in her language.
            if tables.contains("followed_author") { expected.append(("/authors/ada-marsh", [#"id="following-state""#])) }
            if tables.contains("wish_list") { expected.append(("/wishlist?list=20", ["Birthday", "The Lantern Road"])) }
            for (path, sentences) in expected {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path)")
                for sentence in sentences {
                    #expect(page.text.contains(sentence), "\(path) shows \(sentence)")
                }
            }
        }
    }
}
