import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
@testable import WishlistLanguages
@testable import WishlistCore
@testable import WishlistLanguages
@testable import WishlistTemplates
@testable import WishlistWeb

/// The history as readers see it: rank charts, "Returning", new this week, and the Atom feed.
/// The sample catalog's eight Hardcover Fiction editions (2026-09-27 to 2026-11-15) are the data.
@Suite("History pages: rank charts, returning books, new this week, feeds", .removesTemporaryDirectories)
struct HistoryPagesTests {
    /// "Low Water on the Mississippi": #12, #13, #15, off the list on 2026-10-18, then #14, #10, #9, #10.
    static let bookWithAGap = "9798940831327"
    /// New on the 2026-11-15 edition of Hardcover Fiction.
    static let debuts = ["9798407925279", "9798454221522", "9798939702348"]

    // MARK: The chart

    @Test func theBookPageChartsItsRanksWithABreakWhereItWasOffTheList() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("historian")
            let page = try await browser.get("/books/\(Self.bookWithAGap)")
            let svg = try Self.svg(in: page)
            #expect(svg.contains(#"role="img""#))
            #expect(svg.ranges(of: "<polyline").count == 2, "one line before the week off, one after")
            #expect(svg.ranges(of: "<circle").count == 7, "a point for each week on the list")
            let summary = "60 weeks on Hardcover Fiction by the NYT’s count, most recently November 15, 2026. Charted here: 7 editions since September 27, 2026, peak #9 in 1 of them."
            #expect(page.text.contains("<desc id=\"history-hardcover-fiction-desc\">\(summary)</desc>"))
            #expect(page.text.contains("<figcaption class=\"rank-chart-summary\">\(summary)</figcaption>"))
            #expect(page.text.ranges(of: "Off the list").count == 1)
            #expect(page.text.contains(#"<a href="/lists/hardcover-fiction?date=2026-10-18">Oct 18, 2026</a></th>"#))
        }
    }

    /// The SVG for known data, byte for byte. To accept a deliberate change, delete the snapshot
    /// file and run the test once: it writes the new drawing and fails, for review in the diff.
    @Test func theChartsDrawingMatchesItsSnapshot() async throws {
        let server = try await TestApp.build()
        let svg = try await TestApp.run(server) { browser in
            try await browser.signUp("historian")
            return try Self.svg(in: try await browser.get("/books/\(Self.bookWithAGap)"))
        }
        let file = repositoryRoot.appendingPathComponent("Tests/WishlistTests/Catalog/Snapshots/rank-chart-low-water.svg")
        guard let snapshot = try? String(contentsOf: file, encoding: .utf8) else {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try svg.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("No snapshot was stored: wrote \(file.path). Review it and run the test again.")
            return
        }
        #expect(svg == snapshot)
    }

    @Test func theSummarySaysPeakWeeksAndDatesInTheListsPeriod() {
        let weekly = RankHistory(
            listNameEncoded: "hardcover-fiction", displayName: "Hardcover Fiction", frequency: .weekly,
            editions: [.init(date: "2026-03-05", rank: 3, weeksOnList: 27), .init(date: "2026-03-12", rank: 1, weeksOnList: 28),
                       .init(date: "2026-03-19", rank: nil), .init(date: "2026-03-26", rank: 1, weeksOnList: 29),
                       .init(date: "2026-04-02", rank: 1, weeksOnList: 30)]
        )
        // Issue 27: the NYT's 30 weeks, not the 4 editions stored, and the two told apart.
        #expect(RankChart(history: weekly).summary
            == "30 weeks on Hardcover Fiction by the NYT’s count, most recently April 2, 2026. Charted here: 4 editions since March 5, 2026, peak #1 in 3 of them.")
        let monthly = RankHistory(
            listNameEncoded: "audio-fiction", displayName: "Audio Fiction", frequency: .monthly,
            editions: [.init(date: "2026-10-01", rank: 7, weeksOnList: 1)]
        )
        #expect(RankChart(history: monthly).summary == "1 month on Audio Fiction by the NYT’s count, most recently October 1, 2026. Charted here: 1 edition, October 1, 2026, at #7.")
        let uncounted = RankHistory(
            listNameEncoded: "x", displayName: "X", frequency: .weekly, editions: [.init(date: "2026-10-04", rank: 2, weeksOnList: 0)]
        )
        #expect(RankChart(history: uncounted).summary == "On X most recently October 4, 2026. Charted here: 1 edition, October 4, 2026, at #2.")
        #expect(RankChart(history: monthly).deepestRank == 10)
        #expect(RankChart(history: weekly).runs.map { $0.map(\.index) } == [[0, 1], [3, 4]])
    }

    @Test func rankOneIsDrawnAtTheTopAndTheDeepestRankAtTheBottom() {
        let history = RankHistory(
            listNameEncoded: "x", displayName: "X", frequency: .weekly,
            editions: [.init(date: "2026-01-04", rank: 1), .init(date: "2026-01-11", rank: 15)]
        )
        let chart = RankChart(history: history)
        #expect(chart.y(1) == RankChart.plot.top)
        #expect(chart.y(15) == RankChart.height - RankChart.plot.bottom)
        #expect(chart.x(0) == RankChart.plot.left && chart.x(1) == RankChart.width - RankChart.plot.right)
    }

    /// A chart's sentence and dates are in the page's language (issue 53): one rendering each.
    @Test func aChartIsRenderedOncePerLanguageInThatLanguage() throws {
        let cache = RankChartCache()
        let summaries = Mutex<[String]>([])
        let render = { (chart: TemplateValue) -> TrustedHTML in
            summaries.withLock { $0.append(chart.lookup(["summary"]).text ?? "") }
            return TrustedHTML(trusted: "<figure></figure>")
        }
        let history = RankHistory(listNameEncoded: "x", displayName: "X", frequency: .weekly, editions: [.init(date: "2026-01-04", rank: 3)])
        for translations in [Translations(), Translations.pseudo, Translations()] {
            _ = cache.html(for: history, in: translations, render)
        }
        let rendered = summaries.withLock { $0 }
        #expect(rendered.count == 2 && rendered[0].contains("January 4, 2026"), "\(rendered)")
        #expect(rendered.last?.hasPrefix("[") == true && rendered.last?.contains("[Ĵáñûáŕý ~~~] 4, 2026") == true, "\(rendered)")
    }

    @Test func aChartIsRenderedOncePerHistoryAndAgainWhenAnEditionArrives() throws {
        let cache = RankChartCache(capacity: 2)
        let renders = Mutex(0)
        let render = { (_: TemplateValue) -> TrustedHTML in renders.withLock { $0 += 1 }; return TrustedHTML(trusted: "<figure></figure>") }
        var history = RankHistory(listNameEncoded: "x", displayName: "X", frequency: .weekly, editions: [.init(date: "2026-01-04", rank: 3)])
        _ = cache.html(for: history, in: Translations(), render)
        _ = cache.html(for: history, in: Translations(), render)
        #expect(renders.withLock { $0 } == 1)
        history = RankHistory(listNameEncoded: "x", displayName: "X", frequency: .weekly,
                              editions: history.editions + [.init(date: "2026-01-11", rank: 2)])
        _ = cache.html(for: history, in: Translations(), render)
        #expect(renders.withLock { $0 } == 2, "a new edition is a new history")
        _ = cache.html(for: RankHistory(listNameEncoded: "y", displayName: "Y", frequency: .weekly, editions: []), in: Translations(), render)
        #expect(cache.count == 1, "full: started again")
    }

    @Test func theHistoryQueryReadsTheBooksIndex() async throws {
        let server = try await TestApp.build()
        let plan = try await server.database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT rank FROM edition_entry WHERE book_id = ? AND list_name_encoded = ? AND published_date = ?",
                             arguments: ["b", "l", "d"]).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("edition_entry_by_book") })
        let histories = try await CatalogStore(database: server.database).rankHistory(bookID: Self.bookWithAGap)
        #expect(histories.map { $0.listNameEncoded } == ["hardcover-fiction"])
        #expect(histories.first?.editions.map { $0.rank } == [12, 13, 15, nil, 14, 10, 9, 10])
    }

    // MARK: Movement

    @Test(arguments: [
        (0, 1, nil, Movement.new),
        (0, 4, nil, .returning),
        (0, 1, EarlierAppearance(date: "2026-10-11", rank: 15), .returning),
        (0, 1, EarlierAppearance(date: "2026-10-18", rank: 9), .up(5)),
        (0, 1, EarlierAppearance(date: "2026-10-18", rank: 2), .down(2)),
        (6, 3, nil, .up(2)),
        (4, 3, nil, .same),
    ])
    func movementTrustsTheAPIUnlessItSaysZero(rankLastWeek: Int, weeksOnList: Int, earlier: EarlierAppearance?, expected: Movement) {
        let book = BookSummary(id: "b", title: "T", author: "A", description: "", imageURL: nil, imageWidth: 0, imageHeight: 0)
        let listed = ListedBook(rank: 4, rankLastWeek: rankLastWeek, weeksOnList: weeksOnList, book: book)
        #expect(Movement(listed, earlier: earlier, previousEdition: "2026-10-18") == expected)
    }

    @Test func aBookBackAfterAWeekOffIsReturningNotNew() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("historian")
            let back = try Self.row(of: Self.bookWithAGap, in: try await browser.get("/lists/hardcover-fiction?date=2026-10-25"))
            #expect(back.contains("Returning"))
            #expect(!back.contains("New this"))
            let debut = try Self.row(of: Self.debuts[0], in: try await browser.get("/lists/hardcover-fiction"))
            #expect(debut.contains("New this week"))
        }
    }

    // MARK: New this week

    @Test func newThisWeekListsTheBooksThatEnteredAFavouriteListOnTheCatalogAndTheStartPage() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("historian")
            #expect(!(try await browser.get("/lists")).text.contains(#"id="new-this-week""#), "no favourites, no section")
            try await browser.post("/lists/hardcover-fiction/favorite", [("return_to", "/lists")])
            let catalog = try await browser.get("/lists")
            let section = try Self.section("new-this-week", in: catalog)
            for id in Self.debuts { #expect(section.contains("/books/\(id)")) }
            #expect(section.ranges(of: "<li>").count == 3, "only the books not on the edition before")
            #expect(!section.contains(Self.bookWithAGap))

            #expect(!(try await browser.get("/lists/hardcover-fiction")).text.contains(#"id="new-this-week""#), "not the start page yet")
            try await browser.post("/settings/default-list", [("list", "hardcover-fiction")])
            let start = try await browser.get("/lists/hardcover-fiction")
            #expect(try Self.section("new-this-week", in: start) == section)
            #expect(!(try await browser.get("/lists/hardcover-fiction?date=2026-11-08")).text.contains(#"id="new-this-week""#), "an old edition is not the start page")
        }
    }

    // MARK: The feed

    @Test func theFeedListsNewBooksWithStableIDsAndEndsWhenItsLinkIsReset() async throws {
        let log = LogCapture()
        let server = try await WishlistServer.build(config: try TestApp.config(), logger: log.logger)
        try await TestApp.run(server) { browser in
            try await browser.signUp("historian")
            try await browser.post("/lists/hardcover-fiction/favorite", [("return_to", "/lists")])
            let made = try await browser.post("/settings/feed-link", [])
            let path = try Self.feedPath(in: made)
            #expect(!(try await browser.get("/settings/lists")).text.contains(path), "the link is shown once")

            var reader = TestBrowser(client: browser.client)
            let feed = try await reader.get(path)
            #expect(feed.status == .ok)
            #expect(feed.headers[.contentType] == "application/atom+xml; charset=utf-8")
            #expect(feed.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(feed.text.hasPrefix(#"<?xml version="1.0" encoding="utf-8"?>"# + "\n" + #"<feed xmlns="http://www.w3.org/2005/Atom">"#))
            for id in Self.debuts { #expect(feed.text.contains("/books/\(id)\"/>")) }
            #expect(feed.text.contains("<updated>2026-11-15T00:00:00Z</updated>"))
            let ids = feed.text.matches(of: /<id>(urn:uuid:[0-9a-f-]{36})<\/id>/).map { String($0.1) }
            #expect(Set(ids).count == ids.count && ids.count > 3, "a feed id and a unique id per entry")
            #expect(feed.text.contains("<summary>Back at #14 on Hardcover Fiction in the edition of October 25, 2026.</summary>"), "a returning book")
            #expect(ids == (try await reader.get(path)).text.matches(of: /<id>(urn:uuid:[0-9a-f-]{36})<\/id>/).map { String($0.1) })

            let newPath = try Self.feedPath(in: try await browser.post("/settings/feed-link", []))
            #expect(try await reader.get(path).status == .notFound)
            #expect(try await reader.get(newPath).status == .ok)
            #expect(try await browser.post("/settings/feed-link/delete", []).location == "/settings/lists?done=feed-link-revoked#flash")
            #expect(try await reader.get(newPath).status == .notFound)
            #expect(try await reader.get("/feeds/" + String(repeating: "A", count: 43) + "/favorites.atom").status == .notFound)
            #expect(try await reader.get("/feeds/short/favorites.atom").status == .notFound)

            let token = String(path.dropFirst("/feeds/".count).prefix(43))
            #expect(log.all.contains { $0.contains("GET /feeds/…/favorites.atom 200") })
            #expect(!log.all.contains { $0.contains(token) })
        }
    }

    @Test func aFeedWithoutFavouritesIsValidAndEmpty() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("historian")
            let path = try Self.feedPath(in: try await browser.post("/settings/feed-link", []))
            var reader = TestBrowser(client: browser.client)
            let feed = try await reader.get(path)
            #expect(feed.status == .ok)
            #expect(!feed.text.contains("<entry>"))
            #expect(feed.text.contains("<updated>"))
        }
    }

    @Test func feedTextIsEscapedAndEntryNamesAreUUIDs() {
        #expect(AtomFeed.escaped(#"Tom & Jerry <"best"> \#u{1}"#) == "Tom &amp; Jerry &lt;&quot;best&quot;&gt; ")
        let book = BookSummary(id: "9798407925279", title: "A & B", author: "", description: "", imageURL: nil, imageWidth: 0, imageHeight: 0)
        let entry = NewEntry(listNameEncoded: "l", displayName: "L", frequency: .weekly, publishedDate: "2026-11-15", rank: 1, isReturning: false, book: book)
        #expect(entry.uniformName.wholeMatch(of: /urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        #expect(entry.uniformName == NewEntry.uniformName(of: "edition-entry:l:2026-11-15:9798407925279"))
        let xml = AtomFeed(id: "urn:x", title: "T", subtitle: "S", origin: "http://h", selfPath: "/f", emptyUpdated: Date(timeIntervalSince1970: 0), entries: [entry], translations: Translations()).xml
        #expect(xml.contains("<title>A &amp; B</title>"))
        #expect(xml.contains("<updated>2026-11-15T00:00:00Z</updated>"))
    }

    // MARK: Helpers

    static func svg(in page: TestResponse) throws -> String {
        let start = try #require(page.text.range(of: "<svg class=\"rank-chart-svg\""))
        let end = try #require(page.text.range(of: "</svg>", range: start.upperBound..<page.text.endIndex))
        return String(page.text[start.lowerBound..<end.upperBound])
    }

    static func row(of book: String, in page: TestResponse) throws -> String {
        let start = try #require(page.text.range(of: "data-book=\"\(book)\""))
        let end = try #require(page.text.range(of: "</li>", range: start.upperBound..<page.text.endIndex))
        return String(page.text[start.lowerBound..<end.upperBound])
    }

    static func section(_ id: String, in page: TestResponse) throws -> String {
        let start = try #require(page.text.range(of: "id=\"\(id)\""))
        let end = try #require(page.text.range(of: "</section>", range: start.upperBound..<page.text.endIndex))
        return String(page.text[start.lowerBound..<end.upperBound])
    }

    static func feedPath(in page: TestResponse) throws -> String {
        let link = try #require(page.text.firstMatch(of: /id="feed-link-url" type="text" readonly value="http:\/\/[^\/"]+(\/feeds\/[A-Za-z0-9_-]{43}\/favorites\.atom)"/)?.1)
        return String(link)
    }
}
