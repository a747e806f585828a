import Foundation
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
