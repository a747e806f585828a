import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// A rating is one tap (issue 57, item 7): five submit buttons that save at once, mark the book
/// read when it was not, keep its review and date, and come back to where the reader tapped.
@Suite("Readers: a rating is a tap", .removesTemporaryDirectories)
struct RatingTapHTTPTests {
    @Test func aTapRatesAnUnreadBookAndComesBackToItsStars() async throws {
        let home = try await Household.make()
        let book = try await home.bookIDs()[0]
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let page = try await ana.get("/books/\(book)")
            #expect(page.text.contains(#"<form class="star-tap" method="post" action="/books/\#(book)/rating">"#))
            for stars in 1...5 {
                #expect(page.text.contains(#"type="submit" name="rating" value="\#(stars)""#))
            }
            let tapped = try await ana.post("/books/\(book)/rating", [("rating", "4"), ("return_to", "/books/\(book)")])
            #expect(tapped.status == .seeOther)
            #expect(tapped.location == "/books/\(book)#flash")
            let back = try await ana.follow(tapped)
            // The confirmation is beside the stars, not at the top of the page.
            let section = try #require(back.text.range(of: #"id="your-reading""#))
            #expect(back.text[section.upperBound...].prefix(700).contains(#"id="flash""#))
            #expect(back.shows("Saved: 4 of 5 stars for “\(home.titles[0])”."))
            #expect(back.text.contains(#"value="4" aria-current="true""#))
            let saved = try #require(try await ReadingStore(database: home.server.database).reading(bookID: book, userID: UserID(2)))
            #expect(saved.rating == 4 && saved.review.isEmpty && saved.finished == nil)
        }
    }

    @Test func aTapKeepsTheReviewAndTheDate() async throws {
        let home = try await Household.make()
        let book = try await home.bookIDs()[0]
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            _ = try await ana.markRead(book, rating: "2", review: "Slow start.", finished: "2026-03-01")
            #expect(try await ana.post("/books/\(book)/rating", [("rating", "5"), ("return_to", "/reading")]).location == "/reading#flash")
            let saved = try #require(try await ReadingStore(database: home.server.database).reading(bookID: book, userID: UserID(2)))
            #expect(saved.rating == 5 && saved.review == "Slow start." && saved.finished?.text == "2026-03-01")
            // On Books I've read, the confirmation is on the book's own row.
            let list = try await ana.get("/reading", headers: [.cookie: "wishlist_session=\(ana.sessionCookie ?? ""); wishlist_flash=rated-\(book)@book-\(book)"])
            let row = try #require(list.text.range(of: #"id="book-\#(book)""#))
            #expect(list.text[row.upperBound...].prefix(1500).contains(#"id="flash""#))
        }
    }

    @Test func aRatingThatIsNotOneToFiveIsRefusedWithASentence() async throws {
        let home = try await Household.make()
        let book = try await home.bookIDs()[0]
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            for bad in ["0", "6", "", "four", "-1"] {
                let refused = try await ana.post("/books/\(book)/rating", [("rating", bad), ("return_to", "/books/\(book)")])
                #expect(refused.status == .unprocessableContent, "rating \(bad)")
                #expect(refused.shows("A rating is one to five stars;"))
            }
            #expect(try await home.readingCount() == 0)
            #expect(try await ana.post("/books/no-such-book/rating", [("rating", "3")]).status == .notFound)
        }
    }
}
