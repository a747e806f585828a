import CivilTime
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("The wishlist over HTTP", .removesTemporaryDirectories)
struct WishlistHTTPTests {
    static let sharedBook = "9798709364073"

    /// The ids of hardcover-fiction's books in rank order.
    static func fictionIDs(_ server: WishlistServer) async throws -> [String] {
        try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1.map(\.book.id)
    }

    /// What the navigation's wishlist badge says, such as "1 book"; nil when the page has none.
    static func navigationCount(_ page: TestResponse) -> String? {
        page.text.firstMatch(of: /<span class="badge" id="wishlist-count">(\d+)<span class="visually-hidden"> (\w+)<\/span><\/span>/)
            .map { "\($0.1) \($0.2)" }
    }

    @Test func addingReturnsToThePageWithAConfirmationAndMarksTheBook() async throws {
        let server = try await TestApp.build()
        let ids = try await Self.fictionIDs(server)
        try await TestApp.run(server) { browser in
            try await browser.signUp("adder")
            #expect(Self.navigationCount(try await browser.get("/lists/hardcover-fiction")) == "0 books")
            let added = try await browser.post("/wishlist", [("book", ids[2]), ("return_to", "/lists/hardcover-fiction?sort=weeks")])
            #expect(added.status == .seeOther)
            #expect(added.location == "/lists/hardcover-fiction?sort=weeks#flash")
            let flash = try #require(added.headers[values: .setCookie].first { $0.hasPrefix("wishlist_flash=") })
            let cookies = "wishlist_session=\(browser.sessionCookie!); \(flash.prefix { $0 != ";" })"
            let page = try await browser.get("/lists/hardcover-fiction?sort=weeks", headers: [.cookie: cookies])
            let title = try await CatalogStore(database: server.database).book(id: ids[2])!.title
            #expect(page.shows("Added “\(title)” to your wishlist."))
            #expect(page.headers[values: .setCookie].contains { $0.hasPrefix("wishlist_flash=;") || $0.contains("wishlist_flash=; Max-Age=0") })
            #expect(Self.navigationCount(page) == "1 book", "the count in the navigation")

            let again = try await browser.post("/wishlist", [("book", ids[2]), ("return_to", "/books/\(ids[2])")])
            let againFlash = try #require(again.headers[values: .setCookie].first { $0.hasPrefix("wishlist_flash=") })
            #expect(againFlash.hasPrefix("wishlist_flash=already-"))
        }
        let count = try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") }
        #expect(count == 1, "a second add changes nothing")
    }

    /// The card of `card` on `page`: from its `<li id=…>` to the row's end.
    static func card(_ card: String, on page: TestResponse) -> Substring? {
        guard let start = page.text.range(of: #"id="\#(card)""#) else { return nil }
        let rest = page.text[start.lowerBound...]
        return rest.range(of: "</li>").map { rest[..<$0.lowerBound] }
    }

    /// The page a browser sees after following `response`'s redirect with its flash cookie.
    static func followed(_ response: TestResponse, by browser: inout TestBrowser) async throws -> TestResponse {
        let flash = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("wishlist_flash=") })
        let page = String(try #require(response.location).prefix { $0 != "#" })
        return try await browser.get(page, headers: [.cookie: "wishlist_session=\(browser.sessionCookie!); \(flash.prefix { $0 != ";" })"])
    }

    @Test func aFormOnAListOrSearchCardReturnsToThatCardWithItsConfirmationOnIt() async throws {
        let server = try await TestApp.build()
        let ids = try await Self.fictionIDs(server)
        let catalog = CatalogStore(database: server.database)
        try await TestApp.run(server) { browser in
            try await browser.signUp("placekeeper")
            let added = try await browser.post("/wishlist", [("book", ids[11]), ("return_to", "/lists/hardcover-fiction#somewhere-else")])
            #expect(added.location == "/lists/hardcover-fiction#flash", "the page's own fragment gives way to the confirmation's")
            let page = try await Self.followed(added, by: &browser)
            let title = try await catalog.book(id: ids[11])!.title
            let card = try #require(Self.card("book-\(ids[11])", on: page))
            #expect(page.shows("Added “\(title)” to your wishlist."))
            #expect(card.contains(#"id="flash""#) && card.contains("” to your wishlist."), "on the book's own card")
            #expect(page.text.ranges(of: #"id="flash""#).count == 1, "shown on the card, not at the top as well")
            #expect(card.contains(#"id="flash" role="status" tabindex="-1""#), "the fragment can focus it, so a screen reader reads it")

            let query = String(title.prefix(6))
            let search = "/search?q=" + LocalPath.percentEncoded(query)
            let again = try await browser.post("/wishlist", [("book", ids[11]), ("return_to", search)])
            #expect(again.location == search + "#flash")
            let results = try await Self.followed(again, by: &browser)
            #expect(try #require(Self.card("book-\(ids[11])", on: results)).contains("is already on your wishlist."))
            #expect(results.text.ranges(of: #"id="flash""#).count == 1)
        }
    }

    @Test func theReturnAddressOfACardIsALocalPathOrTheWishlist() async throws {
        let server = try await TestApp.build()
        let ids = try await Self.fictionIDs(server)
        try await TestApp.run(server) { browser in
            try await browser.signUp("wanderer")
            for hostile in ["//evil.example/lists", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/lists\r\nSet-Cookie: x=1", ""] {
                let added = try await browser.post("/wishlist", [("book", ids[0]), ("return_to", hostile)])
                #expect(added.location == "/wishlist#flash", "\(hostile.debugDescription)")
            }
            let flash = try await browser.post("/wishlist", [("book", ids[1]), ("return_to", "/lists")])
            #expect(flash.headers[values: .setCookie].contains { $0.hasPrefix("wishlist_flash=added-") && $0.contains("@book-\(ids[1])") })
        }
        #expect(LocalPath.atConfirmation("/people/maya?sort=title#x") == "/people/maya?sort=title#flash")
        #expect(FlashMiddleware.cookie("added-3", card: "book-1\"><script>", secure: false).value == "added-3", "a card id is letters, digits and dashes")
        #expect(FlashMiddleware.parts(of: "added-3@book-97801").card == "book-97801")
        #expect(FlashMiddleware.parts(of: "added-3@book<x>").card == nil && FlashMiddleware.parts(of: "added-3@book<x>").code == "added-3")
    }

    /// Issue 57: the book page adds with a note and a priority in one form; a list page's row
    /// keeps its one button (docs/decisions/adding-with-a-note.md).
    @Test func theBookPageAddsWithANoteAndAPriorityInOneForm() async throws {
        let server = try await TestApp.build()
        let ids = try await Self.fictionIDs(server)
        try await TestApp.run(server) { browser in
            try await browser.signUp("noter")
            #expect(try await browser.get("/books/\(ids[0])").text.contains(#"<textarea id="add-note" name="note""#))
            #expect(!(try await browser.get("/lists/hardcover-fiction")).text.contains(#"name="note""#), "a list's rows keep one button")
            let long = String(repeating: "n", count: WishlistStore.noteMaximumLength + 1)
            for (fields, sentence) in [([("note", long)], "Notes can be up to 2,000 characters"), ([("priority", "urgent")], "Choose high, normal or low.")] {
                let refused = try await browser.post("/wishlist", [("book", ids[0]), ("return_to", "/books/\(ids[0])")] + fields)
                #expect(refused.status == .unprocessableContent)
                #expect(refused.shows(sentence))
            }
            #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") } == 0, "a refusal adds nothing")
            let added = try await browser.post("/wishlist", [
                ("book", ids[0]), ("return_to", "/books/\(ids[0])"), ("note", "The paperback, please"), ("priority", "high"),
            ])
            #expect(added.status == .seeOther)
            let oneTap = try await browser.post("/wishlist", [("book", ids[1]), ("return_to", "/lists/hardcover-fiction")])
            #expect(oneTap.status == .seeOther)
        }
        let rows = try await server.database.pool.read {
            try Row.fetchAll($0, sql: "SELECT book_id, note, priority FROM wishlist_item ORDER BY id").map { [$0["book_id"] as String, $0["note"] as String, String($0["priority"] as Int)] }
        }
        #expect(rows == [[ids[0], "The paperback, please", "1"], [ids[1], "", "0"]])
    }

    @Test func addingAnUnknownBookIs404AndStoresNothing() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("unknown")
            for book in ["9999999999999", "", "<script>", String(repeating: "9", count: 41)] {
                let response = try await browser.post("/wishlist", [("book", book), ("return_to", "/lists")])
                #expect(response.status == .notFound || response.status == .badRequest, "\(book)")
            }
        }
        #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") } == 0)
    }

    @Test func theWishlistIsNewestFirstAndSortsByTitleAndAuthor() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        let ids = try await Self.fictionIDs(server)
        try await TestApp.run(server) { browser in
            try await browser.signUp("sorter")
            for id in ids.prefix(4) {
                try await browser.post("/wishlist", [("book", id), ("return_to", "/wishlist")])
                time.advance(by: 60)
            }
            let store = WishlistStore(database: server.database)
            let user = try await server.database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user")! }
            let titles = { (sort: WishlistSort) in try await store.items(userID: user, sort: sort).map(\.title) }
            let newest = try await browser.get("/wishlist").text
            let added = try await titles(.added)
            #expect(added.count == 4)
            let positions = added.map { newest.range(of: Self.escaped($0))!.lowerBound }
            #expect(positions == positions.sorted(), "newest first")
            #expect(try await titles(.title) == added.sorted { $0.lowercased() < $1.lowercased() })
            let byTitle = try await browser.get("/wishlist?sort=title").text
            let titlePositions = try await titles(.title).map { byTitle.range(of: Self.escaped($0))!.lowerBound }
            #expect(titlePositions == titlePositions.sorted())
            #expect(try await browser.get("/wishlist?sort=price").status == .badRequest)
        }
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&#39;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    @Test func anItemKeepsItsCopyAndTakesANoteUpTo2000Characters() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("noter")
            try await browser.get("/lists")
            try await browser.post("/wishlist", [("book", Self.sharedBook), ("return_to", "/lists")])
            let path = try #require(try await browser.get("/wishlist").text.firstMatch(of: /href="(\/wishlist\/\d+)"/)?.1)
            let item = try await browser.get(String(path))
            #expect(item.status == .ok)
            #expect(item.text.contains("/lists/young-adult-hardcover"), "where the book stands now")

            let note = "Ask for it for my birthday — “soon” & <b>not</b> later 😀"
            let saved = try await browser.post(String(path), [("note", note)])
            #expect(saved.location == String(path))
            #expect(try await browser.get(String(path)).text.contains(Self.escaped(note).replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")))

            let tooLong = String(repeating: "é", count: 2001)
            let refused = try await browser.post(String(path), [("note", tooLong)])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("Notes can be up to 2,000 characters"))
            #expect(refused.text.contains(tooLong), "what the user typed is kept")
            #expect(try await browser.post(String(path), [("note", String(repeating: "x", count: 2000))]).status == .seeOther)
        }
        // The copy survives the book leaving every list.
        try await server.database.pool.write { db in try db.execute(sql: "DELETE FROM list_entry") }
        try await TestApp.run(server) { browser in
            try await browser.signIn("noter")
            let page = try await browser.get("/wishlist")
            #expect(page.status == .ok)
            #expect(page.shows("Not on a current list"))
        }
    }

    @Test func removingNeedsTheConfirmationFormAndEmptiesTheList() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("remover")
            try await browser.get("/lists")
            try await browser.post("/wishlist", [("book", Self.sharedBook), ("return_to", "/lists")])
            let path = String(try #require(try await browser.get("/wishlist").text.firstMatch(of: /href="(\/wishlist\/\d+)"/)?.1))
            let confirm = try await browser.get(path + "/remove")
            #expect(confirm.status == .ok)
            #expect(confirm.text.contains("action=\"\(path)/delete\""))
            let removed = try await browser.post(path + "/delete", [])
            #expect(removed.location == "/wishlist")
            #expect(try await browser.get(path).status == .notFound)
            #expect(try await browser.post(path + "/delete", []).status == .notFound)
            #expect(try await browser.get("/wishlist").text.contains("href=\"/lists\""), "the empty state links to the catalog")
        }
    }

    @Test func everyUserSeesOnlyTheirOwnAndOthersItemsAre404() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { alice in
            try await alice.signUp("alice")
            try await alice.get("/lists")
            try await alice.post("/wishlist", [("book", Self.sharedBook), ("return_to", "/lists")])
            let path = String(try #require(try await alice.get("/wishlist").text.firstMatch(of: /href="(\/wishlist\/\d+)"/)?.1))

            var bob = TestBrowser(client: alice.client)
            try await bob.signUp("bob")
            #expect(!(try await bob.get("/wishlist").text.contains(path)))
            #expect(try await bob.get(path).status == .notFound)
            #expect(try await bob.get(path + "/remove").status == .notFound)
            #expect(try await bob.post(path, [("note", "mine now")]).status == .notFound)
            #expect(try await bob.post(path + "/delete", []).status == .notFound)
            #expect(try await bob.get("/wishlist/999999").status == .notFound)
            #expect(try await bob.get("/wishlist/abc").status == .notFound)
            #expect(!(try await bob.get("/wishlist.csv").text.contains("Thousand")))

            let page = try await alice.get(path)
            #expect(page.status == .ok)
            #expect(!page.text.contains("mine now"), "bob's attempts changed nothing")
        }
        #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") } == 1)
    }

    @Test func exportIsGoodreadsCSVAndRoundTripsThroughImport() async throws {
        let server = try await TestApp.build()
        let ids = try await Self.fictionIDs(server)
        try await TestApp.run(server) { browser in
            try await browser.signUp("exporter")
            try await browser.get("/lists")
            for id in ids.prefix(3) { try await browser.post("/wishlist", [("book", id), ("return_to", "/lists")]) }
            let csv = try await browser.get("/wishlist.csv")
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.text.hasPrefix("Book Id,Title,Author"))
            #expect(csv.text.contains("to-read"))

            let imported = try await upload(csv.text, as: &browser)
            #expect(imported.status == .ok)
            #expect(imported.text.contains("id=\"import-summary\""), "the summary is shown")
            let count = try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") }
            #expect(count == 3, "everything was already there")
        }
    }

    @Test func importAddsCatalogMatchesAndOwnBooksAndReportsSkips() async throws {
        let server = try await TestApp.build()
        // Goodreads writes ISBNs as ="..." formulas, quoted; a row on the "read" shelf joins the
        // books read, one on another shelf is skipped.
        let csv = [
            "Book Id,Title,Author,ISBN,ISBN13,Date Added,Bookshelves,Exclusive Shelf,Private Notes",
            #"1,Anything,Someone,"=""","=""\#(Self.sharedBook)""",2026/01/02,to-read,to-read,from my shelf"#,
            "2,A Book Nobody Lists,Ann Author,,,2026/01/03,to-read,to-read,",
            "3,Already Read,Reader,,,2026/01/04,read,read,",
            "4,Half Read,Reader,,,2026/01/05,currently-reading,currently-reading,",
        ].joined(separator: "\r\n") + "\r\n"
        try await TestApp.run(server) { browser in
            try await browser.signUp("importer")
            try await browser.get("/wishlist")
            let response = try await upload(csv, as: &browser)
            #expect(response.status == .ok)
            let items = try await WishlistStore(database: server.database).items(userID: UserID(1), sort: .title)
            #expect(items.map(\.bookID) .contains(Self.sharedBook))
            let ownBook = try #require(items.first { $0.title == "A Book Nobody Lists" }?.bookID, "a book no list carries gets a book of its own")
            #expect(ownBook.hasPrefix("added-"))
            #expect(try await browser.get("/books/\(ownBook)").shows("A Book Nobody Lists"), "and a page")
            #expect(items.count == 2)
            #expect(items.first { $0.bookID == Self.sharedBook }?.note == "from my shelf")
            #expect(response.shows("Half Read"), "the skipped row is named")
            let read = try await ReadingStore(database: server.database).readings(userID: UserID(1), sort: .title)
            #expect(read.map(\.title) == ["Already Read"])
            #expect(response.text.contains(#"<li id="import-read-added"><strong>1</strong>"#))
        }
    }

    @Test("a malformed or oversized file is refused and changes nothing", arguments: [
        "Title,Author\r\n\"never closed,Someone\r\n",
        "Not,A,Goodreads,File\r\n1,2,3,4\r\n",
        "",
    ])
    func malformedImports(csv: String) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("careful")
            try await browser.get("/wishlist")
            let response = try await upload(csv, as: &browser)
            #expect(response.status == .unprocessableContent)
            #expect(
                response.text.contains("id=\"import-file-error\"><span class=\"visually-hidden\">Error: </span>"),
                "the reason is shown beside the upload field"
            )
        }
        #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") } == 0)
    }

    @Test("a row that breaks a field rule refuses the file, naming its line beside the upload field", arguments: [
        ("2027/01/01", "Knopf", "Line 3: the Date Added, 2027/01/01, is in the future; correct it and upload the file again."),
        ("2026/01/01", String(repeating: "p", count: 201), "Line 3: the Publisher field has 201 characters, more than the 200 allowed; shorten it and upload the file again."),
        ("2026/01/01", "Kno\u{1B}pf", "Line 3: the Publisher field contains a control character (U+001B), which can’t be stored; remove it and upload the file again."),
    ])
    func importRowsBreakingFieldRules(dateAdded: String, publisher: String, message: String) async throws {
        let server = try await TestApp.build(clock: ManualClock(CivilDateTime.date(year: 2026, month: 9, day: 21)).clock)
        let csv = "Title,Publisher,Date Added\r\nFine,Knopf,2026/01/01\r\nBroken,\(publisher),\(dateAdded)\r\n"
        try await TestApp.run(server) { browser in
            try await browser.signUp("strict")
            try await browser.get("/wishlist")
            let response = try await upload(csv, as: &browser)
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("id=\"import-file-error\"><span class=\"visually-hidden\">Error: </span>" + Self.escaped(message)), "beside the upload field")
        }
        #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") } == 0, "not even the fine row")
    }

    @Test func anUploadOverTheLimitIs413() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("huge")
            try await browser.get("/wishlist")
            let response = try await upload(String(repeating: "a,b\r\n", count: 4_500_000), as: &browser)
            #expect(response.status == .contentTooLarge)
        }
    }

    @Test func theDefaultListOpensAfterSignIn() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("starter")
            try await browser.get("/settings")
            #expect(try await browser.post("/settings/default-list", [("list", "audio-fiction")]).location == "/settings/lists?done=start-page#flash")
            let refused = try await browser.post("/settings/default-list", [("list", "no-such-list")])
            #expect(refused.status == .badRequest)
            #expect(refused.shows("That list isn’t one of the current best-seller lists."), "beside the menu, on the Lists page")
            #expect(refused.text.contains(#"id="default-list-form""#))
            try await browser.post("/logout", [])
            try await browser.signIn("starter")
            #expect(try await browser.get("/").location == "/lists/audio-fiction")
            try await browser.get("/settings")
            try await browser.post("/settings/default-list", [("list", "")])
            #expect(try await browser.get("/").location == "/lists")
        }
    }

    /// Posts `csv` as the multipart upload a browser sends from the import form (on a list's page, to `path` with `?list=`).
    func upload(_ csv: String, as browser: inout TestBrowser, to path: String = "/wishlist/import") async throws -> TestResponse {
        let boundary = "----WishlistTestBoundary7MA4YWxk"
        var body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n\(browser.csrfToken)\r\n"
        body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"goodreads_library_export.csv\"\r\n"
        body += "Content-Type: text/csv\r\n\r\n\(csv)\r\n--\(boundary)--\r\n"
        return try await browser.send(
            path, method: .post,
            headers: [.contentType: "multipart/form-data; boundary=\(boundary)"], body: ByteBuffer(string: body)
        )
    }
}
