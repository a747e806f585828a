import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistLanguages
@testable import WishlistWeb

/// A server with a list of its own, "Author Test", in two editions: on 2026-11-08 Colleen
/// Hoover's "Verity" at #2; on 2026-11-22 her "It Ends with Us" (with Tarryn Fisher) new at #1
/// and "Storm Watch" by C.J. Box at #2, "Verity" gone. Maya, who shares, and Carol, who does
/// not, have read "It Ends with Us"; Ana looks.
struct AuthorShelf {
    static let list = "author-test"
    let server: WishlistServer

    static func book(_ id: String, _ title: String, author: String, contributor: String) -> CatalogBook {
        CatalogBook(
            id: id, title: title, author: author, contributor: contributor, publisher: "Atria", description: "A novel.", price: nil,
            isbn10: "", isbn13: id, otherISBNs: [], imageURL: nil, imageWidth: 0, imageHeight: 0,
            buyLinks: [CatalogBook.Link(name: "Bookshop", url: "https://bookshop.org/a/1/\(id)")], readingLinks: []
        )
    }

    static let verity = book("9781538724736", "Verity", author: "Colleen Hoover", contributor: "by Colleen Hoover")
    static let itEnds = book("9781501110368", "It Ends with Us", author: "Colleen Hoover and Tarryn Fisher", contributor: "by Colleen Hoover and Tarryn Fisher")
    static let stormWatch = book("9780593331309", "Storm Watch", author: "C.J. Box", contributor: "by C.J. Box")

    static func edition(_ date: String, _ books: [CatalogBook]) -> CatalogEdition {
        CatalogEdition(
            listNameEncoded: list, displayName: "Author Test", frequency: .weekly, publishedDate: date,
            entries: books.enumerated().map { CatalogEdition.Entry(rank: $0.offset + 1, rankLastWeek: 0, weeksOnList: 1, book: $0.element) }
        )
    }

    static func make(_ adjust: (inout AppConfig) -> Void = { _ in }) async throws -> AuthorShelf {
        let server = try await TestApp.build(adjust)
        let catalog = CatalogStore(database: server.database)
        try await catalog.store(edition("2026-11-08", [stormWatch, verity]), fetchedAt: Date())
        try await catalog.store(edition("2026-11-22", [itEnds, stormWatch]), previousDate: "2026-11-08", fetchedAt: Date())
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            try await browser.share()
            #expect(try await browser.markRead(itEnds.id, rating: "4").status == .seeOther)
            #expect(try await browser.post("/wishlist", [("book", verity.id), ("return_to", "/wishlist")]).status == .seeOther)
            var carol = TestBrowser(client: browser.client)
            try await carol.signUp("carol")
            #expect(try await carol.markRead(itEnds.id, rating: "1").status == .seeOther)
            #expect(try await carol.post("/wishlist", [("book", verity.id), ("return_to", "/wishlist")]).status == .seeOther)
            var ana = TestBrowser(client: browser.client)
            try await ana.signUp("ana")
        }
        return AuthorShelf(server: server)
    }
}

@Suite("Authors: their page, following, and what is new from them, over HTTP", .removesTemporaryDirectories)
struct AuthorsHTTPTests {
    @Test func anAuthorsPageShowsTheirBooksNowAndEarlierAndWhatTheHouseholdWhoSharesMadeOfThem() async throws {
        let shelf = try await AuthorShelf.make()
        try await TestApp.run(shelf.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let page = try await ana.get("/authors/colleen-hoover")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"<h1 id="page-title">Colleen Hoover</h1>"#))
            let current = try #require(page.text.firstRange(of: #"id="author-current""#)).lowerBound
            let earlier = try #require(page.text.firstRange(of: #"id="author-earlier""#)).lowerBound
            let itEnds = try #require(page.text.firstRange(of: "It Ends with Us")).lowerBound
            let verity = try #require(page.text.firstRange(of: "Verity")).lowerBound
            #expect(current < itEnds && itEnds < earlier && earlier < verity, "the book on a list now first, the one in the history after")
            #expect(page.text.contains("Last on a list November 8, 2026, at best #2."))
            #expect(page.text.contains(#"Read here by <a href="/people/maya">maya</a>"#), "a member who shares is named with her reading")
            #expect(!page.text.contains("carol"), "one who does not share is never named")
            #expect(page.text.contains("1 here wants it"), "Maya's wish is counted, Carol's not")
            #expect(!page.text.contains("Storm Watch"), "another author's book is not here")
            // Any spelling of the name finds the same page; an author nobody wrote is not found.
            #expect(try await ana.get("/authors/COLLEEN%20HOOVER").text.contains(#"<h1 id="page-title">Colleen Hoover</h1>"#))
            #expect(try await ana.get("/authors/tarryn-fisher").text.contains("It Ends with Us"))
            #expect(try await ana.get("/authors/nobody-at-all").status == .notFound)
            #expect(try await ana.get("/authors/%FF%FE").status == .notFound)
        }
    }

    @Test func listRowsAndBookPagesLinkEachAuthorToTheirPage() async throws {
        let shelf = try await AuthorShelf.make()
        try await TestApp.run(shelf.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let list = try await ana.get("/lists/\(AuthorShelf.list)")
            #expect(list.text.contains(#"by <a class="author-link" href="/authors/colleen-hoover">Colleen Hoover</a> and <a class="author-link" href="/authors/tarryn-fisher">Tarryn Fisher</a>"#))
            #expect(list.text.contains(#"<a class="author-link" href="/authors/c-j-box">C.J. Box</a>"#))
            let book = try await ana.get("/books/\(AuthorShelf.itEnds.id)")
            #expect(book.text.contains(#"by <a class="author-link" href="/authors/colleen-hoover">Colleen Hoover</a> and <a class="author-link" href="/authors/tarryn-fisher">Tarryn Fisher</a>"#))
        }
    }

    @Test func followingPutsTheirNewBooksOnTheListsPageAndUnfollowingTakesThemOff() async throws {
        let shelf = try await AuthorShelf.make()
        try await TestApp.run(shelf.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            #expect(!(try await ana.get("/lists")).text.contains("New from authors you follow"))
            let followed = try await ana.post("/authors/tarryn-fisher/follow", [])
            #expect(followed.status == .seeOther)
            #expect(followed.location == "/authors/tarryn-fisher?done=followed")
            let page = try await ana.get(followed.location!)
            #expect(page.text.contains("Stop following"))
            #expect(page.text.contains("You follow this author now"))
            #expect(try await ana.get("/settings/lists").text.contains(#"Authors you follow: <a href="/authors/tarryn-fisher">Tarryn Fisher</a>."#))
            let lists = try await ana.get("/lists")
            let panel = try #require(lists.text.firstMatch(of: /id="new-from-authors"(?s:.*?)<\/section>/)).0
            #expect(panel.contains("It Ends with Us</a> by <a href=\"/authors/tarryn-fisher\">Tarryn Fisher</a>, new at #1 on"))
            #expect(!panel.contains("Verity"), "a book that left the list is no news")
            #expect(!panel.contains("Storm Watch"), "nor one by someone she does not follow")
            // C.J. Box's book was on the edition before too: following him adds no news.
            _ = try await ana.post("/authors/c-j-box/follow", [])
            let withBox = try #require(try await ana.get("/lists").text.firstMatch(of: /id="new-from-authors"(?s:.*?)<\/section>/)).0
            #expect(withBox.contains("It Ends with Us") && !withBox.contains("Storm Watch"))
            _ = try await ana.post("/authors/c-j-box/follow", [])
            // Only Ana follows: the others' lists pages say nothing.
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            #expect(!(try await maya.get("/lists")).text.contains("New from authors you follow"))
            #expect(try await ana.post("/authors/tarryn-fisher/follow", []).location == "/authors/tarryn-fisher?done=unfollowed")
            #expect(!(try await ana.get("/lists")).text.contains("New from authors you follow"))
            #expect(try await ana.post("/authors/nobody-at-all/follow", []).status == .notFound)
            let rows = try await shelf.server.database.pool.read { try Row.fetchAll($0, sql: "SELECT * FROM followed_author") }
            #expect(rows.isEmpty)
        }
    }

    @Test func theAuthorsFeedCarriesTheNewBooksOfTheAuthorsFollowed() async throws {
        let shelf = try await AuthorShelf.make()
        try await TestApp.run(shelf.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            _ = try await ana.post("/authors/colleen-hoover/follow", [])
            let settings = try await ana.post("/settings/feed-link", [])
            let link = try #require(settings.text.firstMatch(of: /id="authors-feed-link-url" type="text" readonly value="([^"]+)"/)?.1)
            let path = String(link.dropFirst("http://localhost:8080".count))
            #expect(path.hasSuffix("/authors.atom"))
            let feed = try await browser.get(path, headers: [.cookie: ""])
            #expect(feed.status == .ok)
            #expect(feed.headers[.contentType] == "application/atom+xml; charset=utf-8")
            #expect(feed.text.contains("<title>New from the authors ana follows</title>"))
            #expect(feed.text.contains("<title>It Ends with Us by Colleen Hoover and Tarryn Fisher</title>"))
            #expect(!feed.text.contains("Storm Watch"))
            #expect(try await browser.get(path.replacingOccurrences(of: "/feeds/", with: "/feeds/x"), headers: [.cookie: ""]).status == .notFound)
        }
    }

    @Test func theWeeklyDigestSaysWhatIsNewFromTheAuthorsFollowed() async throws {
        let shelf = try await AuthorShelf.make()
        let ana = try await shelf.server.database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user WHERE username = 'ana'")! }
        _ = try await AuthorStore(database: shelf.server.database).toggleFollowing(userID: ana, key: "colleen hoover", name: "Colleen Hoover", at: Date())
        let news = try await shelf.server.database.pool.read { db in
            try DigestNews.read(userID: ana, editionsFetchedAfter: StoredDate(Date().addingTimeInterval(-86_400)), today: (2026, 11, 23), db)
        }
        // Both editions came this week: "Verity" entered the first, "It Ends with Us" the second.
        #expect(news.newFromAuthors.map(\.title) == ["Verity", "It Ends with Us"])
        let text = DigestText.content(news, name: "ana", unsubscribe: "https://example.org/u", site: "https://example.org", paths: SitePath.mail, in: Translations()).text
        #expect(text.contains("New from authors you follow\n---------------------------\n- Verity by Colleen Hoover: #2 on Author Test\n"))
        #expect(text.contains("- It Ends with Us by Colleen Hoover and Tarryn Fisher: #1 on Author Test\n"))
    }
}
