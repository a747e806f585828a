import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// The small defects a family's first week found (issue 57, defects 2 and 3), each over HTTP.
@Suite("A family's first week: the defects seen over HTTP", .removesTemporaryDirectories)
struct FirstWeekDefectsHTTPTests {
    /// Defect 2: every reserved row said "Not on a current list", books at #1 and #3 included.
    @Test func giftsImGivingSaysWhereEachReservedBookStands() async throws {
        let home = try await Household.make()
        try await home.run { _, ana, _ in
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            #expect(try await ana.reserve(home.itemIDs[2]).status == .seeOther)
            let gifts = try await ana.get("/reservations")
            #expect(gifts.text.contains("Hardcover Fiction</a> (#1)"))
            #expect(gifts.text.contains("Hardcover Fiction</a> (#3)"))
            #expect(!gifts.shows("Not on a current list"))
        }
    }

    /// Defect 3: "1 here wants it" counted the reader herself.
    @Test func aRowsWantCountLeavesTheReaderOut() async throws {
        let home = try await Household.make()
        let books = try await home.bookIDs()
        try await home.run(sharing: [.maya, .ana]) { maya, ana, ben in
            let count = { (page: TestResponse, sentence: String) in page.text.components(separatedBy: sentence).count - 1 }
            let list = "/lists/hardcover-fiction"
            #expect(count(try await maya.get(list), "here want") == 0, "Maya's three wishes are hers alone")
            #expect(count(try await ana.get(list), "1 here wants it") == 3)
            #expect(try await ana.post("/wishlist", [("book", books[0]), ("return_to", list)]).status == .seeOther)
            #expect(count(try await maya.get(list), "1 here wants it") == 1, "Ana's wish, not Maya's own")
            let bens = try await ben.get(list)
            #expect(count(bens, "2 here want it") == 1 && count(bens, "1 here wants it") == 2, "Ben wants none: all are others'")
            let search = try await maya.get("/search?q=" + home.titles[0].split(separator: " ")[0].addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(count(search, "2 here want it") == 0, "search rows leave her out too")
        }
    }

    /// Defect 3: a price showed as "28.99"; the NYT's prices are US dollars, written as the page's
    /// language writes them (issue 53): "$28.99", "28,99 $", "28,99 $US".
    @Test func aPriceShowsWithItsCurrency() async throws {
        let server = try await TestApp.build()
        let (book, price) = try #require(try await server.database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, price FROM book WHERE price IS NOT NULL LIMIT 1").map { ($0["id"] as String, $0["price"] as String) }
        })
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            let page = try await browser.get(SitePath.book(book))
            #expect(page.text.contains("<dd>$\(price)</dd>"))
            let decimalComma = price.replacingOccurrences(of: ".", with: ",")
            try await browser.post("/settings/language", [("language", "de")])
            #expect(try await browser.get(SitePath.book(book)).text.contains("<dd>\(decimalComma)\u{00A0}$</dd>"))
            try await browser.post("/settings/language", [("language", "fr")])
            #expect(try await browser.get(SitePath.book(book)).text.contains("<dd>\(decimalComma)\u{00A0}$US</dd>"))
        }
    }

    /// Defect 3: People's "Change who sees it" pointed to `/settings#sharing`, which has no such anchor.
    @Test func peoplesChangeWhoSeesItLeadsToTheSharingSection() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let people = try await maya.get(SitePath.people)
            #expect(people.text.contains(#"<a href="/settings/sharing">Change who sees it</a>"#))
            #expect(try await maya.get("/settings/sharing").text.contains(#"id="sharing-form""#))
        }
    }

    /// Defect 3: a book read without a date gave "0 books read this year" above "has read 1".
    @Test func aBookReadWithoutADateCountsInTheYearItWasMarked() async throws {
        let home = try await Household.make()
        let books = try await home.bookIDs()
        try await home.run { maya, ana, _ in
            #expect(try await maya.markRead(books[0]).status == .seeOther)
            let page = try await ana.get("/people/maya")
            #expect(page.shows("1 book read this year"))
        }
    }

    /// Defect 3: the error summary listed the display name after the birthday, unlike the form.
    @Test func theErrorSummaryFollowsTheProfileFormsOrder() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            let refused = try await browser.post(
                "/settings/profile", [("display_name", String(repeating: "x", count: 41)), ("bio", ""), ("birthday_month", "2"), ("birthday_day", "31")]
            )
            #expect(refused.status == .unprocessableContent)
            let summary = try #require(refused.text.firstRange(of: "error-summary-list").map { refused.text[$0.upperBound...] })
            let name = try #require(summary.firstRange(of: "#display_name")), birthday = try #require(summary.firstRange(of: "#birthday_month"))
            #expect(name.lowerBound < birthday.lowerBound)
        }
    }

    /// Item 8: "I got it" asks once before it moves the book, without script.
    @Test func iGotItAsksOnceBeforeItMovesTheBook() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            let item = home.itemIDs[0]
            let wishlist = try await maya.get("/wishlist")
            #expect(wishlist.text.contains(#"href="/wishlist/\#(item)/received""#), "the row's I got it opens the question")
            #expect(!wishlist.text.contains(#"action="/wishlist/\#(item)/received""#), "no button on the row moves the book")
            let question = try await maya.get("/wishlist/\(item)/received")
            #expect(question.status == .ok)
            #expect(question.shows("Did you get “\(home.titles[0])”?"))
            #expect(question.text.contains(#"id="received-submit""#))
            #expect(try await maya.get("/wishlist").shows(home.titles[0]), "asking moved nothing")
            #expect(try await ana.get("/wishlist/\(item)/received").status == .notFound, "only the owner is asked")
            #expect(try await maya.post("/wishlist/\(item)/received", []).location == "/wishlist/received")
        }
    }
}
