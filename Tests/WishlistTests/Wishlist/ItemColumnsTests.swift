import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// A wishlist item's columns are found by name once for a statement's rows and each row is read
/// by their places (issue 58): whatever order a query selects them in, and whatever it selects
/// besides, each field is read from its own column.
@Suite("A wishlist item read by its columns' places")
struct ItemColumnsTests {
    /// Every column a different value, so that two fields read from each other's columns differ.
    private static let columns: KeyValuePairs<String, String> = [
        "id": "7", "book_id": "'book-7'", "title": "'Title'", "author": "'Author'", "publisher": "'Publisher'",
        "description": "'Description'", "isbn10": "'0306406152'", "isbn13": "'9780306406157'", "image_url": "'https://example.com/c.jpg'",
        "image_width": "320", "image_height": "480", "buy_links": #"'[["Shop","https:\/\/example.com\/buy"]]'"#,
        "reading_links": #"'[["Review","https:\/\/example.com\/read"]]'"#, "note": "'Note'", "priority": "1",
        "added_at": "'2026-11-30 12:34:56.789'",
    ]

    private static let expected = WishlistItem(
        id: ItemID(7), bookID: "book-7", title: "Title", author: "Author", publisher: "Publisher", description: "Description",
        isbn10: "0306406152", isbn13: "9780306406157", imageURL: "https://example.com/c.jpg", imageWidth: 320, imageHeight: 480,
        storedBuyLinks: #"[["Shop","https:\/\/example.com\/buy"]]"#, storedReadingLinks: #"[["Review","https:\/\/example.com\/read"]]"#,
        note: "Note", priority: .high, addedAt: StoredDate.fromDatabaseValue("2026-11-30 12:34:56.789".databaseValue)!.date
    )

    /// The item's columns in `order`, after `before` (other columns, as a join selects).
    private static func select(_ names: [String], before: [String] = []) -> String {
        "SELECT " + (before + names.map { "\(value($0)) AS \($0)" }).joined(separator: ", ")
    }

    private static func value(_ name: String) -> String {
        columns.first { $0.key == name }!.value
    }

    private static func items(_ sql: String) throws -> [WishlistItem] {
        try DatabaseQueue().read { db in try Row.decodeAll(db.makeStatement(sql: sql), decoder: WishlistStore.items(in:)) }
    }

    @Test func theTablesOrderReadsEachField() throws {
        #expect(try Self.items(Self.select(Self.columns.map(\.key))) == [Self.expected])
    }

    @Test func anyOtherOrderAfterOtherColumnsReadsTheSame() throws {
        let names = Self.columns.map(\.key)
        #expect(try Self.items(Self.select(names.reversed(), before: ["99 AS giver_id", "'x' AS giver_name"])) == [Self.expected])
        #expect(try Self.items(Self.select(names.shuffled(), before: ["'owner' AS owner_username"])) == [Self.expected])
    }

    /// A name is found as `row["name"]` finds it: ignoring case, and the leftmost of two.
    @Test func aNameIsTheLeftmostColumnOfItIgnoringCase() throws {
        let names = Self.columns.map(\.key).filter { $0 != "title" }
        let sql = "SELECT 'Title' AS TITLE, " + Self.select(names).dropFirst("SELECT ".count) + ", 'Another' AS title"
        #expect(try Self.items(sql) == [Self.expected])
    }

    @Test func aHeldItemsHolderIsReadByItsColumnsPlacesToo() throws {
        let item = Self.select(Self.columns.map(\.key).reversed()).dropFirst("SELECT ".count)
        let rows = """
            SELECT NULL AS guest_name, 0 AS bought, 'Card' AS card, 'Giver' AS giver_name, 5 AS giver_id, \(item)
            UNION ALL SELECT 'Grandpa', NULL, NULL, NULL, NULL, \(item)
            UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, \(item)
            """
        let held = try DatabaseQueue().read { db in try Row.decodeAll(db.makeStatement(sql: rows), decoder: HeldItem.decoder(for:)) }
        #expect(held.map(\.item) == Array(repeating: Self.expected, count: 3))
        #expect(held.map(\.holder) == [
            HeldItem.Holder(id: UserID(5), name: "Giver", bought: false, card: "Card"),
            HeldItem.Holder(id: nil, name: "Grandpa (guest)", bought: false, card: ""),
            nil,
        ])
    }
}
