import Foundation
import GRDB
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 52: where to borrow and buy a book, from URL templates in the configuration: https only,
/// known placeholders only, each value percent-encoded, and links only (nothing is fetched).
@Suite("Borrow and buy: link templates", .removesTemporaryDirectories)
struct BookLinkTemplateTests {
    static let book = BookLinkTemplate.Facts(isbn13: "9780593331309", isbn10: "0593331303", title: "Salt & Iron: A Novel?", author: "Brené Brown")

    @Test func everyPlaceholderIsFilledPercentEncoded() throws {
        let template = try BookLinkTemplate(name: "Shop", url: "https://shop.example/search?isbn={isbn13}&old={isbn10}&q={title}&by={author}#x")
        #expect(template.link(for: Self.book)
            == "https://shop.example/search?isbn=9780593331309&old=0593331303&q=Salt%20%26%20Iron%3A%20A%20Novel%3F&by=Bren%C3%A9%20Brown#x")
        let path = try BookLinkTemplate(name: "Library", url: "https://library.example/isbn/{isbn13}")
        #expect(path.link(for: Self.book) == "https://library.example/isbn/9780593331309")
    }

    /// A value cannot lead elsewhere: every character that means something in a URL is encoded.
    @Test func aValueCannotChangeWhereTheLinkLeads() throws {
        let template = try BookLinkTemplate(name: "Shop", url: "https://shop.example/find/{title}")
        let hostile = BookLinkTemplate.Facts(isbn13: "", isbn10: "", title: "../../evil?x=1#y /\\@host\"<script>", author: "")
        #expect(template.link(for: hostile) == "https://shop.example/find/..%2F..%2Fevil%3Fx%3D1%23y%20%2F%5C%40host%22%3Cscript%3E")
    }

    @Test func aTemplateNeedingAnISBNTheBookLacksMakesNoLink() throws {
        let template = try BookLinkTemplate(name: "Old", url: "https://shop.example/{isbn10}")
        let noISBN10 = BookLinkTemplate.Facts(isbn13: "9798881042578", isbn10: "", title: "T", author: "A")
        #expect(template.link(for: noISBN10) == nil)
        #expect(BookLinkTemplates.worldCat.link(for: BookLinkTemplate.Facts(isbn13: "", isbn10: "", title: "T", author: "A")) == nil)
    }

    /// At start, in the configuration's words: one line naming the key, the entry and the problem.
    @Test(arguments: [
        (#"{"books": {"borrowLinks": [{"name": "Library", "url": "http://library.example/{isbn13}"}]}}"#,
         #"configuration: books.borrowLinks: entry 1 ("Library") must be an https URL with a host, got "http://library.example/{isbn13}""#),
        (#"{"books": {"buyLinks": [{"name": "Shop", "url": "https://shop.example/{isbn}"}]}}"#,
         #"configuration: books.buyLinks: entry 1 ("Shop") has the unknown placeholder {isbn}; the placeholders are {isbn13}, {isbn10}, {title}, {author}"#),
        (#"{"books": {"buyLinks": [{"name": "A", "url": "https://a.example/{isbn13}"}, {"name": "Shop", "url": "https://{title}.example/"}]}}"#,
         #"configuration: books.buyLinks: entry 2 ("Shop") must write its host out in full, before any placeholder, got "https://{title}.example/""#),
        (#"{"books": {"buyLinks": [{"name": "Shop", "url": "javascript:alert(1)//{isbn13}"}]}}"#,
         #"configuration: books.buyLinks: entry 1 ("Shop") must be an https URL with a host, got "javascript:alert(1)//{isbn13}""#),
        (#"{"books": {"buyLinks": [{"name": "Shop", "url": "https://shop.example/{isbn13"}]}}"#,
         #"configuration: books.buyLinks: entry 1 ("Shop") has a { without its } (or a } without its {) in "https://shop.example/{isbn13""#),
        (#"{"books": {"buyLinks": [{"name": "", "url": "https://shop.example/{isbn13}"}]}}"#,
         #"configuration: books.buyLinks: entry 1 ("") needs a "name" to show"#),
        (#"{"books": {"buyLinks": [{"url": "https://shop.example/{isbn13}"}]}}"#,
         #"configuration: books.buyLinks: entry 1: expected a list of { "name": "…", "url": "https://…" }, with nothing else"#),
        (#"{"books": {"buyLinks": "https://shop.example/{isbn13}"}}"#,
         #"configuration: books.buyLinks: expected a list of { "name": "…", "url": "https://…" }, got "https://shop.example/{isbn13}""#),
    ])
    func aBadTemplateStopsTheServerWithASentenceNamingItsKey(json: String, line: String) throws {
        let url = try temporaryDirectory().appendingPathComponent("config.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(file: url.path, fileIsRequired: true, environment: [:]) }
        #expect(error?.description == line)
    }

    @Test func theDefaultsAreAWorldCatSearchAndNoExtraShop() {
        #expect(AppConfig().books.borrowLinks.map(\.url) == ["https://search.worldcat.org/search?q=bn:{isbn13}"])
        #expect(AppConfig().books.buyLinks.isEmpty)
    }

    /// The book page: Borrow from the templates, Buy from the templates and then the NYT's own links.
    @Test func theBookPageLinksWhereToBorrowAndBuyIt() async throws {
        let shelf = try await AuthorShelf.make { config in
            config.books.borrowLinks = [try! BookLinkTemplate(name: "Our library", url: "https://library.example/search?q={title}&by={author}")]
            config.books.buyLinks = [try! BookLinkTemplate(name: "Corner Books", url: "https://corner.example/isbn/{isbn13}")]
        }
        try await TestApp.run(shelf.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let page = try await ana.get("/books/\(AuthorShelf.itEnds.id)")
            let borrow = try #require(page.text.firstMatch(of: /id="borrow-links"(?s:.*?)<\/section>/)).0
            #expect(borrow.contains(#"<a href="https://library.example/search?q=It%20Ends%20with%20Us&amp;by=Colleen%20Hoover%20and%20Tarryn%20Fisher" rel="noopener noreferrer">Our library"#))
            let buy = try #require(page.text.firstMatch(of: /id="buy-links"(?s:.*?)<\/section>/)).0
            let corner = try #require(buy.firstRange(of: #"href="https://corner.example/isbn/9781501110368""#)).lowerBound
            let nyt = try #require(buy.firstRange(of: #"href="https://bookshop.org/a/1/9781501110368""#)).lowerBound
            #expect(corner < nyt, "the configured shop first, the NYT's links kept after it")
        }
    }

    /// A giver sees where to get a member's wish, from the item's own ISBN, title and author.
    @Test func aGiverSeesWhereToBorrowOrBuyAWish() async throws {
        let shelf = try await AuthorShelf.make()
        try await TestApp.run(shelf.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let page = try await ana.get("/people/maya")
            let links = try #require(page.text.firstMatch(of: /<details class="get-links">(?s:.*?)<\/details>/)).0
            #expect(links.contains("Borrow or buy"))
            #expect(links.contains(#"href="https://search.worldcat.org/search?q=bn:9781538724736""#))
            #expect(links.contains(#"href="https://bookshop.org/a/1/9781538724736""#))
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            #expect(!(try await maya.get("/wishlist")).text.contains(#"<details class="get-links">"#), "the owner's own list has none")
        }
    }
}
