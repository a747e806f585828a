import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// A child's lists kept by her managers from her Manage page, and downloaded one at a time
/// (issue 51), in `ChildrenHTTPTests.family()`: Mum manages Bea; Dad and Gran do not, yet.
@Suite("Children's lists over HTTP: made, edited, deleted and downloaded by her managers (issue 51)", .removesTemporaryDirectories)
struct ChildListsHTTPTests {
    /// Bea's id and her first list's, the one every account has.
    static func bea(_ server: WishlistServer) async throws -> (id: UserID, firstList: Int64) {
        try await server.database.pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT user_id, id FROM wish_list WHERE is_default AND user_id = (SELECT id FROM user WHERE username = '~bea')")!
            return (UserID(row["user_id"] as Int64), row["id"])
        }
    }

    static func birthday(name: String = "Birthday", visibility: String = "household") -> [(String, String)] {
        [("name", name), ("occasion", "birthday"), ("date", ""), ("visibility", visibility)]
    }

    /// Makes one of Bea's lists as `manager` and returns its id, read from where the form leads.
    static func makeList(_ manager: inout TestBrowser, _ fields: [(String, String)] = birthday()) async throws -> Int64 {
        let made = try await manager.post("/people/~bea/lists", fields)
        #expect(made.status == .seeOther)
        let id = try #require(made.location?.firstMatch(of: /^\/people\/~bea\/managers\?done=list-made#list-(\d+)$/)?.1)
        return Int64(id)!
    }

    /// A want of Bea's for the first book, on her list `list` alone.
    static func wantOnly(on list: Int64, _ mum: inout TestBrowser, _ server: WishlistServer) async throws -> Int64 {
        let book = try await ChildrenHTTPTests.firstBook(server)
        #expect(try await mum.post("/wishlist", [("book", book.id), ("for", "~bea")]).status == .seeOther)
        let itemID = try await server.database.pool.read {
            ItemID(try Int64.fetchOne($0, sql: "SELECT wishlist_item.id FROM wishlist_item JOIN user ON user.id = user_id WHERE username = '~bea'")!)
        }
        #expect(try await WishListStore(database: server.database).place(itemID: itemID, on: [ListID(list)], ownerID: try await bea(server).id) == .saved)
        return itemID.rawValue
    }

    static func listsOf(_ item: Int64, _ server: WishlistServer) async throws -> [Int64] {
        try await server.database.pool.read {
            try Int64.fetchAll($0, sql: "SELECT list_id FROM wish_list_item WHERE item_id = ? ORDER BY list_id", arguments: [item])
        }
    }

    @Test func aManagerMakesRenamesAndHidesAChildsListFromHerManagePage() async throws {
        try await ChildrenHTTPTests.family { _, mum, _, gran in
            let list = try await Self.makeList(&mum)
            let managing = try await mum.get("/people/~bea/managers?done=list-made")
            #expect(managing.shows("The list was made."))
            #expect(managing.text.contains(#"<a href="/people/~bea/lists/\#(list)">Birthday</a>"#))
            #expect(try await gran.get("/people/~bea/lists/\(list)").status == .ok, "the household sees her shared list")

            let refused = try await mum.post("/people/~bea/lists/\(list)", Self.birthday(name: " "))
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("Give the list a name, such as Birthday or Someday."))
            #expect(refused.text.contains(#"<details class="list-edit" open>"#), "the refused form is open beside its error")

            let saved = try await mum.post("/people/~bea/lists/\(list)", [("name", "Christmas"), ("occasion", "christmas"), ("date", ""), ("visibility", "private")])
            #expect(saved.location == "/people/~bea/managers?done=list-saved#list-\(list)")
            #expect(try await mum.get("/people/~bea/managers").text.contains("0 books · Christmas · only her managers</span>"))
            #expect(try await gran.get("/people/~bea/lists/\(list)").status == .notFound, "a private list is nobody else's to see")
            #expect(try await mum.get("/people/~bea/managers").text.contains(#"<span class="child-list-name">Christmas</span>"#), "no link to a page nobody may see")

            let badDate = try await mum.post("/people/~bea/lists", [("name", "Party"), ("occasion", "date"), ("date", "2027-02-30"), ("visibility", "household")])
            #expect(badDate.status == .unprocessableContent)
            #expect(badDate.shows("Give the day of the occasion as a date, such as 2027-03-12."))
            #expect(badDate.text.contains(#"value="Party""#), "what was typed is kept")
        }
    }

    /// Every list route answers a non-manager as the managers page does a name she does not manage.
    @Test func aNonManagerGetsTheAnswerOfAMissingChildOnEveryListRoute() async throws {
        try await ChildrenHTTPTests.family { _, mum, dad, gran in
            let list = try await Self.makeList(&mum)
            let missing = try await gran.post("/people/~nobody/lists", Self.birthday())
            #expect(missing.status == .notFound)
            for stranger in [gran, dad] {
                var stranger = stranger
                for (path, fields) in [
                    ("/people/~bea/lists", Self.birthday()), ("/people/~bea/lists/\(list)", Self.birthday(name: "Mine now")),
                    ("/people/~bea/lists/\(list)/delete", []), ("/people/mum/lists", Self.birthday()),
                ] {
                    let answer = try await stranger.post(path, fields)
                    #expect(answer.status == .notFound, "\(path)")
                    #expect(answer.shows(ChildrenController.notManaged.message), "\(path)")
                }
                let export = try await stranger.get("/people/~bea/lists/\(list)/export.csv")
                #expect(export.status == .notFound && export.shows(ChildrenController.notManaged.message))
            }
            #expect(try await mum.get("/people/~bea/managers").text.contains("0 books · Birthday</span>"), "nothing changed")
        }
    }

    @Test func herFirstListStaysAndADeletedListsBooksStayOnHerWishlist() async throws {
        try await ChildrenHTTPTests.family { server, mum, _, _ in
            let bea = try await Self.bea(server)
            let first = try await mum.post("/people/~bea/lists/\(bea.firstList)/delete", [])
            #expect(first.status == .conflict)
            #expect(first.shows(ChildrenController.defaultListStays.message))
            let list = try await Self.makeList(&mum)
            let item = try await Self.wantOnly(on: list, &mum, server)
            let deleted = try await mum.post("/people/~bea/lists/\(list)/delete", [])
            #expect(deleted.location == "/people/~bea/managers?done=list-deleted")
            #expect(try await Self.listsOf(item, server) == [bea.firstList], "the book went back to her first list")

            let other = try await Self.makeList(&mum, Self.birthday(name: "Someday"))
            #expect(try await WishListStore(database: server.database).place(
                itemID: ItemID(item), on: [ListID(other)], ownerID: bea.id) == .saved)
            #expect(try await mum.post("/people/~bea/lists/\(other)/delete", [("delete_wants", "yes")]).location == "/people/~bea/managers?done=list-deleted-wants")
            #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item WHERE id = ?", arguments: [item]) } == 0)
        }
    }

    /// Mum and Dad delete the same list at once: one deletes it, the other is told it is gone,
    /// and the book on it is on her first list, not lost.
    @Test(arguments: 1...2) func twoManagersDeletingTheSameListAtOnce(round: Int) async throws {
        try await ChildrenHTTPTests.family { server, mum, dad, _ in
            #expect(try await mum.post("/people/~bea/managers", [("action", "add"), ("username", "dad")]).status == .seeOther)
            let list = try await Self.makeList(&mum)
            let item = try await Self.wantOnly(on: list, &mum, server)
            _ = try await dad.get("/people/~bea/managers")
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for browser in [mum, dad] {
                    group.addTask {
                        var browser = browser
                        return try await browser.post("/people/~bea/lists/\(list)/delete", [])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == .seeOther }.count == 1, "one deletion wins")
            let loser = try #require(answers.first { $0.status != .seeOther })
            #expect(loser.status == .notFound)
            #expect(loser.shows(ChildrenController.listGone.message))
            #expect(try await Self.listsOf(item, server) == [try await Self.bea(server).firstList], "the book is on her first list")
            #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wish_list WHERE id = ?", arguments: [list]) } == 0)
        }
    }

    /// A child's list downloads as the Goodreads CSV `/wishlist.csv` writes, to her managers only;
    /// its bytes are the same whether the household reserved its books or not.
    @Test func aManagerDownloadsAChildsListAsGoodreadsCSV() async throws {
        try await ChildrenHTTPTests.family { server, mum, _, gran in
            let list = try await Self.makeList(&mum, Self.birthday(name: "Zoë’s birthday", visibility: "private"))
            let item = try await Self.wantOnly(on: list, &mum, server)
            let book = try await ChildrenHTTPTests.firstBook(server)
            let path = "/people/~bea/lists/\(list)/export.csv"
            let before = try await mum.get(path)
            #expect(before.status == .ok)
            #expect(before.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(before.headers[.contentDisposition] == #"attachment; filename="zoes-birthday.csv""#)
            #expect(before.text.hasPrefix(GoodreadsCSV.header.joined(separator: ",") + "\r\n"))
            #expect(before.text.contains(book.title) && before.text.contains("to-read"))
            #expect(try await mum.get("/people/~bea/lists/\(try await Self.bea(server).firstList)/export.csv").text == GoodreadsCSV.header.joined(separator: ",") + "\r\n")
            #expect(try await mum.get("/people/~bea/lists/999/export.csv").status == .notFound)

            #expect(try await mum.post("/people/~bea/lists/\(list)", Self.birthday(name: "Zoë’s birthday")).status == .seeOther)
            #expect(try await gran.reserve(item, returnTo: "/people/~bea").status == .seeOther)
            #expect(try await gran.post("/reservations/\(item)/card", [("message", "Love, Gran")]).status == .seeOther)
            let after = try await mum.get(path)
            #expect(Array(buffer: after.body) == Array(buffer: before.body), "nothing a giver planned is in it")
        }
    }

    /// Her managers move and copy her wants between her lists with the book page's form, naming
    /// her in `for`; anyone else, or a list that is not hers, gets the 404 of a want not theirs.
    @Test func aManagerPutsHerWantOnHerListsAndNoOneElseCan() async throws {
        try await ChildrenHTTPTests.family { server, mum, dad, gran in
            let birthday = try await Self.makeList(&mum)
            let first = try await Self.bea(server).firstList
            let item = try await Self.wantOnly(on: first, &mum, server)
            let both = [("list", "\(first)"), ("list", "\(birthday)"), ("for", "~bea")]
            #expect(try await gran.post("/wishlist/\(item)/lists", both).status == .notFound)
            #expect(try await dad.post("/wishlist/\(item)/lists", both).status == .notFound)
            #expect(try await mum.post("/wishlist/\(item)/lists", both.filter { $0.0 != "for" }).status == .notFound, "without `for` it would be Mum's own want")
            let mumsList = try await server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT wish_list.id FROM wish_list JOIN user ON user.id = user_id WHERE username = 'mum'")! }
            #expect(try await mum.post("/wishlist/\(item)/lists", [("list", "\(mumsList)"), ("for", "~bea")]).status == .notFound, "Mum's own list is not Bea's")
            #expect(try await Self.listsOf(item, server) == [first])
            let placed = try await mum.post("/wishlist/\(item)/lists", both)
            #expect(placed.location == "/people/~bea/managers?done=wish-placed#want-\(item)")
            #expect(try await Self.listsOf(item, server) == [first, birthday])
            let managing = try await mum.get("/people/~bea/managers?done=wish-placed")
            #expect(managing.shows("The book’s lists are saved."))
            #expect(managing.text.contains(#"id="want-\#(item)-list-\#(birthday)" name="list" value="\#(birthday)" checked>"#))
            #expect(try await mum.post("/wishlist/\(item)/lists", [("list", "\(birthday)"), ("for", "~bea")]).status == .seeOther)
            #expect(try await Self.listsOf(item, server) == [birthday], "moved off her first list")
        }
    }

    /// Her managers give one of her lists a share link, as a member does hers, for a grandparent
    /// without an account: shown once, replaced or revoked on its own; nobody else can.
    @Test func aManagerMakesAndRevokesHerListsShareLinkAndNoOneElseCan() async throws {
        try await ChildrenHTTPTests.family { server, mum, _, gran in
            let list = try await Self.makeList(&mum)
            _ = try await Self.wantOnly(on: list, &mum, server)
            let book = try await ChildrenHTTPTests.firstBook(server)
            #expect(try await gran.post("/people/~bea/lists/\(list)/share-link", []).status == .notFound)
            #expect(try await mum.post("/people/~bea/lists/999/share-link", []).shows(ChildrenController.listGone.message))
            let made = try await mum.post("/people/~bea/lists/\(list)/share-link", [])
            #expect(made.status == .ok && made.shows("Copy it now: it is shown only this once."))
            let path = String(try #require(made.text.firstMatch(of: /id="share-link-url-\d+" type="text" readonly value="http:\/\/[^\/"]+(\/shared\/[A-Za-z0-9_-]{43})"/)?.1))
            var guest = TestBrowser(client: mum.client)
            let page = try await guest.get(path)
            #expect(page.status == .ok && page.shows(book.title))
            let managing = try await mum.get("/people/~bea/managers")
            #expect(managing.shows("Its link has worked since") && !managing.text.contains(path), "shown once, then only its date")

            #expect(try await gran.post("/people/~bea/lists/\(list)/share-link/delete", []).status == .notFound)
            #expect(try await guest.get(path).status == .ok)
            let revoked = try await mum.post("/people/~bea/lists/\(list)/share-link/delete", [])
            #expect(revoked.location == "/people/~bea/managers?done=link-revoked#list-\(list)")
            #expect(try await guest.get(path).status == .notFound)
        }
    }
}
