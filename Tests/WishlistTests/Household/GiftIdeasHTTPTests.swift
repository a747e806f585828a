import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Gift ideas over HTTP: suggested and reserved by the others, never seen by their member", .removesTemporaryDirectories)
struct GiftIdeasHTTPTests {
    /// A catalog book none of the household wishes for.
    static func unwishedBook(_ home: Household) async throws -> CatalogBook {
        let wished = Set(try await home.bookIDs())
        let listed = try await CatalogStore(database: home.server.database).list(named: "hardcover-fiction")!.1.map(\.book.id)
        return try await CatalogStore(database: home.server.database).book(id: listed.first { !wished.contains($0) }!)!
    }

    @Test func theOthersSuggestAndReserveIdeasAndTheMemberNeverSeesThem() async throws {
        let home = try await Household.make()
        let book = try await Self.unwishedBook(home)
        try await home.run(sharing: []) { maya, ana, ben in
            #expect(try await ana.post("/people/maya/ideas", [("book", book.id), ("note", "x")]).status == .notFound, "her list is private")
            try await maya.share()
            let found = try await ana.get("/people/maya/ideas?q=\(book.title.split(separator: " ").last!)")
            #expect(found.text.contains(#"name="book" value="\#(book.id)""#), "the search offers the book")
            let suggested = try await ana.post("/people/maya/ideas", [("book", book.id), ("note", "She loved the first one")])
            #expect(suggested.location == "/people/maya/ideas")
            let again = try await ben.post("/people/maya/ideas", [("book", book.id), ("note", "")])
            #expect(again.status == .conflict && again.shows("ana has already suggested this book for maya"))
            let wished = try await home.bookIDs()[0]
            #expect(try await ben.post("/people/maya/ideas", [("book", wished), ("note", "")]).status == .conflict, "a wish is no idea")
            #expect(try await ana.post("/people/ana/ideas", [("book", book.id), ("note", "")]).status == .notFound, "not for oneself")
            #expect(try await ana.post("/people/maya/ideas", [("book", "9999999999999"), ("note", "")]).status == .notFound)
            let long = try await ana.post("/people/maya/ideas", [("book", book.id), ("note", String(repeating: "n", count: 501))])
            #expect(long.status == .unprocessableContent)

            let ideas = try await ben.get("/people/maya/ideas")
            #expect(ideas.shows("Suggested by ana"))
            #expect(ideas.shows("She loved the first one"))
            let ideaID = try #require(ideas.text.firstMatch(of: /data-idea="(\d+)"/)?.1)
            let reserved = try await ben.post("/people/maya/ideas/\(ideaID)/reserve", [])
            #expect(try await ben.follow(reserved).shows("You reserved this idea as a gift. Its owner won’t see that."))
            let taken = try await ana.post("/people/maya/ideas/\(ideaID)/reserve", [])
            #expect(taken.status == .conflict && taken.shows("ben has already reserved this idea"))
            #expect(try await ana.get("/people/maya/ideas").shows("Reserved by ben"))
            #expect(try await ben.get("/reservations").shows("A gift idea, reserved by you"))
            #expect(try await maya.post("/people/maya/ideas/\(ideaID)/reserve", []).status == .notFound)
            let hers = try await maya.get("/people/maya/ideas")
            #expect(hers.location == "/wishlist", "her own ideas page is her wishlist, as her own People page is")
            #expect(!(try await maya.get("/wishlist").text.contains(book.title)))
            #expect(!(try await maya.get("/books/\(book.id)").text.contains("1 member wants it")), "an idea is nobody's wish")
        }
    }

    @Test func herOwnWishForAnIdeasBookTakesItsReservationAndTellsHerNothing() async throws {
        let home = try await Household.make()
        let book = try await Self.unwishedBook(home)
        let other = try await CatalogStore(database: home.server.database).list(named: "hardcover-fiction")!.1.map(\.book.id)
            .last { id in id != book.id }!
        try await home.run { maya, ana, _ in
            _ = try await ana.post("/people/maya/ideas", [("book", book.id), ("note", "Trust me")])
            let ideaID = try #require(try await ana.get("/people/maya/ideas").text.firstMatch(of: /data-idea="(\d+)"/)?.1)
            _ = try await ana.post("/people/maya/ideas/\(ideaID)/reserve", [])

            let withIdea = OwnerNeverKnowsTests.Answer(try await maya.post("/wishlist", [("book", book.id), ("return_to", "/lists")]))
            let withoutIdea = OwnerNeverKnowsTests.Answer(try await maya.post("/wishlist", [("book", other), ("return_to", "/lists")]))
            #expect(withIdea.status == withoutIdea.status)
            // Each answer names its own book's card in the flash cookie.
            let same = { (header: String, id: String) in header.replacing(/added-\d+/, with: "added-N").replacing("book-" + id, with: "book-B") }
            #expect(withIdea.headers.map { same($0, book.id) } == withoutIdea.headers.map { same($0, other) })
            #expect(try await ana.get("/people/maya").shows("Reserved by you"), "the reservation moved to her item")
            #expect(try await ana.get("/people/maya/ideas").text.contains(#"id="ideas-empty""#), "the idea is gone")
            let item = try await home.server.database.pool.read {
                try Row.fetchOne($0, sql: "SELECT note FROM wishlist_item WHERE book_id = ?", arguments: [book.id])
            }
            #expect(item?["note"] as String? == "", "the idea's note is the givers', not hers")
        }
    }

    /// Issue 55: an idea's id in the path is read as every id is (``ID``): the controller read it
    /// with `Int64.init`, which took `007` and `+7` for idea 7.
    @Test func anIdeasIDHasOneSpelling() async throws {
        let home = try await Household.make()
        let book = try await Self.unwishedBook(home)
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            try await maya.share()
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            _ = try await ana.post("/people/maya/ideas", [("book", book.id), ("note", "")])
            let ideaID = try #require(try await ana.get("/people/maya/ideas").text.firstMatch(of: /data-idea="(\d+)"/)?.1)
            for spelling in ["0\(ideaID)", "+\(ideaID)"] {
                let answer = try await ana.post("/people/maya/ideas/\(spelling)/reserve", [])
                #expect(answer.status == .notFound && answer.shows("No such gift idea"), "\(spelling)")
            }
            #expect(try await ana.post("/people/maya/ideas/\(ideaID)/reserve", []).status == .seeOther)
        }
    }
}
