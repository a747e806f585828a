import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// A wishlist of hundreds of books is a hundred a page, on its owner's page and on the page the
/// household sees, and a form on a later page comes back to that page.
@Suite("Long wishlists: a hundred books a page", .removesTemporaryDirectories)
struct LongWishlistHTTPTests {
    /// Gives `username` `count` books straight in the table, titled "Book 001"… and, so that the
    /// pages must break ties, every tenth one titled "Twin".
    static func fill(_ server: WishlistServer, _ username: String, count: Int) async throws -> [Int64] {
        try await server.database.pool.write { db in
            let userID = try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username = ?", arguments: [username])!
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            return try (1...count).map { number in
                try db.execute(
                    sql: """
                        INSERT INTO wishlist_item (user_id, title, author, publisher, description, isbn10, isbn13,
                            image_width, image_height, buy_links, reading_links, added_at)
                        VALUES (?, ?, 'An Author', '', '', '', '', 0, 0, '[]', '[]', ?)
                        """,
                    // Every other pair shares its added time, so "newest first" has ties too.
                    arguments: [userID, number % 10 == 0 ? "Twin" : "Book " + String(1000 + number).dropFirst(), start.addingTimeInterval(Double(number / 2) * 60)]
                )
                return db.lastInsertedRowID
            }
        }
    }

    static func itemIDs(on page: TestResponse) -> [Int64] {
        page.text.matches(of: /<li class="book wishlist-item" id="item-(\d+)"/).map { Int64($0.output.1)! }
    }

    @Test func anOwnersLongWishlistIsAHundredAPageInEveryOrderWithEveryBookOnOnePage() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            let ids = try await Self.fill(server, "reader", count: 250)
            for sort in WishlistSort.allCases {
                let field = sort == .added ? "" : "sort=\(sort.rawValue)&"
                var seen: [Int64] = []
                for number in 1...3 {
                    let page = try await browser.get("/wishlist?\(field)page=\(number)")
                    #expect(page.status == .ok)
                    #expect(page.text.contains(#"<span class="heading-count" id="wishlist-total">250 books</span>"#), "the count is the whole list's")
                    #expect(page.shows("Page \(number) of 3"))
                    seen += Self.itemIDs(on: page)
                }
                #expect(seen.count == 250 && Set(seen) == Set(ids), "\(sort): every book once")
                let userID = try await server.database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user WHERE username = 'reader'")! }
                let expected = try await WishlistStore(database: server.database).items(userID: userID, sort: sort).map(\.id.rawValue)
                #expect(seen == expected, "\(sort): the pages in the list's order")
            }
            let first = try await browser.get("/wishlist?sort=title")
            #expect(Self.itemIDs(on: first).count == 100)
            #expect(first.text.contains(#"<a rel="next" id="wishlist-next" href="/wishlist?sort=title&amp;page=2">"#))
            #expect(!first.text.contains("wishlist-previous"))
            let second = try await browser.get("/wishlist?page=2")
            #expect(second.text.contains(#"<a rel="prev" id="wishlist-previous" href="/wishlist">"#), "the first page's plain address")
            #expect(second.text.contains(#"<a rel="next" id="wishlist-next" href="/wishlist?page=3">"#))
            let sortedSecond = try await browser.get("/wishlist?sort=title&page=2")
            let removing = Self.itemIDs(on: sortedSecond)[7]
            let removeLink = "/wishlist/\(removing)/remove?return_to=%2Fwishlist%3Fsort%3Dtitle%26page%3D2"
            #expect(sortedSecond.text.contains(#"<a class="item-remove" href="\#(removeLink)">"#))
            let confirm = try await browser.get(removeLink)
            #expect(confirm.text.contains(#"<input type="hidden" name="return_to" value="/wishlist?sort=title&amp;page=2">"#))
            let removed = try await browser.post("/wishlist/\(removing)/delete", [("return_to", "/wishlist?sort=title&page=2")])
            #expect(removed.location == "/wishlist?sort=title&page=2", "back to the page the book was on")
            let elsewhere = try await browser.post("/wishlist/\(Self.itemIDs(on: sortedSecond)[8])/delete", [("return_to", "/settings")])
            #expect(elsewhere.location == "/wishlist", "only a page of the wishlist")
            #expect(try await !browser.get("/wishlist").text.contains("/remove?return_to"), "the first page is the plain address")
            let past = try await browser.get("/wishlist?page=40")
            #expect(Self.itemIDs(on: past).count == 48 && past.shows("Page 3 of 3"), "past the end: the last page")
            for bad in ["0", "-1", "two", "1234567"] {
                let refused = try await browser.get("/wishlist?page=\(bad)")
                #expect(refused.status == .badRequest && refused.shows("Pages are numbered from 1"), "page=\(bad)")
            }
        }
    }

    @Test func aShortWishlistHasNoPageLinks() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            _ = try await Self.fill(server, "reader", count: 100)
            let page = try await browser.get("/wishlist")
            #expect(Self.itemIDs(on: page).count == 100)
            #expect(!page.text.contains("wishlist-pages"))
        }
    }

    @Test func aGiverOnALaterPageOfAMembersListComesBackToThatPage() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, ben in
            let ids = try await Self.fill(home.server, "maya", count: 247)

            let second = try await ana.get("/people/maya?sort=title&page=2")
            #expect(second.text.contains(#"<span class="heading-count" id="member-total">250 books</span>"#))
            let onSecond = Self.itemIDs(on: second)
            #expect(onSecond.count == 100 && Set(onSecond).isSubset(of: Set(ids)))
            #expect(second.text.contains(#"<a rel="prev" id="member-previous" href="/people/maya?sort=title">"#))
            #expect(second.text.contains(#"<a rel="next" id="member-next" href="/people/maya?sort=title&amp;page=3">"#))
            #expect(second.text.contains(#"name="return_to" value="/people/maya?sort=title&amp;page=2""#))

            let item = onSecond[40]
            let reserved = try await ana.reserve(item, returnTo: "/people/maya?sort=title&page=2")
            #expect(reserved.status == .seeOther && reserved.location == "/people/maya?sort=title&page=2#flash")

            let lost = try await ben.reserve(item, returnTo: "/people/maya?sort=title&page=2")
            #expect(lost.status == .conflict)
            #expect(Self.itemIDs(on: lost) == onSecond, "the page Ben was on, in his order")
            let card = try #require(WishlistHTTPTests.card("item-\(item)", on: lost))
            #expect(card.contains("Already reserved by ana — pick another."))
            #expect(try await ana.get("/people/maya?page=zero").status == .badRequest)
        }
    }

    @Test("a form's return address names the member's page, its order and its page number", arguments: [
        ("/people/maya?sort=title&page=3", "maya", "title", 3),
        ("/people/maya?page=2", "maya", "", 2),
        ("/people/maya?sort=price&page=two", "maya", "", 1),
        ("/people/maya", "maya", "", 1),
    ])
    func memberPageAddresses(path: String, username: String, sort: String, page: Int) {
        let parsed = HouseholdController.memberPage(path)
        #expect(parsed?.username == username && parsed?.sort == sort && parsed?.page == page)
    }
}
