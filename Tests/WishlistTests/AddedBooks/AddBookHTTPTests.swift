import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Books no list carries, typed by hand: `/books/new` with look-up off (as every test server
/// has it unless it names a fake Open Library), and the merge when a list brings the same book.
@Suite("Adding any book: by hand, and one record when a list carries it later", .removesTemporaryDirectories)
struct AddBookHTTPTests {
    static let isbn = "978-0-306-40615-7"
    static let isbn13 = "9780306406157"

    static func manual(
        title: String = "The Quiet Orchard", author: String = "Ilse Varga", isbn: String = "", link: String = "", wish: Bool = true
    ) -> [(String, String)] {
        [("title", title), ("author", author), ("isbn", isbn), ("link", link)] + (wish ? [("wish", "yes")] : [])
    }

    @Test func withLookUpOffThePageSaysSoAndOffersTypingTheBook() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            let page = try await browser.get("/books/new")
            #expect(page.status == .ok)
            #expect(page.shows("Look-up is off on this server. Type the book in below."))
            #expect(!page.text.contains(#"id="lookup-isbn-form""#), "no look-up form when there is nothing to look up with")
            #expect(page.text.contains(#"<form class="form" id="manual-entry" method="post" action="/books/new""#))
            let asked = try await browser.get("/books/new?title=orchard")
            #expect(asked.shows("Look-up is off on this server. Type the book in below."))
            #expect(asked.text.contains(#"id="title" name="title" value="orchard""#), "what was searched for is ready to be typed in")
            #expect(try await browser.get("/lists").text.contains(#"href="/books/new""#), "the navigation links it")
        }
    }

    @Test func mistakesAreShownBesideTheirFieldsWithWhatWasTypedAndNothingIsStored() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            _ = try await browser.get("/books/new")
            let refused = try await browser.post("/books/new", Self.manual(title: "", author: "  ", isbn: "978-0-306-40615-8", link: "javascript:alert(1)"))
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("There is a problem"))
            for (field, sentence) in [
                ("title", "Give the book’s title."), ("author", "Give the author, or the first of them."),
                ("isbn", "This ISBN’s last digit does not match the others: check it for a mistyped digit."),
                ("link", "A link starts with http:// or https:// and names a site (for example https://example.org/book)."),
            ] {
                let error = try #require(refused.text.firstMatch(of: try Regex(#"<p class="field-error" id="\#(field)-error">(.*?)</p>"#))?.output[1].substring)
                #expect(error.contains(sentence.replacingOccurrences(of: "'", with: "&#39;")), "\(field): \(error)")
                #expect(refused.text.contains(##"<li><a href="#\##(field)">"##), "the summary links \(field)")
            }
            #expect(refused.text.contains(#"value="978-0-306-40615-8""#), "the typed ISBN is kept to be corrected")
            let tooShort = try await browser.post("/books/new", Self.manual(isbn: "12345"))
            #expect(tooShort.status == .unprocessableContent && tooShort.shows("An ISBN is 10 or 13 digits (the last of 10 may be X), with or without hyphens."))
            let books = try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book WHERE source = 'added'") }
            #expect(books == 0)
        }
    }

    @Test func aBookTypedInGetsAPageGoesOnTheWishlistAndIsFoundAgainByItsISBN() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("reader")
            _ = try await browser.get("/books/new")
            let added = try await browser.post("/books/new", Self.manual(isbn: Self.isbn, link: "https://example.org/orchard"))
            #expect(added.location == "/books/\(Self.isbn13)", "under its ISBN-13, the id a list would give it")
            let page = try await browser.follow(added)
            #expect(page.shows("The Quiet Orchard") && page.shows("by Ilse Varga"), "an added book's author has no page to link to")
            #expect(page.shows("Added “The Quiet Orchard” to your wishlist."))
            #expect(page.shows("Added by a member here; no NYT list carries it."))
            #expect(page.text.contains(#"href="https://example.org/orchard""#))
            #expect(!page.text.contains(#"id="book-lists""#), "no lists to show")
            #expect(try await browser.get("/wishlist").shows("The Quiet Orchard"))

            let again = try await browser.post("/books/new", Self.manual(title: "Another Name", isbn: "0-306-40615-2", wish: false))
            #expect(again.location == "/books/\(Self.isbn13)", "the same ISBN, typed as ISBN-10, is the same book")
            #expect(try await browser.follow(again).shows("The book is added."), "a book a member added is added again, not announced")
            let lookedUp = try await browser.get("/books/new?isbn=" + Self.isbn13)
            #expect(!lookedUp.text.contains("is here already"), "looking an ISBN up tells nobody what the others added")
            let listedBooks = try #require(try await CatalogStore(database: server.database).list(named: "hardcover-fiction")?.1.map(\.book))
            let listed = try #require(listedBooks.first { (try? ISBN($0.id)) != nil }, "a listed book whose id is a well-formed ISBN-13")
            let listedISBN = try ISBN(listed.id)
            #expect(try await browser.get("/books/new?isbn=\(listed.id)").text.contains(
                #"A book with this ISBN is here already. <a href="/books/\#(listed.id)">"#))
            let listedAgain = try await browser.post("/books/new", Self.manual(isbn: listedISBN.isbn13, wish: false))
            #expect(listedAgain.location == "/books/\(listed.id)")
            #expect(try await browser.follow(listedAgain).shows("This book is on the NYT’s lists already, with that ISBN: here it is."))

            let withoutISBN = try await browser.post("/books/new", Self.manual(title: "Grandmother's Recipes", author: "Family", wish: false))
            let id = try #require(withoutISBN.location?.split(separator: "/").last.map(String.init))
            #expect(id.wholeMatch(of: /added-[0-9a-f]{12}/) != nil)
            #expect(try await browser.get("/books/\(id)").shows("Grandmother's Recipes"))
            let catalogGeneration = try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT value FROM catalog_generation") }
            _ = try await browser.post("/books/new", Self.manual(title: "One More", author: "Someone", wish: false))
            #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT value FROM catalog_generation") } == catalogGeneration,
                    "adding a book re-renders no cached page")
        }
    }

    @Test func whenAListCarriesTheBookItIsTheSameRecordAndItsWishesReservationsAndReadingFollow() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            _ = try await maya.get("/books/new")
            #expect(try await maya.post("/books/new", Self.manual(isbn: Self.isbn)).status == .seeOther)
            // A paperback she added by hand, whose ISBN a list's book later names among its others.
            #expect(try await maya.post("/books/new", Self.manual(title: "Paper Moons", author: "Oda Lind", isbn: "080442957X")).status == .seeOther)
            let items = try await home.server.database.pool.read {
                try Row.fetchAll($0, sql: "SELECT id, book_id FROM wishlist_item WHERE book_id IN ('9780306406157', '9780804429573') ORDER BY book_id")
            }
            let (orchardItem, moonsItem): (Int64, Int64) = (items[0]["id"], items[1]["id"])
            #expect(try await ana.reserve(orchardItem).status == .seeOther)
            #expect(try await ana.reserve(moonsItem).status == .seeOther)
            #expect(try await maya.markRead(Self.isbn13, rating: "5").status == .seeOther)

            let listed = { (id: String, title: String, others: [String]) in
                CatalogBook(
                    id: id, title: title, author: "Ilse Varga", contributor: "by Ilse Varga", publisher: "Press", description: "Now a best seller.",
                    price: nil, isbn10: "", isbn13: id, otherISBNs: others, imageURL: nil, imageWidth: 0, imageHeight: 0, buyLinks: [], readingLinks: []
                )
            }
            let edition = CatalogEdition(
                listNameEncoded: "hardcover-fiction", displayName: "Hardcover Fiction", frequency: .weekly, publishedDate: "2030-01-06",
                entries: [
                    .init(rank: 1, rankLastWeek: 0, weeksOnList: 1, book: listed(Self.isbn13, "THE QUIET ORCHARD", [])),
                    .init(rank: 2, rankLastWeek: 0, weeksOnList: 1, book: listed("9780000000996", "PAPER MOONS", ["9780804429573"])),
                ]
            )
            try await CatalogStore(database: home.server.database).store(edition, fetchedAt: Date())

            let orchard = try await maya.get("/books/\(Self.isbn13)")
            #expect(orchard.shows("#1 on Hardcover Fiction"), "one record: the added book is the listed one now")
            #expect(!orchard.shows("Added by a member here"))
            #expect(try await maya.get("/books/9780804429573").status == .notFound, "the paperback's record went into the listed book")
            let moved = try await home.server.database.pool.read {
                try String.fetchAll($0, sql: "SELECT book_id FROM wishlist_item WHERE id IN (?, ?) ORDER BY id", arguments: [orchardItem, moonsItem])
            }
            #expect(moved == [Self.isbn13, "9780000000996"])
            #expect(try await home.reservationCount() == 2, "the reservations stay on the items")
            #expect(try await ana.get("/people/maya").shows("Reserved by you"))
            #expect(try await maya.get("/reading").shows("The Quiet Orchard"))
        }
    }
}
