import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Profiles over HTTP: bio, birthday, favourites, the member's page", .removesTemporaryDirectories)
struct ProfileHTTPTests {
    @Test func aProfileSavedInSettingsOpensTheMembersPageAboveTheirWishlistAndReading() async throws {
        let home = try await Household.make()
        let books = try await home.bookIDs()
        try await home.run { maya, ana, _ in
            _ = try await maya.markRead(books[0], rating: "5", review: "Read it twice.", finished: FinishedDate(Date()).text)
            _ = try await maya.markRead(books[1], finished: "2001-05-05")
            let form = try await maya.get("/settings/profile")
            let readingIDs = form.text.matches(of: /name="favorite_(\d+)"/).map { String($0.1) }
            #expect(readingIDs.count == 2)
            let saved = try await maya.post("/settings/profile", [
                ("bio", "Reads on the train.\nLikes lighthouses."), ("birthday_month", "2"), ("birthday_day", "29"), ("favorite_\(readingIDs[0])", "yes"),
            ])
            #expect(saved.location == "/settings/profile?done=saved")
            let page = try await ana.get("/people/maya")
            #expect(page.text.contains("Reads on the train.\nLikes lighthouses."))
            #expect(page.shows("Birthday: 29 February"))
            #expect(page.shows("3 wishes"))
            #expect(page.shows("1 book read this year"), "the book finished in 2001 is not this year's")
            #expect(page.text.contains(#"avatar-initials"#) && page.text.contains(">M</span>"), "initials without a picture")
            let favorites = try #require(page.text.firstMatch(of: /id="profile-favorites"[\s\S]*?<\/ol>/)?.0)
            #expect(favorites.contains(home.titles[0]) && !favorites.contains(home.titles[1]))
            let profileAt = try #require(page.text.range(of: #"id="profile""#)).lowerBound
            let wishlistAt = try #require(page.text.range(of: #"id="member-items""#)).lowerBound
            let readingAt = try #require(page.text.range(of: #"id="member-reading-list""#)).lowerBound
            #expect(profileAt < wishlistAt && wishlistAt < readingAt, "profile, then wishlist, then reading")
            #expect(page.text.contains("Read it twice."))
        }
    }

    @Test func aLongBioAnImpossibleBirthdayOrSevenFavouritesAreRefusedWithASentence() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            let books = try await CatalogStore(database: home.server.database).list(named: "hardcover-fiction")!.1.prefix(7).map(\.book.id)
            for book in books { _ = try await maya.markRead(book) }
            let ids = try await maya.get("/settings/profile").text.matches(of: /name="favorite_(\d+)"/).map { String($0.1) }
            let cases: [([(String, String)], String)] = [
                ([("bio", String(repeating: "b", count: 501))], "A bio can be up to 500 characters; this one has 501."),
                ([("birthday_month", "2"), ("birthday_day", "30")], "Choose both the month and a day that month has, or neither."),
                ([("birthday_month", "4")], "Choose both the month and a day that month has, or neither."),
                (ids.map { ("favorite_\($0)", "yes") }, "Choose up to 6 favourite books; you chose 7."),
            ]
            for (fields, sentence) in cases {
                let refused = try await maya.post("/settings/profile", fields)
                #expect(refused.status == .unprocessableContent)
                #expect(refused.shows(sentence))
            }
            let stored = try await home.server.database.pool.read { db in
                (try String.fetchOne(db, sql: "SELECT bio FROM user WHERE username = 'maya'"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM favorite_book"))
            }
            #expect(stored.0 == "" && stored.1 == 0, "nothing refused was stored")
            #expect(try await maya.post("/settings/profile", [("bio", String(repeating: "b", count: 500))]).status == .seeOther)
        }
    }

    @Test func aBioIsTextWhateverItHolds() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            let hostile = "<img src=x onerror=alert(1)>\u{202E}desrever\u{200F}"
            #expect(try await maya.post("/settings/profile", [("bio", hostile)]).status == .seeOther)
            let page = try await ana.get("/people/maya")
            #expect(page.text.contains("&lt;img src=x onerror=alert(1)&gt;\u{202E}desrever\u{200F}"))
            #expect(!page.text.contains("<img src=x"))
            #expect(try await maya.post("/settings/profile", [("bio", "tab\tok, escape \u{1B} not")]).status == .badRequest)
        }
    }

    @Test func aPrivateMembersProfileIsNobodysToSee() async throws {
        let home = try await Household.make()
        try await home.run(sharing: []) { maya, ana, _ in
            #expect(try await maya.post("/settings/profile", [("bio", "secret bio")]).status == .seeOther)
            let hidden = try await ana.get("/people/maya")
            #expect(hidden.status == .notFound)
            #expect(!hidden.text.contains("secret bio"))
        }
    }

    /// A Goodreads import brings a reader's whole shelf. "Books I've read" and a member's page
    /// show it a hundred books at a time, most recently finished first on her page, and her
    /// page's pager leads to the rest on a page of their own (issue 34: a page a phone can scroll,
    /// and a member's page that does not cost the length of her shelf).
    @Test func aLongShelfComesAHundredBooksAPageOnBooksIveReadAndOnTheMembersPage() async throws {
        let home = try await Household.make()
        try await home.server.database.pool.write { db in
            let mayaID = try #require(try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'maya'"))
            for number in 1...130 {
                try db.execute(
                    sql: "INSERT INTO reading (user_id, title, author, finished_on, updated_at) VALUES (?, ?, 'A. Reader', ?, ?)",
                    arguments: [mayaID, String(format: "Shelf Book %03d", number), String(format: "2019-%02d-%02d", 1 + (number - 1) / 28, 1 + (number - 1) % 28), Date()]
                )
            }
        }
        /// The titles of the reading rows in `html`, in order.
        @Sendable func titles(_ html: Substring) -> [String] { html.matches(of: /Shelf Book \d{3}/).map { String($0.0) } }
        try await home.run { maya, ana, _ in

            let first = try await maya.get("/reading")
            #expect(first.shows("130 books"))
            #expect(titles(first.text[...]) == (31...130).reversed().map { String(format: "Shelf Book %03d", $0) })
            #expect(first.text.contains(#"href="/reading?page=2""#) && !first.text.contains(#"rel="prev""#))
            let second = try await maya.get("/reading?page=2")
            #expect(titles(second.text[...]) == (1...30).reversed().map { String(format: "Shelf Book %03d", $0) })
            #expect(second.text.contains(#"rel="prev" id="reading-previous" href="/reading""#))
            let byTitle = try await maya.get("/reading?sort=title&page=2")
            #expect(titles(byTitle.text[...]).first == "Shelf Book 101")
            #expect(byTitle.text.contains(#"href="/reading?sort=title""#), "the pager keeps the order")
            #expect(try await maya.get("/reading?page=0").status == .badRequest)

            let page = try await ana.get("/people/maya")
            let foot = try #require(page.text.firstRange(of: #"id="member-reading""#).map { page.text[$0.lowerBound...] })
            #expect(foot.contains(#"<span class="heading-count">130</span>"#), "the count is the whole shelf's")
            #expect(titles(foot) == (31...130).reversed().map { String(format: "Shelf Book %03d", $0) })
            #expect(foot.contains(#"href="/people/maya/reading?page=2""#))
            let rest = try await ana.get("/people/maya/reading?page=2")
            #expect(rest.status == .ok && rest.shows("130 books"))
            #expect(titles(rest.text[...]) == (1...30).reversed().map { String(format: "Shelf Book %03d", $0) })
            #expect(rest.text.contains(#"href="/people/maya""#) && rest.text.contains(#"href="/people/maya/reading""#))
            #expect(!rest.text.contains("reading-edit"), "another member's reading is not editable")

            #expect(try await maya.get("/people/maya/reading").location == "/reading", "one's own shelf is Books I've read")
            try await maya.share("private")
            #expect(try await ana.get("/people/maya/reading?page=2").status == .notFound)
        }
    }
}
