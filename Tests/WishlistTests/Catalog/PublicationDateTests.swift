import Foundation
import Testing
@testable import WishlistCore
@testable import WishlistLanguages
@testable import WishlistWeb

/// Issue 27: the Atom feed wrote the NYT's dates unescaped and unchecked. Dates are checked when
/// a response arrives, and the feed escapes every value anyway.
@Suite("Publication dates: checked at sync, escaped in feeds")
struct PublicationDateTests {
    @Test(arguments: ["2026-11-15", "2024-02-29", "1931-10-12"])
    func aDayIsADay(text: String) { #expect(PublicationDate.isDay(text)) }

    @Test(arguments: ["", "2026-11-5", "2026-13-01", "2023-02-29", "2026-02-30", "2026-00-10", "20261115", "2026-11-15 ", "2026/11/15",
                      "2026-11-15<x>", "１２３４-11-15", "1800-01-01"])
    func anythingElseIsNot(text: String) { #expect(!PublicationDate.isDay(text)) }

    @Test func aFixtureWithAnImpossibleDateIsRefusedAndTheRealOneIsNot() throws {
        let real = try JSONDecoder().decode(NYTOverviewResponse.self, from: Fixtures.data("full-overview-2023-03-26.json"))
        #expect(PublicationDate.firstInvalid(in: real) == nil)
        var object = try Fixtures.json("full-overview-2023-03-26.json")
        var results = object["results"] as? [String: Any] ?? [:]
        results["published_date"] = "2023-03-26T00:00:00Z"
        object["results"] = results
        let bad = try JSONDecoder().decode(NYTOverviewResponse.self, from: Fixtures.encode(object))
        #expect(PublicationDate.firstInvalid(in: bad) == "2023-03-26T00:00:00Z")
    }

    /// A date that got into the database by another way than a sync (an older version, a hand
    /// edit) still cannot break out of its element.
    @Test func theFeedEscapesEveryValue() {
        let book = BookSummary(id: "9780000000001", title: "A & B", author: "", description: "", imageURL: nil, imageWidth: 0, imageHeight: 0)
        let entry = NewEntry(
            listNameEncoded: "hardcover-fiction", displayName: "Hardcover Fiction", frequency: .weekly,
            publishedDate: "2026-11-15</updated><x>", rank: 1, isReturning: false, book: book
        )
        let feed = AtomFeed(
            id: "urn:uuid:1", title: "Feed", subtitle: "Books", origin: "https://books.example", selfPath: "/feeds/x/favorites.atom",
            emptyUpdated: Date(timeIntervalSince1970: 0), entries: [entry], translations: Translations()
        )
        #expect(!feed.xml.contains("<x>"), "no element from a value")
        #expect(feed.xml.contains("<updated>2026-11-15&lt;/updated&gt;&lt;x&gt;T00:00:00Z</updated>"))
        #expect(feed.xml.components(separatedBy: "<updated>").count == 3, "the feed's and the entry's, nothing more")
    }
}
