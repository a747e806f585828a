import Foundation
import GRDB
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Gift ideas search any book the household knows and Open Library (issue 57, item 9): a book no
/// current list carries is found, and choosing Open Library's result makes the book and the idea
/// in one step; its member still never learns of it.
@Suite("Gift ideas: any book the household knows, and Open Library", .removesTemporaryDirectories)
struct IdeaSearchHTTPTests {
    typealias Fake = FakeOpenLibraryServer

    @Test func aBookOffTheCurrentListsIsFoundForAnIdea() async throws {
        let home = try await Household.make()
        let book = try await GiftIdeasHTTPTests.unwishedBook(home)
        // The book leaves the current lists; the catalog keeps it, as it keeps every week's books.
        try await home.server.database.pool.write { try $0.execute(sql: "DELETE FROM list_entry WHERE book_id = ?", arguments: [book.id]) }
        try await home.run { _, ana, _ in
            let word = try #require(book.title.split(separator: " ").max { $0.count < $1.count })
            let found = try await ana.get("/people/maya/ideas?q=\(word)")
            #expect(found.text.contains(#"name="book" value="\#(book.id)""#), "the search offers a book off the lists")
            // An author's name finds it too, words in any order.
            let byAuthor = try await ana.get("/people/maya/ideas?q=\(book.author.split(separator: " ").reversed().joined(separator: "+"))")
            #expect(byAuthor.text.contains(#"name="book" value="\#(book.id)""#))
            #expect(try await ana.get("/people/maya/ideas?q=%25_").text.contains(#"id="idea-no-results""#), "no words, no wildcards: nothing found")
            #expect(try await ana.post("/people/maya/ideas", [("book", book.id), ("note", "")]).status == .seeOther)
        }
    }

    /// Maya, who shares, and Ana, a giver, on a server whose look-up is the fake.
    static func withHousehold(_ fake: Fake, _ body: @Sendable (WishlistServer, inout TestBrowser, inout TestBrowser) async throws -> Void) async throws {
        try await fake.run { baseURL in
            let server = try await TestApp.build { config in
                config.openLibrary.baseURL = baseURL
                config.openLibrary.coversURL = baseURL
            }
            try await TestApp.run(server) { browser in
                var maya = TestBrowser(client: browser.client)
                try await maya.signUp("maya")
                try await maya.share()
                var ana = TestBrowser(client: browser.client)
                try await ana.signUp("ana")
                try await body(server, &maya, &ana)
            }
        }
    }

    @Test func choosingAnOpenLibraryResultMakesTheBookAndTheIdeaInOneStep() async throws {
        let fake = Fake(clock: .system)
        try await Self.withHousehold(fake) { server, maya, ana in
            let found = try await ana.get("/people/maya/ideas?q=Lantern")
            #expect(found.status == .ok)
            #expect(found.shows("A Lantern for Mrs. Pellinore"))
            #expect(fake.requests.contains { $0.path == "/search.json" && $0.query["q"] == "Lantern" })
            let fields = Self.openLibraryFields(found.text)
            #expect(fields.contains { $0 == ("source", "openlibrary") } && fields.contains { $0 == ("isbn", Fake.lantern.isbn13) })
            let suggested = try await ana.post("/people/maya/ideas", fields + [("note", "For the long train")])
            #expect(suggested.status == .seeOther && suggested.location == "/people/maya/ideas")
            let ideas = try await ana.get("/people/maya/ideas")
            #expect(ideas.shows("A Lantern for Mrs. Pellinore") && ideas.shows("For the long train"))
            #expect(ideas.text.contains(#"href="/books/\#(Fake.lantern.isbn13)""#), "the book has its page here")
            // Known now, the book is among the household's and no longer offered twice.
            let again = try await ana.get("/people/maya/ideas?q=Lantern")
            #expect(again.text.contains(#"name="book" value="\#(Fake.lantern.isbn13)""#))
            #expect(Self.openLibraryFields(again.text).isEmpty)
            // Her own ideas page asks Open Library nothing and adds nothing for her.
            let asked = fake.requests.count
            #expect(try await maya.get("/people/maya/ideas?q=Cartographer").location == "/wishlist")
            let own = try await maya.post("/people/maya/ideas", [
                ("source", "openlibrary"), ("title", Fake.cartographer.title), ("author", Fake.cartographer.author), ("isbn", Fake.cartographer.isbn13),
            ])
            #expect(own.status == .notFound)
            #expect(fake.requests.count == asked)
            let books = try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book WHERE id = ?", arguments: [Fake.cartographer.isbn13]) }
            #expect(books == 0)
            #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM gift_idea") } == 1)
        }
    }

    @Test func openLibraryDownLeavesTheHouseholdsBooks() async throws {
        let fake = Fake(clock: .system)
        fake.fail(with: .status(503))
        try await Self.withHousehold(fake) { server, _, ana in
            let page = try await ana.get("/people/maya/ideas?q=Lantern")
            #expect(page.status == .ok)
            #expect(page.shows("Open Library could not be reached just now: only the books the household knows are shown."))
            #expect(Self.openLibraryFields(page.text).isEmpty)
        }
    }

    /// The hidden fields of the first Open Library result's form on the ideas page.
    static func openLibraryFields(_ html: String) -> [(String, String)] {
        guard let list = html.firstMatch(of: /<ol class="idea-results" id="idea-lookup-results"(?s:.*?)<\/form>/)?.output else { return [] }
        return list.matches(of: /<input type="hidden" name="([a-z_]+)" value="([^"]*)">/).map {
            (String($0.output.1), String($0.output.2).replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&"))
        }
    }
}
