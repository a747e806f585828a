import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// The catalog's and the books' pages in the reader's language (issue 53): their words, counts and
/// dates come from her language's catalog and CLDR patterns, the rank charts included, which are
/// cached per language; English reads as before.
@Suite("The catalog and the books in the reader's language", .removesTemporaryDirectories)
struct CatalogPagesInLanguagesHTTPTests {
    static let list = "/lists/hardcover-fiction"
    /// On the sample's hardcover fiction list in seven of its eight stored editions: it has a chart.
    static let chartedBook = "/books/9798940831327"

    static func asking(_ language: String) -> HTTPFields {
        [.acceptLanguage: language]
    }

    @Test func aListReadsInGermanAndFrenchWithTheirCountsAndDates() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.signUp("oma")
            let english = try await browser.get(Self.list, headers: Self.asking("en"))
            #expect(english.text.contains(#"<h2 id="books-heading">15 books</h2>"#))
            #expect(english.text.contains(#"Published <time datetime="2026-11-15">November 15, 2026</time>"#) && english.shows("New this week"))

            let german = try await browser.get(Self.list, headers: Self.asking("de"))
            #expect(german.text.contains(#"<h2 id="books-heading">15 Bücher</h2>"#))
            #expect(german.text.contains(#"Erschienen am <time datetime="2026-11-15">15. November 2026</time>"#) && german.shows("Neu diese Woche"))
            #expect(german.shows("Nach Platz") && !german.shows("By rank"))

            let french = try await browser.get(Self.list, headers: Self.asking("fr"))
            #expect(french.text.contains(#"<h2 id="books-heading">15 livres</h2>"#))
            #expect(french.text.contains(#"Publiée le <time datetime="2026-11-15">15 novembre 2026</time>"#))

            let lists = try await browser.get("/lists", headers: Self.asking("es"))
            #expect(lists.text.contains("<title>Listas de los más vendidos · Bestseller Wishlist</title>"))
            #expect(lists.text.contains(#"Publicada el <time datetime="2026-11-15">15 de noviembre de 2026</time>"#))
        }
    }

    /// The book page's chart is rendered once for each language it is read in, never served to
    /// a reader of another: English first, then German, then English again.
    @Test func aBooksRankChartIsInTheReadersLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.signUp("oma")
            let english = try await browser.get(Self.chartedBook, headers: Self.asking("en"))
            #expect(english.shows("Rank history") && english.shows("Charted here: "))
            let german = try await browser.get(Self.chartedBook, headers: Self.asking("de"))
            #expect(german.shows("Platzierungsverlauf") && german.shows("Hier erfasst: ") && !german.shows("Charted here"))
            #expect(german.shows("Platz auf Hardcover Fiction, Woche für Woche"))
            let again = try await browser.get(Self.chartedBook, headers: Self.asking("en"))
            #expect(again.shows("Charted here: ") && !again.shows("Hier erfasst"))
        }
    }
}
