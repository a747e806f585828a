import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// The household's figures of a book (how many sharing members want it, their ratings) are kept
/// by triggers in `book_household` (migration 24) and read for every list, book and search page.
/// These tests hold the kept figures to the count made from the rows themselves, after every
/// kind of change a household makes, and to the plan that reads one row a book (issue 34).
@Suite("The household's figures of each book: kept by triggers, equal to the live count", .removesTemporaryDirectories)
struct HouseholdFiguresTests {
    /// The figures as the pages read them before migration 24: counted from every wish and
    /// reading of sharing members, a wish only while it is on a list the household sees (issue
    /// 51), which is read from the lists themselves, not from the `shared` flag the triggers keep.
    /// The test's oracle.
    static let liveFigures = """
        SELECT book_id, SUM(wanted), SUM(rating_sum), SUM(rating_count) FROM (
            SELECT book_id, COUNT(*) AS wanted, 0 AS rating_sum, 0 AS rating_count
            FROM wishlist_item JOIN user ON user.id = wishlist_item.user_id
            WHERE book_id IS NOT NULL AND user.sharing = 'household' AND user.disabled_at IS NULL
                AND \(Migrations.onHouseholdList("wishlist_item.id")) GROUP BY book_id
            UNION ALL
            SELECT book_id, 0, SUM(rating), COUNT(*) FROM reading JOIN user ON user.id = reading.user_id
            WHERE book_id IS NOT NULL AND rating IS NOT NULL AND user.sharing = 'household' AND user.disabled_at IS NULL GROUP BY book_id
        ) GROUP BY book_id ORDER BY book_id
        """

    static let keptFigures = """
        SELECT book_id, wanted, rating_sum, rating_count FROM book_household
        WHERE wanted != 0 OR rating_sum != 0 OR rating_count != 0 ORDER BY book_id
        """

    static func figures(_ db: Database, _ sql: String) throws -> [String] {
        try Row.fetchAll(db, sql: sql).map { "\($0[0] as String): \($0[1] as Int) wanted, \($0[2] as Int)/\($0[3] as Int)" }
    }

    /// A small deterministic generator, so a failure can be replayed.
    struct Dice {
        var state: UInt64
        mutating func roll(_ sides: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(sides))
        }
    }

    static func addUser(_ db: Database, _ name: String, sharing: String) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO user (username, username_key, password_hash, created_at, sharing) VALUES (?, ?, '', '2026-01-01 00:00:00.000', ?)",
            arguments: [name, name, sharing]
        )
        return db.lastInsertedRowID
    }

    static let books = ["9780000000019", "9780000000026", "9780000000033", "9780000000040"]

    /// One change of the kinds the app makes: wishes added, removed and moved to another book (as
    /// merging an added book into the catalog does), readings rated, re-rated, unrated, moved and
    /// forgotten, members sharing, going private, disabled, enabled and deleted; wishes moved to a
    /// private list and copied back, lists made private or shared, lists deleted (issue 51).
    static func change(_ db: Database, _ dice: inout Dice, users: inout [Int64], serial: inout Int, lists: Bool = true) throws -> String {
        let user = users[dice.roll(users.count)], book = books[dice.roll(books.count)], other = books[dice.roll(books.count)]
        let rating: DatabaseValue = dice.roll(4) == 0 ? .null : (dice.roll(5) + 1).databaseValue
        // Before migration 30 there are no lists to move wishes between.
        switch dice.roll(lists ? 16 : 12) {
        case 0, 1:
            try db.execute(sql: """
                INSERT OR IGNORE INTO wishlist_item (user_id, book_id, title, author, publisher, description, isbn10, isbn13,
                    image_width, image_height, buy_links, reading_links, added_at)
                VALUES (?, ?, 't', 'a', '', '', '', '', 0, 0, '[]', '[]', '2026-01-01 00:00:00.000')
                """, arguments: [user, book])
            return "wish \(user) \(book)"
        case 2:
            try db.execute(sql: "DELETE FROM wishlist_item WHERE user_id = ? AND book_id = ?", arguments: [user, book])
            return "unwish \(user) \(book)"
        case 3:
            try db.execute(sql: "UPDATE OR IGNORE wishlist_item SET book_id = ? WHERE user_id = ? AND book_id = ?", arguments: [other, user, book])
            return "move wish \(user) \(book)→\(other)"
        case 4, 5:
            try db.execute(sql: """
                INSERT INTO reading (user_id, book_id, title, author, rating, updated_at) VALUES (?, ?, 't', 'a', ?, '2026-01-01 00:00:00.000')
                ON CONFLICT (user_id, book_id) DO UPDATE SET rating = excluded.rating
                """, arguments: [user, book, rating])
            return "rate \(user) \(book) \(rating)"
        case 6:
            try db.execute(sql: "DELETE FROM reading WHERE user_id = ? AND book_id = ?", arguments: [user, book])
            return "forget \(user) \(book)"
        case 7:
            try db.execute(sql: "UPDATE OR IGNORE reading SET book_id = ? WHERE user_id = ? AND book_id = ?", arguments: [other, user, book])
            return "move reading \(user) \(book)→\(other)"
        case 8:
            let sharing = ["household", "private", "household"][dice.roll(3)]
            try db.execute(sql: "UPDATE user SET sharing = ? WHERE id = ?", arguments: [sharing, user])
            return "share \(user) \(sharing)"
        case 9:
            try db.execute(sql: "UPDATE user SET disabled_at = CASE WHEN disabled_at IS NULL THEN '2026-01-02 00:00:00.000' END WHERE id = ?", arguments: [user])
            return "disable or enable \(user)"
        case 10:
            try db.execute(sql: "UPDATE user SET display_name = 'Renamed' WHERE id = ?", arguments: [user])
            return "rename \(user)"
        case 12:
            try db.execute(sql: """
                INSERT INTO wish_list (user_id, name, visibility, created_at) VALUES (?, 'Someday', 'private', '2026-01-01 00:00:00.000');
                INSERT INTO wish_list_item (list_id, item_id) SELECT last_insert_rowid(), id FROM wishlist_item WHERE user_id = ? AND book_id = ?;
                DELETE FROM wish_list_item WHERE list_id != (SELECT MAX(id) FROM wish_list)
                    AND item_id = (SELECT id FROM wishlist_item WHERE user_id = ? AND book_id = ?);
                """, arguments: [user, user, book, user, book])
            return "move wish \(user) \(book) to a private list"
        case 13:
            try db.execute(sql: """
                INSERT OR IGNORE INTO wish_list_item (list_id, item_id)
                SELECT wish_list.id, wishlist_item.id FROM wishlist_item JOIN wish_list ON wish_list.user_id = wishlist_item.user_id AND wish_list.is_default
                WHERE wishlist_item.user_id = ? AND wishlist_item.book_id = ?
                """, arguments: [user, book])
            return "copy wish \(user) \(book) to the default list"
        case 14:
            try db.execute(sql: """
                UPDATE wish_list SET visibility = CASE visibility WHEN 'private' THEN 'household' ELSE 'private' END
                WHERE id = (SELECT id FROM wish_list WHERE user_id = ? ORDER BY id DESC LIMIT 1)
                """, arguments: [user])
            return "flip the visibility of \(user)'s newest list"
        case 15:
            try db.execute(sql: "DELETE FROM wish_list WHERE user_id = ? AND NOT is_default", arguments: [user])
            return "delete \(user)'s lists"
        default:
            try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [user])
            serial += 1
            users[users.firstIndex(of: user)!] = try addUser(db, "member\(serial)", sharing: "household")
            return "delete \(user)"
        }
    }

    @Test func theKeptFiguresEqualTheLiveCountAfterEveryChange() async throws {
        let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("figures.sqlite").path)
        try await database.pool.write { db in
            var users = try (0..<6).map { try Self.addUser(db, "member\($0)", sharing: $0 % 3 == 2 ? "private" : "household") }
            var serial = users.count, dice = Dice(state: 34)
            for step in 0..<1_500 {
                let change = try Self.change(db, &dice, users: &users, serial: &serial)
                let (kept, live) = (try Self.figures(db, Self.keptFigures), try Self.figures(db, Self.liveFigures))
                try #require(kept == live, "after step \(step), \(change)")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_household WHERE wanted > 0")! > 0, "the run left wishes to count")
        }
    }

    @Test func theUpgradeCountsWhatIsAlreadyThere() throws {
        let queue = try DatabaseQueue(path: temporaryDirectory().appendingPathComponent("upgrade.sqlite").path)
        try AppDatabase.migrator.migrate(queue, upTo: "23-wishlist-by-book-and-user")
        try queue.write { db in
            var users = try (0..<5).map { try Self.addUser(db, "member\($0)", sharing: $0 % 2 == 0 ? "household" : "private") }
            var serial = users.count, dice = Dice(state: 24)
            for _ in 0..<200 { _ = try Self.change(db, &dice, users: &users, serial: &serial, lists: false) }
        }
        try AppDatabase.migrator.migrate(queue)
        try queue.read { db in
            let kept = try Self.figures(db, Self.keptFigures)
            #expect(!kept.isEmpty)
            #expect(kept == (try Self.figures(db, Self.liveFigures)))
        }
    }

    @Test func aPageReadsOneRowABook() async throws {
        let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("plan.sqlite").path)
        let plan = try await database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + ReadingStore.Reader.figures, arguments: [#"["9780000000019","9780000000026"]"#])
                .map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.hasPrefix("SEARCH book_household USING INDEX") && $0.hasSuffix("(book_id=?)") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN book_household") }, "\(plan)")
    }
}
