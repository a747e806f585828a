import Foundation
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Decoding the real NYT responses")
struct NYTDecodingTests {
    @Test func fullOverviewYields18ListsAnd230BooksInRankOrder() throws {
        let overview = try JSONDecoder().decode(NYTOverviewResponse.self, from: Fixtures.data("full-overview-2023-03-26.json"))
        #expect(overview.results.lists.count == 18)
        #expect(overview.results.lists.reduce(0) { $0 + $1.books.count } == 230)
        let editions = overview.results.lists.map { CatalogEdition($0, publishedDate: overview.results.publishedDate, frequency: .weekly) }
        #expect(editions.reduce(0) { $0 + $1.entries.count } == 230, "no book is dropped, the non-ISBN id included")
        for edition in editions {
            #expect(edition.entries.map(\.rank) == Array(1...edition.entries.count), "\(edition.listNameEncoded)")
        }
        let fiction = try #require(editions.first { $0.listNameEncoded == "combined-print-and-e-book-fiction" })
        #expect(fiction.entries[0].book.title == "It Starts with Us")
        #expect(fiction.entries[0].rankLastWeek == 3)
        #expect(editions.flatMap(\.entries).contains { $0.book.id == "DBKADBL052088" })
    }

    @Test func namesDecodeWithWeeklyAndMonthlyAndDeadListsAreNotCurrent() throws {
        let names = try JSONDecoder().decode(NYTNamesResponse.self, from: Fixtures.data("names-2023-03.json")).results
        #expect(names.count == 59)
        #expect(names.filter { $0.updated == "WEEKLY" }.count == 29)
        #expect(names.filter { $0.updated == "MONTHLY" }.count == 30)
        let current = CatalogSync.currentLists(names)
        #expect(current.allSatisfy { $0.newestPublishedDate >= "2023-03-01" })
        #expect(!current.contains { $0.newestPublishedDate.hasPrefix("2017") })
        #expect(current.contains { $0.updated == "MONTHLY" })
    }

    @Test func currentListDecodesISBNsBuyLinksAndPrices() throws {
        let list = try JSONDecoder().decode(NYTListResponse.self, from: Fixtures.data("current-hardcover-fiction-2023-03-19.json")).results
        let edition = CatalogEdition(list, publishedDate: list.publishedDate!, frequency: .weekly)
        #expect(edition.entries.count == 15)
        let first = edition.entries[0].book
        #expect(!first.otherISBNs.isEmpty)
        #expect(first.buyLinks.map(\.name).contains("Apple Books"))
        #expect(first.buyLinks.allSatisfy { $0.url.hasPrefix("https://") })
        #expect(first.price == nil, "a zero price is no price")
    }

    @Test func pricesArriveAsStringsOrNumbers() throws {
        let text = try JSONDecoder().decode([NYTPrice].self, from: Data(#"["0.00", 12.5, 0, "24.99"]"#.utf8))
        #expect(text.map(\.displayText) == [nil, "12.50", nil, "24.99"])
    }

    @Test("only absolute http(s) URLs are kept", arguments: [
        ("https://example.com/a", true), ("http://example.com", true), ("javascript:alert(1)", false),
        ("JaVaScRiPt:alert(1)", false), ("data:text/html,x", false), ("//example.com", false), ("/relative", false), ("", false),
    ])
    func safeURLs(candidate: String, kept: Bool) {
        #expect((SafeURL.http(candidate) != nil) == kept)
    }

    @Test func upperCaseTitlesBecomeTitleCase() {
        #expect(TitleCase.from("THE HOUSE OF FLAME AND SHADOW") == "The House of Flame and Shadow")
        #expect(TitleCase.from("IT STARTS WITH US") == "It Starts with Us")
        #expect(TitleCase.from("SELF-HELP: A GUIDE TO THE END") == "Self-Help: A Guide to the End")
        #expect(TitleCase.from("DON'T LOOK") == "Don't Look")
        #expect(TitleCase.from("Already Cased") == "Already Cased")
    }

    @Test func theSampleCatalogDecodesThroughTheSameTypes() async throws {
        let source = SampleCatalogSource()
        let names = try await source.names().results
        let overview = try await source.overview().results
        let current = CatalogSync.currentLists(names)
        #expect(current.count == 6)
        #expect(names.count == current.count + 1, "one dead list")
        let covered = Set(overview.lists.map(\.listNameEncoded))
        for name in current where !covered.contains(name.listNameEncoded) {
            #expect(try await !source.currentList(name.listNameEncoded).results.books.isEmpty)
        }
    }
}
