import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Catalog pages over HTTP, on the sample catalog", .removesTemporaryDirectories)
struct CatalogPagesTests {
    /// A book's page carries a cover file up to the limit; a larger one is linked, since the page
    /// would carry it again on every view (docs/decisions/book-page-carries-its-cover.md).
    @Test func aBookPageCarriesACoverUpToTheLimitAndLinksALargerOne() {
        let limit = BookPresenter.carriedCoverLimit
        let carried = BookPresenter.inlineCover([UInt8](repeating: 0xFF, count: limit))
        #expect(carried?.hasPrefix("data:image/jpeg;base64,") == true)
        #expect(carried.map { Data(base64Encoded: String($0.dropFirst("data:image/jpeg;base64,".count)))?.count } == limit)
        #expect(BookPresenter.inlineCover([UInt8](repeating: 0xFF, count: limit + 1)) == nil)
    }

    @Test func catalogPagesNeedASignedInUser() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            for path in ["/lists", "/lists/hardcover-fiction", "/search?q=x", "/books/DBKSMPL004417"] {
                let response = try await browser.get(path)
                #expect(response.status == .seeOther, "\(path)")
                #expect(response.location?.hasPrefix("/login?next=") == true)
            }
        }
    }

    @Test func theCatalogGroupsCurrentListsAndLabelsSampleData() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("browser")
            let page = try await browser.get("/lists")
            #expect(page.status == .ok)
            for name in ["Hardcover Fiction", "Audio Fiction", "Graphic Books and Manga"] { #expect(page.shows(name)) }
            #expect(!page.shows("Almanacs"), "a dead list is not current")
            #expect(page.text.contains("sample-data-notice"))
            let filtered = try await browser.get("/lists?q=hardcover+fic")
            #expect(filtered.shows("Hardcover Fiction"))
            #expect(!filtered.shows("Audio Fiction"))
            #expect(filtered.text.contains("value=\"hardcover fic\""))
        }
    }

    @Test func theSampleNoticeTellsAnAdminHowToSetTheKeyAndEveryoneElseInOneLine() async throws {
        let server = try await TestApp.build()
        _ = try await server.accounts.createUser(username: "keeper", password: "correct horse battery", isAdmin: true)
        try await TestApp.run(server) { browser in
            let signedOut = try await browser.get("/login")
            #expect(signedOut.text.contains("<strong>Sample data:</strong> invented books."))
            try await browser.signUp("member")
            for path in ["/lists", "/lists/hardcover-fiction", "/wishlist"] {
                let page = try await browser.get(path).text
                #expect(page.contains("<strong>Sample data:</strong> invented books.") && !page.contains("NYT_API_KEY"), "\(path)")
            }
            var admin = try await TestBrowser.signedIn("keeper", like: browser)
            for path in ["/lists", "/lists/hardcover-fiction", "/wishlist"] {
                #expect(try await admin.get(path).text.contains("Set <code>NYT_API_KEY</code> to fetch the real lists."), "\(path)")
            }
        }
    }

    @Test func favouritesToggleAndComeFirst() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("starrer")
            try await browser.get("/lists")
            let starred = try await browser.post("/lists/audio-fiction/favorite", [("return_to", "/lists?q=audio")])
            // Back to the list's card, its confirmation on it (issue 57).
            #expect(starred.location == "/lists?q=audio#flash")
            let back = try await browser.follow(starred).text
            let card = try #require(back.range(of: #"id="list-audio-fiction""#))
            #expect(back[card.upperBound...].prefix(300).contains(#"id="flash""#) && back.contains("Added to your favourites."))
            let page = try await browser.get("/lists").text
            let favourites = try #require(page.range(of: "Your favourites"))
            let audio = try #require(page.range(of: #"data-list="audio-fiction""#))
            #expect(favourites.lowerBound < audio.lowerBound)
            #expect(try await browser.post("/lists/audio-fiction/favorite", [("return_to", "//evil.example")]).location == "/lists#flash")
            #expect(!(try await browser.get("/lists").text.contains("Your favourites")))
            #expect(try await browser.post("/lists/no-such-list/favorite", []).status == .notFound)
        }
    }

    @Test func aListShowsItsBooksInRankOrderAndSortsByWeeks() async throws {
        let server = try await TestApp.build()
        let (_, books) = try #require(try await CatalogStore(database: server.database).list(named: "hardcover-fiction"))
        #expect(books.count == 15)
        try await TestApp.run(server) { browser in
            try await browser.signUp("sorter")
            let byRank = try await browser.get("/lists/hardcover-fiction").text
            let rankPositions = books.map { byRank.range(of: "/books/\($0.book.id)")!.lowerBound }
            #expect(rankPositions == rankPositions.sorted())
            #expect(byRank.contains("width=\"128\" height=\"193\""), "placeholder covers have their size set")

            let byWeeks = try await browser.get("/lists/hardcover-fiction?sort=weeks")
            let weeksOrder = books.sorted { ($0.weeksOnList, -$0.rank) > ($1.weeksOnList, -$1.rank) }
            let weekPositions = weeksOrder.map { byWeeks.text.range(of: "/books/\($0.book.id)")!.lowerBound }
            #expect(weekPositions == weekPositions.sorted())
            let cookie = try #require(byWeeks.headers[values: .setCookie].first { $0.hasPrefix("wishlist_sort_weeks=") })
            let remembered = try await browser.get(
                "/lists/hardcover-fiction",
                headers: [.cookie: "wishlist_session=\(browser.sessionCookie!); \(cookie.prefix { $0 != ";" })"]
            )
            #expect(remembered.text.range(of: "/books/\(weeksOrder[0].book.id)")!.lowerBound
                < remembered.text.range(of: "/books/\(weeksOrder[1].book.id)")!.lowerBound)
            #expect(try await browser.get("/lists/hardcover-fiction?sort=bogus").status == .badRequest)
        }
    }

    @Test func aCoverWithoutASizeIsShownFromOurServerInAJacketBoxNotReplacedByThePlaceholder() async throws {
        let server = try await TestApp.build()
        // A closed loopback port: the server's cover job must not reach beyond this machine.
        let cover = "http://127.0.0.1:9/du-prd/books/images/9780000000019.jpg"
        let book = CatalogBook(
            id: "9780000000019", title: "A Cover Without A Size", author: "Ann Author", contributor: "by Ann Author",
            publisher: "Press", description: "", price: nil, isbn10: "", isbn13: "9780000000019", otherISBNs: [],
            imageURL: cover, imageWidth: 0, imageHeight: 0, buyLinks: [], readingLinks: []
        )
        let edition = CatalogEdition(
            listNameEncoded: "hardcover-fiction", displayName: "Hardcover Fiction", frequency: .weekly, publishedDate: "2026-12-06",
            entries: [.init(rank: 1, rankLastWeek: 0, weeksOnList: 1, book: book)]
        )
        try await CatalogStore(database: server.database).store(edition, fetchedAt: Date())
        try await TestApp.run(server) { browser in
            try await browser.signUp("jacketed")
            let key = CoverKey.of(cover)
            let shown = "<img class=\"book-cover\" src=\"/covers/\(key)-128.jpg\" srcset=\"/covers/\(key)-128.jpg 128w, /covers/\(key)-384.jpg 384w\""
            let jacketBox = #"width="128" height="193""#
            let listPage = try await browser.get("/lists/hardcover-fiction").text
            #expect(listPage.contains(shown) && listPage.contains(jacketBox))
            #expect(try await browser.get("/books/\(book.id)").text.contains(shown))
            #expect(try await browser.post("/wishlist", [("book", book.id), ("return_to", "/lists")]).status == .seeOther)
            #expect(try await browser.get("/wishlist").text.contains(shown), "the wishlist's copy of the book keeps the cover too")
        }
    }

    @Test func aBookWithoutACoverCarriesThePlaceholderJacketInItsOwnPageAndLinksItInRows() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("jacketless")
            let (_, books) = try #require(try await CatalogStore(database: server.database).list(named: "hardcover-fiction"))
            let book = try #require(books.first { ($0.book.imageURL ?? "").isEmpty }?.book, "a sample book without a cover")
            let page = try await browser.get("/books/\(book.id)").text
            let inline = StaticFiles.inlineSVG(try Data(contentsOf: URL(fileURLWithPath: server.config.server.publicDirectory).appendingPathComponent("cover-placeholder.svg")))
            #expect(page.contains(#"<img class="book-cover book-cover-placeholder" src="\#(inline)" width="128" height="193" alt="">"#), "painted with the page")
            #expect(!page.contains("/static/cover-placeholder.svg"), "no request of its own for it")
            #expect(inline.hasPrefix("data:image/svg+xml,%3Csvg ") && !inline.contains("<!--") && !inline.contains("#"))
            let list = try await browser.get("/lists/hardcover-fiction").text
            #expect(list.contains(#"src="/static/cover-placeholder.svg?v="#), "rows link the file, fetched once for every row and page")
        }
    }

    @Test func signedInUsersAreToldWhenTheCatalogCouldNotBeSaved() async throws {
        let server = try await TestApp.build()
        try await server.database.pool.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse_entries BEFORE INSERT ON list_entry BEGIN SELECT RAISE(ABORT, 'entries refused by the test'); END")
        }
        #expect(await server.catalogSync.refresh().error == .notSaved)
        try await TestApp.run(server) { browser in
            try await browser.signUp("informed")
            let page = try await browser.get("/lists")
            #expect(page.shows("the catalog could not be saved to the database; retrying later."))
            #expect(!page.shows("could not read"), "the database's failure is not blamed on the NYT")
            #expect(!page.shows("entries refused by the test"), "the cause is for the log, not the page")
        }
    }

    @Test func unknownListsAndBooksAre404PagesLinkingToTheCatalog() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("lost")
            for path in ["/lists/no-such-list", "/lists/UPPER", "/books/9999999999999", "/books/bad%20id"] {
                let response = try await browser.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.text.contains("href=\"/\""))
            }
        }
    }

    @Test func aBookPageShowsItsListsAndOnlyHTTPLinks() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            let shared = try await browser.get("/books/9798709364073")
            #expect(shared.status == .ok)
            #expect(shared.text.contains("/lists/hardcover-fiction"))
            #expect(shared.text.contains("/lists/young-adult-hardcover"))
            #expect(shared.shows("Apple Books"))
            let orchard = try await browser.get("/search?q=orchard+condition").text
            let id = try #require(orchard.firstMatch(of: /\/books\/([0-9A-Z]+)/)?.1)
            let page = try await browser.get("/books/\(id)").text
            #expect(!page.lowercased().contains("javascript:"), "the sample's javascript: review link is dropped")
        }
    }

    @Test func searchFindsByAuthorIgnoringCaseAndAccentsAndShowsLists() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("seeker")
            let response = try await browser.get("/search?q=VILLASENOR")
            #expect(response.status == .ok)
            #expect(response.shows("Theo Villaseñor"))
            let empty = try await browser.get("/search?q=zzqx+nothing")
            #expect(empty.shows("zzqx nothing"))
            #expect(try await browser.get("/search?q=" + String(repeating: "a", count: 300)).status == .badRequest)
        }
    }

    @Test func htmlAndJavascriptPlantedInTheAPIComeOutInert() async throws {
        let time = ManualClock()
        let fake = FakeNYTServer(clock: time.clock)
        fake.plantPayloads()
        try await fake.run { (baseURL: String) async throws -> Void in
            let server = try await TestApp.build(clock: time.clock) { config in
                config.nyt.apiKey = FakeNYTServer.apiKey
                config.nyt.baseURL = baseURL
            }
            let report = await server.catalogSync.refresh()
            #expect(report.error == nil, "\(report.cause ?? "")")
            let firstBook = try #require(try await CatalogStore(database: server.database).list(named: "hardcover-fiction")?.1.first)
            try await TestApp.run(server) { browser in
                try await browser.signUp("target")
                for path in ["/lists/hardcover-fiction", "/books/\(firstBook.book.id)", "/search?q=script"] {
                    let page = try await browser.get(path).text
                    #expect(!page.contains("<script>"), "\(path)")
                    #expect(!page.contains("<img src=x"), "\(path)")
                    #expect(!page.lowercased().contains("javascript:"), "\(path)")
                }
                let book = try await browser.get("/books/\(firstBook.book.id)").text
                #expect(book.contains("&lt;script&gt;"), "the title is shown, as text")
                #expect(book.contains("https://example.com/buy"))
            }
        }
    }
}
