import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// A book's page tells a giver who here wants it, with Reserve beside each, so that a book
/// becomes a gift in one step (issue 57, item 6); the owner of a want never reads it there.
@Suite("Household: who here wants a book", .removesTemporaryDirectories)
struct BookGiversHTTPTests {
    @Test func aGiverReservesFromTheBookPageAndReturnsToIt() async throws {
        let home = try await Household.make()
        let bookID = try await home.bookIDs()[0]
        let item = home.itemIDs[0]
        try await home.run { maya, ana, ben in
            let page = try await ana.get("/books/\(bookID)")
            #expect(page.text.contains(#"id="givers-heading">Who here wants it</h2>"#))
            #expect(page.text.contains(#"<a href="/people/maya">maya</a>"#))
            #expect(page.text.contains(#"<input type="hidden" name="item" value="\#(item)">"#))
            #expect(page.text.contains(#"<input type="hidden" name="return_to" value="/books/\#(bookID)">"#))

            let reserved = try await ana.reserve(item, returnTo: "/books/\(bookID)")
            #expect(reserved.status == .seeOther)
            #expect(reserved.location == "/books/\(bookID)#flash")
            let back = try await ana.follow(reserved)
            #expect(back.shows("Reserved by you"))
            // The confirmation is on maya's row, not at the top of the page.
            let row = try #require(back.text.range(of: #"id="item-\#(item)""#))
            #expect(back.text[row.upperBound...].prefix(400).contains(#"id="flash""#))
            #expect(try await ben.get("/books/\(bookID)").shows("Reserved by ana"))
            // Her own want is never on her own page of the book.
            #expect(!(try await maya.get("/books/\(bookID)")).text.contains(#"id="givers""#))
        }
    }

    @Test func aLongListShowsTheFirstTwelveByNameAndLinksToEveryone() async throws {
        let home = try await Household.make()
        let bookID = try await home.bookIDs()[0]
        try await home.run { _, ana, _ in
            let wanters = try await Self.addWanters(14, of: home.itemIDs[0], home: home)
            // Maya and fourteen more want it: maya and wanter01 to wanter11 are named, three are not.
            let page = try await ana.get("/books/\(bookID)")
            let firstTwelve: [String] = ["maya"] + (1...11).map(Self.wanterName)
            #expect(Self.named(page) == firstTwelve)
            #expect(page.text.contains(#"<a href="/books/\#(bookID)?givers=all#givers" id="givers-all">and 3 more who want it</a>"#))
            let all = try await ana.get("/books/\(bookID)?givers=all")
            #expect(Self.named(all).count == 15)
            #expect(!all.text.contains("givers-all"))
            #expect(all.text.contains(#"<input type="hidden" name="return_to" value="/books/\#(bookID)?givers=all">"#))

            // A want she has reserved is always named, with her controls, wherever its name falls.
            try await Self.reserve(wanters[12], by: "ana", home: home)
            let after = try await ana.get("/books/\(bookID)")
            let namedAfter = Self.named(after)
            #expect(namedAfter.count == 13 && namedAfter.last == "wanter13")
            #expect(after.text.contains(">and 2 more who want it</a>"))
            #expect(try await ana.get("/books/\(bookID)?givers=some").status == .badRequest)
        }
    }

    /// The page reads whole only the wants it names (issue 58): one she has just let go of, past
    /// the first twelve, is still named with its confirmation on the page she comes back to, and
    /// then no more.
    @Test func aWantSheLetsGoOfBeyondTheTwelfthKeepsItsConfirmation() async throws {
        let home = try await Household.make()
        let bookID = try await home.bookIDs()[0]
        try await home.run { _, ana, _ in
            let wanters = try await Self.addWanters(14, of: home.itemIDs[0], home: home)
            try await Self.reserve(wanters[12], by: "ana", home: home)
            let cancelled = try await ana.post("/reservations/\(wanters[12])/delete", [("return_to", "/books/\(bookID)")])
            #expect(cancelled.status == .seeOther)
            let back = try await ana.follow(cancelled)
            #expect(Self.named(back).last == "wanter13")
            let row = try #require(back.text.range(of: #"id="item-\#(wanters[12])""#))
            #expect(back.text[row.upperBound...].prefix(400).contains(#"id="flash""#))
            #expect(back.text.contains(">and 2 more who want it</a>"))
            let later = try await ana.get("/books/\(bookID)")
            #expect(Self.named(later).count == 12 && !later.text.contains(#"id="item-\#(wanters[12])""#))
        }
    }

    /// Migration 37's index answers which wants of a book are shared and whose they are, so the
    /// page reads no item row it does not name (issue 58).
    @Test func aBooksWantsAreFoundInTheIndexAlone() async throws {
        let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("plan.sqlite").path)
        let plan = try await database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + HouseholdStore.Reader.wantsOfABook, arguments: ["9780000000019", 1]).map { $0["detail"] as String }
        }
        #expect(plan.contains("SEARCH wishlist_item USING COVERING INDEX wishlist_item_by_book_user_and_shared (book_id=?)"), "\(plan)")
    }

    /// The wants the page names are read whole by id without a temporary b-tree of their ids,
    /// whose pager SQLite would open and allocate on every page (issue 58).
    @Test func theNamedWantsAreReadWithoutATemporaryTable() async throws {
        let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("program.sqlite").path)
        let program = try await database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN " + HouseholdStore.Reader.itemsByID, arguments: ["[1,2]"]).map { $0["opcode"] as String }
        }
        #expect(program.contains("SeekRowid") && !program.contains("OpenEphemeral"), "\(program)")
    }

    /// `count` members who share, each wanting the book of `item` (a copy of the item), by name;
    /// their items' ids in the names' order.
    static func addWanters(_ count: Int, of item: Int64, home: Household) async throws -> [Int64] {
        try await home.server.database.pool.write { db in
            try (1...count).map { number in
                let name = wanterName(number)
                try db.execute(
                    sql: "INSERT INTO user (username, username_key, password_hash, created_at, sharing) VALUES (?, ?, 'not-a-hash', ?, 'household')",
                    arguments: [name, name, Date()]
                )
                try db.execute(sql: """
                    INSERT INTO wishlist_item (user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width,
                        image_height, buy_links, reading_links, note, added_at, priority, shared)
                    SELECT ?, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width,
                        image_height, buy_links, reading_links, note, added_at, priority, 1
                    FROM wishlist_item WHERE id = ?
                    """, arguments: [db.lastInsertedRowID, item])
                return db.lastInsertedRowID
            }
        }
    }

    static func wanterName(_ number: Int) -> String {
        "wanter" + String(100 + number).dropFirst()
    }

    static func reserve(_ item: Int64, by giver: String, home: Household) async throws {
        try await home.server.database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO reservation (item_id, giver_id, owner_id, owner_name, title, author, reserved_at)
                SELECT wishlist_item.id, giver.id, wishlist_item.user_id, owner.username, wishlist_item.title, wishlist_item.author, ?
                FROM wishlist_item JOIN user AS owner ON owner.id = wishlist_item.user_id JOIN user AS giver ON giver.username = ?
                WHERE wishlist_item.id = ?
                """, arguments: [Date(), giver, item])
        }
    }

    /// The members a book page names under "Who here wants it", in order.
    static func named(_ page: TestResponse) -> [String] {
        page.text.matches(of: /<p class="giver-want-name"><a href="\/people\/[^"]+">([^<]+)<\/a>/).map { String($0.1) }
    }

    @Test func privateMembersAndPrivateListsAreNotNamed() async throws {
        let home = try await Household.make()
        let bookID = try await home.bookIDs()[0]
        // Maya keeps her list to herself: her wants are nobody's business.
        try await home.run(sharing: []) { _, ana, _ in
            let page = try await ana.get("/books/\(bookID)")
            #expect(!page.text.contains(#"id="givers""#))
            #expect(!page.text.contains(#"href="/people/maya""#))
        }
        // Shared, but the book only on a private list of hers: not named either.
        try await home.run { maya, ana, _ in
            let secret = try await WishListsHTTPTests.makeList(&maya, "Secret", visibility: "private")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "\(secret)")]).status == .seeOther)
            #expect(!(try await ana.get("/books/\(bookID)")).text.contains(#"id="givers""#))
            #expect(try await ana.get("/books/\(try await home.bookIDs()[1])").text.contains(#"<a href="/people/maya">maya</a>"#))
        }
    }

    @Test func reservingOnesOwnOrAnUnknownWantFromTheBookPageIsRefused() async throws {
        let home = try await Household.make()
        let bookID = try await home.bookIDs()[0]
        try await home.run { maya, ana, _ in
            // Her own item, reserved from her own page of the book, is the same 404 as an unknown one.
            let own = try await maya.reserve(home.itemIDs[0], returnTo: "/books/\(bookID)")
            let unknown = try await ana.reserve(999_999, returnTo: "/books/\(bookID)")
            #expect(own.status == .notFound && unknown.status == .notFound)
        }
    }
}
