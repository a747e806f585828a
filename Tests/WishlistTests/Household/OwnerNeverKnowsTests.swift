import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// The rule gift registries are loved for: nothing the owner can see changes when their books
/// are reserved, bought or given a card. Every route the owner can reach is answered once before
/// and once after the others do all of that, and the answers must be the same bytes.
@Suite("Household: the owner never knows", .removesTemporaryDirectories)
struct OwnerNeverKnowsTests {
    /// What the owner receives, minus what varies between two requests anyway: the date header,
    /// and the order of a cookie's attributes, which Hummingbird writes in no fixed order.
    struct Answer: Equatable, CustomStringConvertible {
        let status: HTTPResponse.Status
        let headers: [String]
        let body: String

        init(_ response: TestResponse) {
            status = response.status
            headers = response.headers.filter { $0.name != .date }.map { field in
                let value = field.name == .setCookie ? field.value.components(separatedBy: "; ").sorted().joined(separator: "; ") : field.value
                return "\(field.name): \(value)"
            }.sorted()
            body = response.text
        }

        /// The answer with `body` in place of its own, and without the length, which the body says.
        init(_ response: TestResponse, body: String) {
            status = response.status
            headers = Answer(response).headers.filter { !$0.lowercased().hasPrefix("content-length:") }
            self.body = body
        }

        var description: String { "\(status) \(headers) \(body.prefix(200))" }
    }

    /// A book no list carries, which a giver adds by hand for an idea.
    static let surpriseISBN = "9780804429573"

    /// The owner's every page and form answer, in one fixed order.
    static func ownerView(_ maya: inout TestBrowser, home: Household, bookID: String, apiToken: String) async throws -> [String: Answer] {
        let item = home.itemIDs[0]
        var answers: [String: Answer] = [:]
        let pages = [
            "/", "/wishlist", "/wishlist?sort=priority", "/wishlist?sort=title", "/wishlist?sort=author", "/wishlist?sort=title&page=2",
            "/wishlist/\(item)", "/wishlist/\(item)/remove", "/wishlist/\(item)/remove?return_to=%2Fwishlist%3Fsort%3Dtitle", "/wishlist.csv", "/settings", "/people", "/people/maya",
            "/reservations", "/lists", "/lists/hardcover-fiction", "/books/\(bookID)", "/books/\(bookID)?givers=all", "/search?q=the",
            "/reading", "/wishlist/received", "/settings/profile", "/lists/hardcover-fiction?sort=wanted", "/people/maya/ideas",
            "/books/new", "/books/new?isbn=\(surpriseISBN)", "/books/new?title=surprise",
            "/settings/lists", "/settings/sharing", "/settings/password", "/settings/sign-in", "/settings/data",
            // Her lists (issue 51): the book is on her default list and on list 4, her birthday list.
            "/wishlist?list=1", "/wishlist?list=4", "/wishlist?list=4&sort=priority", "/wishlist/lists/new", "/wishlist/lists/1", "/wishlist/lists/4",
            "/wishlist/lists/1/export.csv", "/wishlist/lists/4/export.csv",
        ]
        for path in pages {
            answers["GET " + path] = Answer(try await maya.get(path))
        }
        let forms: [(String, [(String, String)])] = [
            ("/wishlist/\(item)", [("note", "Hardback, please"), ("priority", "high")]),
            ("/wishlist/\(item)", [("note", String(repeating: "x", count: 2001)), ("priority", "high")]),
            ("/wishlist/\(item)", [("note", ""), ("priority", "urgent")]),
            ("/wishlist", [("book", bookID), ("return_to", "/wishlist")]),
            ("/reservations", [("item", "\(item)")]),
            ("/reservations/\(item)/delete", []),
            ("/reservations/\(item)/bought", []),
            ("/reservations/\(item)/bought/delete", []),
            ("/reservations/\(item)/card", [("message", "From me to me")]),
            ("/people/maya/ideas", [("book", bookID), ("note", "for me")]),
            ("/people/maya/ideas/1/reserve", []),
            ("/settings/sharing", [("sharing", "household")]),
            ("/wishlist/\(item)/lists", [("list", "1"), ("list", "4")]),
            ("/wishlist/lists/4", [("name", "Birthday"), ("occasion", "birthday"), ("date", ""), ("visibility", "household")]),
            ("/wishlist/lists/4", [("name", ""), ("occasion", "birthday"), ("date", ""), ("visibility", "household")]),
            ("/wishlist/lists/1/delete", []),
        ]
        for (path, fields) in forms {
            answers["POST \(path) \(fields.map(\.0))\(fields.first?.1.prefix(8) ?? "")"] = Answer(try await maya.post(path, fields))
        }
        // Her API answers too (issue 54): her wants, her lists, and her own name as a giver would ask.
        let api: [(String, HTTPRequest.Method, String?)] = [
            ("/api/v1/wants", .get, nil), ("/api/v1/wants/\(item)", .get, nil), ("/api/v1/lists", .get, nil), ("/api/v1/people", .get, nil),
            ("/api/v1/people/maya", .get, nil), ("/api/v1/people/maya/wants", .get, nil), ("/api/v1/people/maya/wants?list=4", .get, nil),
            ("/api/v1/catalog/books/\(bookID)", .get, nil), ("/api/v1/wants/\(item)", .patch, #"{"note": "Hardback, please"}"#),
            ("/api/v1/wants", .post, #"{"book_id": "\#(bookID)"}"#), ("/api/v1/reservations", .get, nil),
            ("/api/v1/reservations", .post, #"{"want_id": \#(item)}"#), ("/api/v1/reservations/\(item)", .delete, nil),
        ]
        for (path, method, json) in api {
            answers["API \(method) \(path)"] = Answer(try await APITokensHTTPTests.api(maya, path, apiToken, method: method, json: json))
        }
        return answers
    }

    @Test func everyOwnerFacingAnswerIsTheSameWithAndWithoutReservations() async throws {
        let time = ManualClock()
        let home = try await Household.make(clock: time.clock)
        let bookID = try await home.server.database.pool.read {
            try String.fetchOne($0, sql: "SELECT book_id FROM wishlist_item WHERE id = ?", arguments: [home.itemIDs[0]])!
        }
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            try await maya.share()
            // Ben wants her book too (issue 57): her page of it names him, with Reserve beside him,
            // before and after her own want of it is reserved, and it never names her.
            var benFirst = try await TestBrowser.signedIn("ben", like: browser)
            try await benFirst.share()
            #expect(try await benFirst.post("/wishlist", [("book", bookID), ("return_to", "/wishlist")]).status == .seeOther)
            #expect(try await WishListsHTTPTests.makeList(&maya, "Birthday", occasion: "birthday") == 4)
            let token = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            // Once to let the forms make their changes, then again to record the answers.
            _ = try await Self.ownerView(&maya, home: home, bookID: bookID, apiToken: token)
            let before = try await Self.ownerView(&maya, home: home, bookID: bookID, apiToken: token)
            #expect(before["GET /books/\(bookID)"]?.body.contains(#"<a href="/people/ben">ben</a>"#) == true)

            var ana = try await TestBrowser.signedIn("ana", like: browser)
            var ben = try await TestBrowser.signedIn("ben", like: browser)
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            #expect(try await ana.reserve(home.itemIDs[1]).status == .seeOther)
            #expect(try await ben.reserve(home.itemIDs[2]).status == .seeOther)
            #expect(try await home.reservationCount() == 3)
            // And the rest of the cycle a giver goes through before the book arrives.
            #expect(try await ana.post("/reservations/\(home.itemIDs[0])/bought", []).status == .seeOther)
            #expect(try await ana.post("/reservations/\(home.itemIDs[0])/card", [("message", "Love, Ana")]).status == .seeOther)
            #expect(try await ben.post("/reservations/\(home.itemIDs[2])/card", [("message", "From Ben")]).status == .seeOther)
            // And an idea for her, reserved.
            let idea = try await GiftIdeasHTTPTests.unwishedBook(home)
            #expect(try await ana.post("/people/maya/ideas", [("book", idea.id), ("note", "She'd love it")]).status == .seeOther)
            #expect(try await ben.post("/people/maya/ideas/1/reserve", []).status == .seeOther)
            // And a book no list carries, added by hand for her, suggested and reserved: its page
            // and its ISBN are the household's, but nothing on her pages changes.
            _ = try await ana.get("/books/new")
            let added = try await ana.post("/books/new", [("title", "A Surprise"), ("author", "Someone"), ("isbn", Self.surpriseISBN)])
            #expect(added.location == "/books/\(Self.surpriseISBN)")
            #expect(try await ana.post("/people/maya/ideas", [("book", Self.surpriseISBN), ("note", "")]).status == .seeOther)
            #expect(try await ben.post("/people/maya/ideas/2/reserve", []).status == .seeOther)

            let after = try await Self.ownerView(&maya, home: home, bookID: bookID, apiToken: token)
            #expect(before.keys.sorted() == after.keys.sorted())
            for (route, answer) in before {
                #expect(after[route] == answer, "\(route) differs once its books are reserved")
            }
            // The reservations are there for the others all along.
            #expect((try await ben.get("/people/maya")).shows("Bought by ana"))

            // Removing a reserved book answers as removing one nobody reserved.
            let unreservedRemoval = Answer(try await ben.post("/wishlist/\(home.itemIDs[0])/delete", []))
            #expect(unreservedRemoval.status == .notFound, "Ben cannot remove Maya's book")
            _ = try await ana.post("/reservations/\(home.itemIDs[1])/delete", [])
            let freeRemoval = Answer(try await maya.post("/wishlist/\(home.itemIDs[1])/delete", []))
            let reservedRemoval = Answer(try await maya.post("/wishlist/\(home.itemIDs[2])/delete", []))
            #expect(freeRemoval == reservedRemoval)
        }
    }

    /// "I got it" shows her the cards, by design; nothing after it may tell her whether anyone
    /// had reserved, bought or written for the book (issue 50). The same household twice, her
    /// same steps in each (two books received, wished for again, received again), the givers
    /// acting in one only: every answer is the same bytes but the cards on the received page.
    @Test func receivingAndWishingAgainAnswerAlikeWhateverTheGiversDid() async throws {
        let quiet = try await Self.receiveAndWishAgain(giversAct: false)
        let busy = try await Self.receiveAndWishAgain(giversAct: true)
        #expect(quiet.keys.sorted() == busy.keys.sorted())
        for (route, answer) in quiet {
            #expect(busy[route] == answer, "\(route) differs when the givers had acted: \(answer.body.firstDifference(busy[route]?.body ?? ""))")
        }
    }

    /// Her answers in a new household, with the CSRF token (each server makes its own), the
    /// received page's cards and the runs of white space taken out.
    static func receiveAndWishAgain(giversAct: Bool) async throws -> [String: Answer] {
        let home = try await Household.make(clock: ManualClock().clock)
        let items = Array(home.itemIDs.prefix(2))
        return try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            try await maya.share()
            if giversAct {
                var ana = try await TestBrowser.signedIn("ana", like: browser)
                var ben = try await TestBrowser.signedIn("ben", like: browser)
                #expect(try await ana.reserve(items[0]).status == .seeOther)
                #expect(try await ana.post("/reservations/\(items[0])/bought", []).status == .seeOther)
                #expect(try await ana.post("/reservations/\(items[0])/card", [("message", "Love, Ana")]).status == .seeOther)
                #expect(try await ben.reserve(items[1]).status == .seeOther)
            }
            var answers: [String: Answer] = [:]
            func record(_ key: String, _ response: TestResponse) {
                // The cards go with the blank lines their loop leaves, so the spacing goes too.
                let body = response.text.replacing(/name="csrf_token" value="[^"]+"/, with: "name=\"csrf_token\"")
                    .replacing(/<figure class="gift-card">.*?<\/figure>/.dotMatchesNewlines(), with: "").replacing(/\s+/, with: " ")
                answers[key] = Answer(response, body: body)
            }
            func herPages(_ round: String) async throws {
                let wishes = try await home.server.database.pool.read { try Int64.fetchAll($0, sql: "SELECT id FROM wishlist_item ORDER BY id") }
                for path in ["/", "/wishlist", "/wishlist?sort=priority", "/wishlist/received", "/wishlist.csv", "/reservations", "/people/maya", "/settings/data"]
                    + wishes.map({ "/wishlist/\($0)" }) {
                    record("\(round) GET \(path)", try await maya.get(path))
                }
            }
            // Two of her books, then two of her wishes after that (one a book wished for again).
            for round in ["first", "second"] {
                var received = items
                if round == "second" {
                    received = try await home.server.database.pool.read { try Int64.fetchAll($0, sql: "SELECT id FROM wishlist_item ORDER BY id DESC LIMIT 2") }
                }
                for item in received {
                    record("\(round) POST received \(item)", try await maya.post("/wishlist/\(item)/received", []))
                }
                try await herPages(round + " received")
                for item in received {
                    record("\(round) POST wish again \(item)", try await maya.post("/wishlist/received/\(item)/restore", []))
                    record("\(round) POST wish again twice \(item)", try await maya.post("/wishlist/received/\(item)/restore", []))
                }
                try await herPages(round + " wished again")
            }
            return answers
        }
    }

    /// A child's profile handed over (issue 51): from her first page on, nothing tells her what
    /// the household reserved, bought or wrote for her while she was a child, nor after. The same
    /// household twice, the givers acting in one only; then, once she is a member, a giver's
    /// reservation does not move the generation her own pages are kept under.
    @Test func aHandedOverChildsPagesAreTheSameWhateverWasReservedForHer() async throws {
        let quiet = try await Self.handedOverChild(giversAct: false)
        let busy = try await Self.handedOverChild(giversAct: true)
        #expect(quiet.keys.sorted() == busy.keys.sorted())
        for (route, answer) in quiet {
            #expect(busy[route] == answer, "\(route) differs when the givers had acted: \(answer.body.firstDifference(busy[route]?.body ?? ""))")
        }
    }

    static func handedOverChild(giversAct: Bool) async throws -> [String: Answer] {
        let home = try await Household.make(clock: ManualClock().clock)
        let books = try await home.bookIDs()
        return try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            try await maya.share()
            #expect(try await maya.post("/people/children", [("name", "Bea")]).location == "/people/~bea")
            for book in books.prefix(2) {
                #expect(try await maya.post("/wishlist", [("book", book), ("for", "~bea")]).status == .seeOther)
            }
            let wishes = try await home.server.database.pool.read {
                try Int64.fetchAll($0, sql: "SELECT wishlist_item.id FROM wishlist_item JOIN user ON user.id = user_id WHERE username = '~bea' ORDER BY wishlist_item.id")
            }
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            var ben = try await TestBrowser.signedIn("ben", like: browser)
            if giversAct {
                #expect(try await ana.reserve(wishes[0], returnTo: "/people/~bea").status == .seeOther)
                #expect(try await ana.post("/reservations/\(wishes[0])/bought", []).status == .seeOther)
                #expect(try await ana.post("/reservations/\(wishes[0])/card", [("message", "Love, Ana")]).status == .seeOther)
                #expect(try await ben.reserve(wishes[1], returnTo: "/people/~bea").status == .seeOther)
            }
            let link = try await ChildrenHTTPTests.handOverLink(&maya)
            var bea = TestBrowser(client: browser.client)
            #expect(try await ChildrenHTTPTests.takeOver(&bea, link).location == "/wishlist")
            var answers: [String: Answer] = [:]
            let firstList = try await ChildListsHTTPTests.bea(home.server).firstList
            for path in ["/", "/wishlist", "/wishlist?sort=priority", "/wishlist/received", "/wishlist.csv", "/reservations", "/people", "/settings/data"]
                + wishes.map({ "/wishlist/\($0)" }) + ["/wishlist/lists/\(firstList)/export.csv"] {
                let response = try await bea.get(path)
                answers["GET \(path)"] = Answer(response, body: response.text.replacing(/name="csrf_token" value="[^"]+"/, with: "name=\"csrf_token\""))
            }
            // A member now: a reservation made for her grows nothing her own pages are kept under.
            let beaID = try await home.server.database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user WHERE username = '~bea'")! }
            let generation = { try await home.server.database.pageRead { try $0.wishlist.wishesGeneration(ownerID: beaID) } }
            let before = try await generation()
            _ = try await ben.post("/reservations/\(wishes[1])/delete", [])
            #expect(try await ben.reserve(wishes[1], returnTo: "/people/~bea").status == .seeOther)
            #expect(try await generation() == before)
            return answers
        }
    }
}

private extension String {
    /// Where `other` first departs from this text, for a failure's message.
    func firstDifference(_ other: String) -> String {
        let common = zip(self, other).prefix { $0 == $1 }.count
        return "“\(dropFirst(max(0, common - 60)).prefix(160))” became “\(other.dropFirst(max(0, common - 60)).prefix(160))”"
    }
}
