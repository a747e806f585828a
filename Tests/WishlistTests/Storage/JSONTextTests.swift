import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// The JSON array that carries a page's book ids into one query (`WishlistStore.Reader.itemIDs`).
@Suite("JSON text: book ids as one query argument", .removesTemporaryDirectories)
struct JSONTextTests {
    static let awkward = ["9780000000001", "quote\"d", "back\\slash", "line\nbreak", "tab\there", "\u{01}control", "accent é", "emoji 📚", ""]

    @Test func anArrayOfStringsDecodesToTheSameStrings() throws {
        let text = JSONText.array(of: Self.awkward)
        #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == Self.awkward)
        #expect(JSONText.array(of: []) == "[]")
        #expect(JSONText.array(of: ["a\"b", "c\\d", "\u{01}\u{1F}\u{7F}", "\u{E9}\u{1F4DA}"]) == #"["a\"b","c\\d","\u0001\u001f"# + "\u{7F}\",\"\u{E9}\u{1F4DA}\"]")
    }

    @Test func itemIDsFindsExactlyTheAskedBooksOnTheUsersWishlist() async throws {
        let server = try await TestApp.build()
        let owner = try await server.accounts.createUser(username: "owner", password: "correct horse battery")
        let other = try await server.accounts.createUser(username: "other", password: "correct horse battery")
        let expected = try await server.database.pool.write { db in
            var expected: [String: ItemID] = [:]
            for (index, book) in Self.awkward.enumerated() {
                let userID = index == 1 ? other.id : owner.id
                try db.execute(
                    sql: """
                        INSERT INTO wishlist_item (user_id, book_id, title, author, publisher, description, isbn10, isbn13,
                            image_width, image_height, buy_links, reading_links, added_at)
                        VALUES (?, ?, 'T', 'A', '', '', '', '', 0, 0, '[]', '[]', ?)
                        """,
                    arguments: [userID, book, Date()]
                )
                if userID == owner.id, index % 2 == 0 { expected[book] = ItemID(db.lastInsertedRowID) }
            }
            return expected
        }
        let asked = Self.awkward.enumerated().filter { $0.offset % 2 == 0 || $0.offset == 1 }.map(\.element) + ["not on it"]
        let found = try await server.database.pageRead { read in try read.wishlist.itemIDs(userID: owner.id, books: asked) }
        #expect(found == expected)
        #expect(try await server.database.pageRead { read in try read.wishlist.itemIDs(userID: owner.id, books: []) }.isEmpty)
    }
}
