import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// "Reading now" beside "I've read it", and the year's count with an optional goal on Books I've
/// read (issue 57, item 7).
@Suite("Readers: reading now and the year's goal", .removesTemporaryDirectories)
struct ReadingNowHTTPTests {
    @Test func readingNowSitsBesideIveReadItAndLeadsBooksIveRead() async throws {
        let home = try await Household.make()
        let books = try await home.bookIDs()
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let page = try await ana.get("/books/\(books[0])")
            #expect(page.text.contains(#"id="reading-now-start" type="submit" formaction="/books/\#(books[0])/reading-now""#))
            let started = try await ana.post("/books/\(books[0])/reading-now", [("return_to", "/books/\(books[0])"), ("rating", ""), ("review", "")])
            #expect(started.status == .seeOther)
            #expect(started.location == "/books/\(books[0])#flash")
            let back = try await ana.follow(started)
            #expect(back.shows("You’re reading “\(home.titles[0])” now."))
            #expect(back.text.contains("You’re reading it now"))
            #expect(back.text.contains(#"formaction="/books/\#(books[0])/reading-now/delete""#))
            #expect(!back.text.contains(#"id="reading-now-start""#))

            // Books I've read lists it at the top, before the books read; "I've read it" there ends it.
            _ = try await ana.markRead(books[1], rating: "3")
            let list = try await ana.get("/reading")
            let now = try #require(list.text.range(of: #"id="reading-now""#))
            let read = try #require(list.text.range(of: #"id="reading-list""#))
            #expect(now.lowerBound < read.lowerBound)
            #expect(list.text[now.upperBound..<read.lowerBound].contains(home.titles[0]))
            #expect(!list.text[now.upperBound..<read.lowerBound].contains(home.titles[1]))
            _ = try await ana.markRead(books[0], returnTo: "/reading")
            #expect(try await ReadingStore(database: home.server.database).readingNow(userID: UserID(2)).isEmpty)
            #expect(!(try await ana.get("/reading")).text.contains(#"id="reading-now""#))
            // A book read is not started again.
            let again = try await ana.post("/books/\(books[0])/reading-now", [("return_to", "/reading")])
            #expect(again.status == .conflict)
            #expect(again.shows("so it can’t be one you’re reading now"))
            #expect(try await ana.post("/books/no-such-book/reading-now", []).status == .notFound)
        }
    }

    @Test func notReadingItNowTakesItOffWithoutMarkingItRead() async throws {
        let home = try await Household.make()
        let books = try await home.bookIDs()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            _ = try await maya.post("/books/\(books[2])/reading-now", [("return_to", "/wishlist/received")])
            // A received book's row has the same two buttons as a book's page.
            #expect(try await maya.post("/wishlist/\(home.itemIDs[2])/received", []).status == .seeOther)
            let received = try await maya.get("/wishlist/received")
            #expect(received.text.contains(#"formaction="/books/\#(books[2])/reading-now/delete">Not reading it now"#))
            let stopped = try await maya.post("/books/\(books[2])/reading-now/delete", [("return_to", "/wishlist/received")])
            #expect(stopped.location == "/wishlist/received")
            #expect(try await maya.follow(stopped).shows("No longer among the books you’re reading now."))
            #expect(try await maya.get("/wishlist/received").text.contains(#"formaction="/books/\#(books[2])/reading-now">Reading now"#))
            #expect(try await home.readingCount() == 0)
        }
    }

    /// Others see what she reads now only where they see her readings: while she shares, on her
    /// page (kept in the page cache, which her start renews) and her readings' page.
    @Test func readingNowShowsOnlyWhereHerReadingIsShown() async throws {
        let home = try await Household.make()
        let books = try await home.bookIDs()
        try await home.run { maya, ana, _ in
            #expect(!(try await ana.get("/people/maya")).text.contains(#"id="member-reading-now""#))
            _ = try await maya.post("/books/\(books[1])/reading-now", [("return_to", "/books/\(books[1])")])
            for path in ["/people/maya", "/people/maya/reading"] {
                let page = try await ana.get(path)
                let line = try #require(page.text.range(of: #"id="member-reading-now""#), "\(path)")
                #expect(page.text[line.upperBound...].prefix(400).contains(home.titles[1]), "\(path)")
            }
            try await maya.share("private")
            for path in ["/people/maya", "/people/maya/reading"] {
                let page = try await ana.get(path)
                #expect(page.status == .notFound, "\(path)")
                #expect(!page.text.contains(home.titles[1]), "\(path)")
            }
        }
    }

    @Test func theYearsCountStandsBesideAnOptionalGoal() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_798_758_000))  // 31 December 2026, 23:00 UTC
        let home = try await Household.make(clock: clock.clock)
        let books = try await home.bookIDs()
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            #expect(try await ana.get("/reading").text.contains(#"<p class="reading-year-count" id="reading-year-count">0 books this year</p>"#))
            _ = try await ana.markRead(books[0], finished: "2026-02-01")
            _ = try await ana.markRead(books[1], finished: "2025-12-31")
            let saved = try await ana.post("/reading/goal", [("goal", "24")])
            #expect(saved.status == .seeOther && saved.location == "/reading")
            let page = try await ana.follow(saved)
            #expect(page.text.contains(#"id="reading-year-count">1 of 24 books this year</p>"#))
            #expect(page.shows("Your goal for this year is saved."))
            #expect(page.text.contains(#"name="goal" min="1" max="1000" step="1" inputmode="numeric" value="24""#))
            for bad in ["0", "1001", "twelve", "2.5", "-3", "12 books", "99999"] {
                let refused = try await ana.post("/reading/goal", [("goal", bad)])
                #expect(refused.status == .unprocessableContent, "goal \(bad)")
                #expect(refused.shows("A goal is a whole number of books from 1 to 1,000;"), "goal \(bad)")
            }
            #expect(try await ana.get("/reading").text.contains("1 of 24 books this year"))
            let cleared = try await ana.post("/reading/goal", [("goal", "")])
            #expect(try await ana.follow(cleared).shows("Your goal for this year is cleared."))
            #expect(try await ana.get("/reading").text.contains(#"id="reading-year-count">1 book this year</p>"#))
            // A goal is the year's: the next year starts without one.
            _ = try await ana.post("/reading/goal", [("goal", "1000")])
            // A counted goal is written with the language's digit groups, as every {% t %} count is.
            #expect(try await ana.get("/reading").text.contains("1 of 1,000 books this year"))
            clock.advance(by: 2 * 3600)
            #expect(try await ana.get("/reading").text.contains(#"id="reading-year-count">0 books this year</p>"#))
        }
    }
}
