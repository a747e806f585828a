import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

extension TestBrowser {
    /// Marks `book` read with the form's fields.
    @discardableResult
    mutating func markRead(
        _ book: String, rating: String = "", review: String = "", finished: String = "", removeFromWishlist: Bool = false,
        returnTo: String? = nil
    ) async throws -> TestResponse {
        var fields = [("rating", rating), ("review", review), ("finished", finished), ("return_to", returnTo ?? "/books/\(book)")]
        if removeFromWishlist { fields.append(("remove_from_wishlist", "yes")) }
        return try await post("/books/\(book)/reading", fields)
    }

    /// Opens the page a 303 leads to, with the confirmation cookie it set, as a browser would
    /// (which keeps the fragment, `#flash`, to itself).
    mutating func follow(_ redirect: TestResponse) async throws -> TestResponse {
        let flash = redirect.headers[values: .setCookie].first { $0.hasPrefix("wishlist_flash=") }.map { "; " + $0.prefix { $0 != ";" } } ?? ""
        let location = (redirect.location ?? "/").split(separator: "#", maxSplits: 1).first.map(String.init) ?? "/"
        return try await get(location, headers: [.cookie: "wishlist_session=\(sessionCookie ?? "")\(flash)"])
    }
}

@Suite("Readers: read, rate and review over HTTP", .removesTemporaryDirectories)
struct ReadingHTTPTests {
    @Test func aBookMarkedReadWithStarsAReviewAndADateIsInBooksIveRead() async throws {
        let home = try await Household.make()
        let books = try await home.bookIDs()
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let empty = try await ana.get("/reading")
            #expect(empty.text.contains(#"id="reading-empty""#))
            let saved = try await ana.markRead(books[0], rating: "4", review: "Kept me up.\nTwo nights.", finished: "2026-10-02")
            #expect(saved.status == .seeOther)
            #expect(saved.location == "/books/\(books[0])#flash", "back to the form's place, its confirmation beside it")
            let page = try await ana.follow(saved)
            #expect(page.shows("Saved: you’ve read “\(home.titles[0])”."))
            #expect(page.text.contains(#"id="rating-4" name="rating" value="4" checked"#), "the form holds the saved rating")
            #expect(page.text.contains("Kept me up.\nTwo nights.</textarea>"))
            _ = try await ana.markRead(books[1], rating: "5", finished: "2026-09-01")
            _ = try await ana.markRead(books[2])
            let byDate = try await ana.get("/reading")
            #expect(byDate.shows("3 books"))
            #expect(Self.order(of: home.titles, in: byDate.text) == [0, 1, 2], "newest finished first, the undated last")
            // Four filled star icons and one open, named in words; no "★", which some fonts lack.
            let stars = try #require(byDate.text.firstMatch(of: /aria-label="4 of 5 stars">(.*?)<\/span>/)?.1)
            #expect(stars.matches(of: /<svg class="icon"/).count == 5)
            #expect(stars.matches(of: /fill="currentColor"/).count == 4)
            #expect(!byDate.text.contains("★"))
            #expect(byDate.text.contains(#"<time datetime="2026-10-02">"#))
            let byRating = try await ana.get("/reading?sort=rating")
            #expect(Self.order(of: home.titles, in: byRating.text) == [1, 0, 2], "five stars, four, then unrated")
            #expect(try await ana.get("/reading?sort=pages").status == .badRequest)
        }
    }

    @Test func aRatingOutsideOneToFiveAFutureDateOrALongReviewIsRefusedAndNothingIsStored() async throws {
        let home = try await Household.make()
        let book = try await home.bookIDs()[0]
        let tomorrowEverywhere = FinishedDate(Date().addingTimeInterval(3 * 86_400)).text
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let cases: [(rating: String, review: String, finished: String, field: String, says: String)] = [
                ("6", "", "", "rating", "Choose from one to five stars, or no rating."),
                ("0", "", "", "rating", "Choose from one to five stars, or no rating."),
                ("four", "", "", "rating", "Choose from one to five stars, or no rating."),
                ("", String(repeating: "é", count: 5001), "", "review", "Reviews can be up to 5,000 characters; this one has 5,001."),
                ("", "", tomorrowEverywhere, "finished", "The date you finished can’t be in the future."),
                ("", "", "2026-02-30", "finished", "Give the date you finished as year, month and day"),
                ("", "", "02/03/2026", "finished", "Give the date you finished as year, month and day"),
            ]
            for entered in cases {
                let refused = try await ana.markRead(book, rating: entered.rating, review: entered.review, finished: entered.finished)
                #expect(refused.status == .unprocessableContent, "\(entered)")
                // The core names the problem; the page words it beside its own field.
                let beside = refused.text.firstMatch(of: try Regex(#"<p class="field-error" id="\#(entered.field)-error">(.*?)</p>"#))?.output[1].substring
                #expect(beside?.contains(entered.says.replacingOccurrences(of: "'", with: "&#39;")) == true, "\(entered)")
                #expect(refused.text.contains("There is a problem"))
            }
            #expect(try await home.readingCount() == 0)
            #expect(try await ana.markRead(book, review: String(repeating: "é", count: 5000)).status == .seeOther, "5,000 characters are allowed")
            #expect(try await ana.markRead(book, finished: FinishedDate(Date()).text).status == .seeOther, "today is allowed")
            #expect(try await ana.markRead("9999999999999").status == .notFound)
        }
    }

    @Test func markingAWishedBookReadTakesItOffTheWishlistOnlyWhenAsked() async throws {
        let home = try await Household.make()
        let books = try await home.bookIDs()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            let item = try await maya.get("/wishlist/\(home.itemIDs[0])")
            #expect(item.text.contains(#"action="/books/\#(books[0])/reading""#), "the item page offers “I’ve read it”")
            #expect(item.text.contains(#"name="remove_from_wishlist" value="yes" checked"#))
            _ = try await maya.markRead(books[0], rating: "3")
            #expect(try await home.itemCount(owner: "maya") == 3, "left on the wishlist when not asked")
            let taken = try await maya.markRead(books[1], removeFromWishlist: true, returnTo: "/wishlist/\(home.itemIDs[1])")
            #expect(taken.location == "/wishlist", "the item is gone, so its page is too")
            #expect(try await home.itemCount(owner: "maya") == 2)
            #expect(try await maya.follow(taken).shows("It is off your wishlist now."))
        }
    }

    @Test func forgettingAReadingRemovesItAndOnlyTheReadersOwn() async throws {
        let home = try await Household.make()
        let book = try await home.bookIDs()[0]
        try await home.run(sharing: []) { _, ana, ben in
            _ = try await ana.markRead(book, rating: "2")
            _ = try await ben.markRead(book, rating: "5")
            let forgotten = try await ana.post("/books/\(book)/reading/delete", [("return_to", "/reading")])
            #expect(forgotten.location == "/reading")
            #expect(try await ana.get("/reading").text.contains(#"id="reading-empty""#))
            #expect(try await ben.get("/reading").shows("1 book"))
        }
    }

    @Test func theHouseholdPanelCountsOnlyMembersWhoShareSoAPrivateWishTellsNothing() async throws {
        let home = try await Household.make()
        let book = try await home.bookIDs()[0]
        try await home.run(sharing: [.maya, .ana]) { maya, ana, ben in
            // Ben keeps his list private: nothing he does may change what the others see.
            _ = try await ana.post("/wishlist", [("book", book), ("return_to", "/lists")])
            _ = try await ana.markRead(book, rating: "4", review: "Lovely <b>prose</b>")
            let before = try await maya.get("/books/\(book)")
            #expect(before.shows("2 members want it"))
            #expect(before.shows("1 member has read it"))
            #expect(before.shows("4.0 average from 1 rating"))
            #expect(before.shows("Lovely <b>prose</b>"), "a review is text, escaped")
            _ = try await ben.post("/wishlist", [("book", book), ("return_to", "/lists")])
            _ = try await ben.markRead(book, rating: "1", review: "Ben was here")
            let after = try await maya.get("/books/\(book)")
            #expect(Self.panel(after.text) == Self.panel(before.text), "a private member is neither counted nor shown")
            #expect(!after.text.contains("Ben was here"))
            let list = try await maya.get("/lists/hardcover-fiction")
            #expect(list.shows("1 here wants it"), "Ana's wish: Maya's own is not counted to her (issue 57)")
            #expect(list.text.contains(#"</svg> 4.0 (1)</span>"#), "a drawn star, then the average")
            try await ben.share()
            let shared = try await maya.get("/books/\(book)")
            #expect(shared.shows("3 members want it"))
            #expect(shared.shows("2.5 average from 2 ratings"))
            #expect(shared.text.contains("Ben was here"))
        }
    }

    @Test func hostileReviewsAreShownAsTheTextTheyAre() async throws {
        let home = try await Household.make()
        let book = try await home.bookIDs()[0]
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            try await ana.share()
            let script = "<script>alert(1)</script>\u{202E}evil\u{200F} \"quoted\" & 'single'"
            #expect(try await ana.markRead(book, review: script).status == .seeOther)
            let page = try await ana.get("/books/\(book)")
            #expect(!page.text.contains("<script>alert(1)"))
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;\u{202E}evil\u{200F} &quot;quoted&quot; &amp; &#39;single&#39;"))
            let control = try await ana.markRead(book, review: "bell\u{07}")
            #expect(control.status == .badRequest, "control characters are refused before the rule is asked")
            let long = String(repeating: "w", count: 5000)
            #expect(try await ana.markRead(book, review: long).status == .seeOther)
            #expect(try await ana.get("/reading").text.contains(long), "one 5,000-letter word is kept whole (the page wraps it)")
        }
    }

    @Test func aListSortedByWantedOrRatingPutsTheHouseholdsChoiceFirstAndRemembersTheOrder() async throws {
        let home = try await Household.make()
        let listed = try await CatalogStore(database: home.server.database).list(named: "hardcover-fiction")!.1.map(\.book.id)
        let (fourth, last) = (listed[3], listed[listed.count - 1])
        try await home.run(sharing: [.ana, .ben]) { _, ana, ben in
            for giver in [0, 1] {
                var member = giver == 0 ? ana : ben
                _ = try await member.post("/wishlist", [("book", last), ("return_to", "/lists")])
                _ = try await member.markRead(fourth, rating: "5")
            }
            let wanted = try await ana.get("/lists/hardcover-fiction?sort=wanted")
            #expect(Self.bookOrder(wanted.text).first == last, "two want the last-ranked book: it leads")
            #expect(wanted.text.contains(#"?sort=wanted" aria-current="true""#))
            let cookie = try #require(wanted.headers[values: .setCookie].first { $0.hasPrefix("wishlist_sort_weeks=") })
            #expect(cookie.hasPrefix("wishlist_sort_weeks=hardcover-fiction:wanted;"))
            let remembered = try await ana.get("/lists/hardcover-fiction", headers: [
                .cookie: "wishlist_session=\(ana.sessionCookie!); \(cookie.prefix { $0 != ";" })",
            ])
            #expect(Self.bookOrder(remembered.text).first == last, "the order is remembered for the list")
            let rated = try await ana.get("/lists/hardcover-fiction?sort=rating")
            #expect(Self.bookOrder(rated.text).first == fourth)
            #expect(rated.text.contains(#"</svg> 5.0 (2)</span>"#))
            #expect(Self.bookOrder(rated.text).dropFirst().elementsEqual(listed.filter { $0 != fourth }), "the unrated keep the NYT's rank")
            #expect(try await ana.get("/lists/hardcover-fiction?sort=pages").status == .badRequest)
        }
    }

    @Test func searchFiltersByListAndSortsByWhatTheHouseholdWants() async throws {
        let home = try await Household.make()
        let store = CatalogStore(database: home.server.database)
        let everything = try await store.search("the")
        #expect(everything.count >= 3, "the sample catalog has several books with “the” in them")
        let lists = try await store.currentLists()
        let fiction = try await store.list(named: "hardcover-fiction")!.1.map(\.book.id)
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            try await ana.share()
            let inFiction = try await ana.get("/search?q=the&list=hardcover-fiction")
            let found = Self.bookOrder(inFiction.text)
            #expect(!found.isEmpty && found.allSatisfy(fiction.contains), "only the list's books")
            #expect(found.count < everything.count || lists.count == 1)
            let target = everything[everything.count - 1].id
            _ = try await ana.post("/wishlist", [("book", target), ("return_to", "/search")])
            let byWanted = try await ana.get("/search?q=the&sort=wanted")
            #expect(Self.bookOrder(byWanted.text).first == target)
            #expect(!byWanted.shows("1 here wants it"), "her own wish sorts the book first but is not counted to her (issue 57)")
            let byTitle = Self.bookOrder(try await ana.get("/search?q=the&sort=title").text)
            let titles = everything.sorted { $0.title.lowercased() < $1.title.lowercased() }.map(\.id)
            #expect(byTitle == titles)
            #expect(try await ana.get("/search?q=the&list=no-such-list").status == .badRequest)
            #expect(try await ana.get("/search?q=the&sort=length").status == .badRequest)
        }
    }

    @Test func aRoundTripThroughGoodreadsKeepsWhatWasReadRatedAndSaid() async throws {
        let home = try await Household.make()
        let books = try await home.bookIDs()
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            _ = try await ana.markRead(books[0], rating: "4", review: "Line one,\n\"line\" two", finished: "2026-10-02")
            _ = try await ana.markRead(books[1])
            let exported = try await ana.get("/wishlist.csv")
            var ben = try await TestBrowser.signedIn("ben", like: browser)
            try await ben.get("/wishlist")
            let imported = try await WishlistHTTPTests().upload(exported.text, as: &ben)
            #expect(imported.text.contains(#"<li id="import-read-added"><strong>2</strong>"#))
            let store = ReadingStore(database: home.server.database)
            let anas = try await store.readings(userID: UserID(2), sort: .title)
            let bens = try await store.readings(userID: UserID(3), sort: .title)
            #expect(bens.map { [$0.bookID, $0.title, $0.rating.map(String.init), $0.review, $0.finished?.text] }
                == anas.map { [$0.bookID, $0.title, $0.rating.map(String.init), $0.review, $0.finished?.text] })
            #expect(bens.first { $0.bookID == books[0] }?.review == "Line one,\n\"line\" two")
            let again = try await WishlistHTTPTests().upload(exported.text, as: &ben)
            #expect(again.text.contains(#"<li id="import-read-already"><strong>2</strong>"#), "a second import adds nothing")
        }
    }

    /// The catalog ids of a page's book rows, in order.
    static func bookOrder(_ html: String) -> [String] {
        html.matches(of: /<li class="book" id="book-[^"]+" data-book="([^"]+)"/).map { String($0.1) }
    }

    /// The indexes of `titles` in the order they first appear in `html`.
    static func order(of titles: [String], in html: String) -> [Int] {
        titles.indices.compactMap { index in html.range(of: ">" + titles[index] + "<").map { (index, $0.lowerBound) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The "In this household" section of a book page.
    static func panel(_ html: String) -> Substring? {
        guard let start = html.range(of: #"id="household""#), let end = html[start.upperBound...].range(of: "</section>") else { return nil }
        return html[start.lowerBound..<end.upperBound]
    }
}
