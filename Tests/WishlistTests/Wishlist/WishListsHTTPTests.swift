import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 51: a member's lists, their forms and the wants on them, and a private list's wants kept
/// from everyone else. In `Household.make()`'s server Maya, Ana and Ben have the default lists
/// 1, 2 and 3, and Maya's three wants are on hers.
@Suite("Occasions: several lists per person over HTTP", .removesTemporaryDirectories)
struct WishListsHTTPTests {
    static func lists(of item: Int64, _ server: WishlistServer) async throws -> [Int64] {
        try await server.database.pool.read {
            try Int64.fetchAll($0, sql: "SELECT list_id FROM wish_list_item WHERE item_id = ? ORDER BY list_id", arguments: [item])
        }
    }

    /// Makes a list and returns its id, read from where the form leads.
    static func makeList(
        _ browser: inout TestBrowser, _ name: String, occasion: String = "none", date: String = "", visibility: String = "household"
    ) async throws -> Int64 {
        let made = try await browser.post("/wishlist/lists", [("name", name), ("occasion", occasion), ("date", date), ("visibility", visibility)])
        #expect(made.status == .seeOther)
        let id = try #require(made.location?.firstMatch(of: /^\/wishlist\?list=(\d+)$/)?.1)
        return Int64(id)!
    }

    @Test func everyAccountHasItsDefaultListAndEveryWantIsOnIt() async throws {
        let home = try await Household.make()
        let rows = try await home.server.database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT user_id, name, occasion, visibility, is_default FROM wish_list ORDER BY id")
        }
        #expect(rows.map { $0["user_id"] as Int64 } == [1, 2, 3])
        #expect(rows.allSatisfy { $0["name"] == "Wishlist" && $0["occasion"] == "none" && $0["visibility"] == "household" && $0["is_default"] == true })
        for item in home.itemIDs {
            #expect(try await Self.lists(of: item, home.server) == [1])
        }
    }

    @Test func aListIsMadeEditedShownOnTopAndFiltersTheWishlist() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            #expect(try await maya.get("/wishlist/lists/new").status == .ok)
            let birthday = try await Self.makeList(&maya, "Birthday", occasion: "birthday")
            let trip = try await Self.makeList(&maya, "Trip", occasion: "date", date: "2027-03-12", visibility: "private")
            let page = try await maya.get("/wishlist")
            #expect(page.text.contains(#"<a href="/wishlist?list=\#(birthday)">Birthday</a>"#))
            #expect(page.shows("0 books · March 12, 2027 · only you"), "the long date, as every page writes a date")
            #expect(page.shows("3 books"))

            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "1"), ("list", "\(birthday)")]).status == .seeOther)
            #expect(try await Self.lists(of: home.itemIDs[0], home.server) == [1, birthday])
            let filtered = try await maya.get("/wishlist?list=\(birthday)&sort=title")
            #expect(filtered.status == .ok)
            #expect(filtered.text.contains(#"<h1 id="page-title">Birthday <span class="heading-count" id="wishlist-total">1 book</span></h1>"#))
            #expect(filtered.shows(home.titles[0]) && !filtered.shows(home.titles[1]))
            #expect(filtered.text.contains(#"href="/wishlist?sort=author&amp;list=\#(birthday)""#), "the sort links keep the list")
            #expect(try await maya.get("/wishlist?list=\(trip)").text.contains(#"id="wishlist-empty""#))

            let edit = try await maya.get("/wishlist/lists/\(trip)")
            #expect(edit.text.contains(#"value="2027-03-12""#) && edit.text.contains(#"value="private" checked"#))
            let saved = try await maya.post("/wishlist/lists/\(trip)", [("name", "Spring trip"), ("occasion", "christmas"), ("date", ""), ("visibility", "household")])
            #expect(saved.location == "/wishlist?list=\(trip)")
            let list = try #require(try await WishListStore(database: home.server.database).list(id: ListID(trip), ownerID: UserID(1)))
            #expect(list.name == "Spring trip" && list.occasion == .christmas && list.occasionDate == nil && list.visibility == .household)
            #expect(!(try await maya.get("/wishlist/lists/1")).text.contains("delete-list-form"), "the default list has no delete form")
        }
    }

    @Test func aListFormWithProblemsIsRefusedBesideEachFieldAndKeepsWhatWasTyped() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let refused = try await maya.post("/wishlist/lists", [("name", String(repeating: "n", count: 61)), ("occasion", "date"), ("date", "2027-02-30"), ("visibility", "friends")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("A list’s name can be up to 60 characters. Shorten it and save again."))
            #expect(refused.shows("Give the day of the occasion as a date, such as 2027-03-12."))
            #expect(refused.shows("Choose who sees the list: the household, or only you."))
            #expect(refused.text.contains(#"value="2027-02-30""#))
            let empty = try await maya.post("/wishlist/lists", [("name", "  "), ("occasion", "easter"), ("visibility", "private")])
            #expect(empty.status == .unprocessableContent)
            #expect(empty.shows("Give the list a name, such as Birthday or Someday."))
            #expect(empty.shows("Choose no occasion, your birthday, Christmas or a date."))
            #expect(try await home.server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wish_list") } == 3)
        }
    }

    @Test func anotherMembersListOrWantAndAnUnknownIdAreTheSame404() async throws {
        let home = try await Household.make()
        try await home.run(sharing: [.maya, .ana]) { maya, ana, _ in
            let birthday = try await Self.makeList(&maya, "Birthday")
            let secret = try await Self.makeList(&maya, "Someday", visibility: "private")
            for list in ["\(birthday)", "\(secret)", "1", "999", "abc", "0"] {
                #expect(try await ana.get("/wishlist?list=\(list)").status == .notFound, "\(list)")
                #expect(try await ana.get("/wishlist/lists/\(list)").status == .notFound, "\(list)")
                #expect(try await ana.post("/wishlist/lists/\(list)", [("name", "Mine"), ("occasion", "none"), ("visibility", "household")]).status == .notFound)
                #expect(try await ana.post("/wishlist/lists/\(list)/delete", []).status == .notFound)
                #expect(try await ana.get("/wishlist/lists/\(list)/export.csv").status == .notFound, "\(list): a private list exports to its owner alone")
            }
            // Ana's own want onto Maya's list, and Maya's want onto Ana's.
            let ansBook = try await GiftIdeasHTTPTests.unwishedBook(home)
            #expect(try await ana.post("/wishlist", [("book", ansBook.id), ("list", "\(birthday)")]).status == .notFound)
            #expect(try await ana.post("/wishlist", [("book", ansBook.id)]).status == .seeOther)
            let anasItem = try await home.server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM wishlist_item WHERE user_id = 2")! }
            #expect(try await ana.post("/wishlist/\(anasItem)/lists", [("list", "\(birthday)")]).status == .notFound)
            #expect(try await ana.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "2")]).status == .notFound)
            #expect(try await Self.lists(of: anasItem, home.server) == [2])
            #expect(try await Self.lists(of: home.itemIDs[0], home.server) == [1])
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", []).status == .unprocessableContent)
            #expect(try await Self.lists(of: home.itemIDs[0], home.server) == [1])
        }
    }

    @Test func aBookAddedToAListIsOnThatListAlone() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let book = try await GiftIdeasHTTPTests.unwishedBook(home)
            #expect(!(try await maya.get("/books/\(book.id)")).text.contains(#"id="add-list""#), "one list: nothing to choose")
            let birthday = try await Self.makeList(&maya, "Birthday")
            let someday = try await Self.makeList(&maya, "Someday", visibility: "private")
            // The book page's add form chooses among her lists, her default list chosen.
            let page = try await maya.get("/books/\(book.id)")
            let choice = try #require(page.text.firstMatch(of: /<select class="select" id="add-list" name="list">(.*?)<\/select>/.dotMatchesNewlines())?.1)
            let options = choice.matches(of: /<option value="(\d+)"( selected)?>([^<]*)<\/option>/).map { "\($0.1)\($0.2 ?? "")=\($0.3)" }
            #expect(options == ["1 selected=Wishlist", "\(birthday)=Birthday", "\(someday)=Someday (only you)"])
            #expect(try await maya.post("/wishlist", [("book", book.id), ("list", "\(birthday)"), ("return_to", "/wishlist")]).status == .seeOther)
            let item = try await home.server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM wishlist_item WHERE book_id = ? AND user_id = 1", arguments: [book.id])! }
            #expect(try await Self.lists(of: item, home.server) == [birthday])
            #expect(!(try await maya.get("/books/\(book.id)")).text.contains(#"id="add-list""#), "on her wishlist: no add form")
            // Added again to the default list, it is on both: one want, one reservation.
            #expect(try await maya.post("/wishlist", [("book", book.id), ("list", "1")]).status == .seeOther)
            #expect(try await Self.lists(of: item, home.server) == [1, birthday])
        }
    }

    @Test func deletingAListKeepsItsWantsOnTheDefaultListOrTakesThoseOnNoOtherList() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let first = try await Self.makeList(&maya, "Birthday")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "\(first)")]).status == .seeOther)
            #expect(try await maya.post("/wishlist/\(home.itemIDs[1])/lists", [("list", "1"), ("list", "\(first)")]).status == .seeOther)
            #expect(try await maya.post("/wishlist/lists/\(first)/delete", []).location == "/wishlist")
            #expect(try await Self.lists(of: home.itemIDs[0], home.server) == [1])
            #expect(try await Self.lists(of: home.itemIDs[1], home.server) == [1])

            let second = try await Self.makeList(&maya, "Someday", visibility: "private")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "\(second)")]).status == .seeOther)
            #expect(try await maya.post("/wishlist/\(home.itemIDs[1])/lists", [("list", "1"), ("list", "\(second)")]).status == .seeOther)
            #expect(try await maya.post("/wishlist/lists/\(second)/delete", [("delete_wants", "yes")]).status == .seeOther)
            #expect(try await home.itemCount(owner: "maya") == 2, "the want on no other list went with it")
            #expect(try await Self.lists(of: home.itemIDs[1], home.server) == [1])

            let refused = try await maya.post("/wishlist/lists/1/delete", [])
            #expect(refused.status == .conflict)
            #expect(refused.shows("Your first list can’t be deleted"))
        }
    }

    @Test func twoDeletesOfOneListAtOnceDeleteItOnceAndTwoPlacementsLeaveOneAnswer() async throws {
        let home = try await Household.make()
        let store = WishListStore(database: home.server.database)
        let checked = try WishListDraft(name: "Birthday", occasion: "birthday", date: "", visibility: "household").checked().get()
        for _ in 0..<2 {
            let list = try await store.create(checked, ownerID: UserID(1), at: Date())
            _ = try await store.place(itemID: ItemID(home.itemIDs[0]), on: [list.id], ownerID: UserID(1))
            async let first = store.delete(id: list.id, ownerID: UserID(1), deleteWants: false)
            async let second = store.delete(id: list.id, ownerID: UserID(1), deleteWants: false)
            let answers: Set = [try await first, try await second]
            #expect(answers == [.deleted, .notFound])
            #expect(try await Self.lists(of: home.itemIDs[0], home.server) == [1])
        }
        let other = try await store.create(checked, ownerID: UserID(1), at: Date())
        async let moved = store.place(itemID: ItemID(home.itemIDs[1]), on: [other.id], ownerID: UserID(1))
        async let copied = store.place(itemID: ItemID(home.itemIDs[1]), on: [ListID(1), other.id], ownerID: UserID(1))
        let (movedAnswer, copiedAnswer) = (try await moved, try await copied)
        #expect(movedAnswer == .saved && copiedAnswer == .saved)
        #expect(try await Self.lists(of: home.itemIDs[1], home.server).count >= 1, "never on no list")
    }

    @Test func aWantOnlyOnPrivateListsIsNeitherShownCountedReservableNorShared() async throws {
        let home = try await Household.make()
        let bookIDs = try await home.bookIDs()
        try await home.run(sharing: [.maya, .ana]) { maya, ana, ben in
            let made = try await maya.post("/settings/share-link", [])
            let shared = try PriorityAndShareLinkTests.sharedPath(in: made)
            let someday = try await Self.makeList(&maya, "Someday", visibility: "private")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "\(someday)")]).status == .seeOther)

            let page = try await ana.get("/people/maya")
            #expect(!page.shows(home.titles[0]) && page.shows(home.titles[1]))
            #expect(try await ana.get("/people").shows("2 books"))
            #expect(try await ana.reserve(home.itemIDs[0]).status == .notFound)
            #expect(try await home.reservationCount() == 0)
            #expect(try await home.server.database.pool.read { try Int.fetchOne($0, sql: "SELECT wanted FROM book_household WHERE book_id = ?", arguments: [bookIDs[0]]) } == 0)
            #expect(!(try await ben.get("/books/\(bookIDs[0])")).text.contains(#"id="household-wanted""#), "nobody here wants it, as far as anyone knows")
            try await home.server.database.pool.write { try $0.execute(sql: "UPDATE user SET is_admin = 1 WHERE username = 'ben'") }
            let accounts = try await ben.get("/admin").text
            let mayasRow = try #require(accounts.components(separatedBy: #"<tr data-user="maya">"#).dropFirst().first?.components(separatedBy: "</tr>").first)
            #expect(mayasRow.contains("<td>\(home.itemIDs.count - 1)</td>"), "an admin's count leaves the private want out")
            var stranger = TestBrowser(client: maya.client)
            let link = try await stranger.get(shared)
            #expect(link.status == .ok && !link.shows(home.titles[0]) && link.shows(home.titles[1]))

            // Back on a household list, it is everyone's again.
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "\(someday)"), ("list", "1")]).status == .seeOther)
            #expect(try await ana.get("/people/maya").shows(home.titles[0]))
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            // Her whole list made private: the want and its reservation hide, and the link shows nothing.
            #expect(try await maya.post("/wishlist/lists/1", [("name", "Wishlist"), ("occasion", "none"), ("visibility", "private")]).status == .seeOther)
            #expect(!(try await ana.get("/people/maya")).shows(home.titles[1]))
            #expect(try await ana.get("/reservations").text.contains(#"<li class="hidden-gift" data-item="\#(home.itemIDs[0])">"#))
            #expect(try await stranger.get(shared).status == .notFound)
        }
    }

    @Test func giversSeeHerSharedListsEachAtItsOwnAddressAndOneReservationOnEvery() async throws {
        let home = try await Household.make()
        try await home.run(sharing: [.maya, .ana]) { maya, ana, ben in
            let birthday = try await Self.makeList(&maya, "Birthday", occasion: "birthday")
            let someday = try await Self.makeList(&maya, "Someday", visibility: "private")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "1"), ("list", "\(birthday)")]).status == .seeOther)
            #expect(try await maya.post("/wishlist/\(home.itemIDs[1])/lists", [("list", "\(someday)")]).status == .seeOther)

            let page = try await ana.get("/people/maya")
            #expect(page.text.contains(#"<a href="/people/maya/lists/\#(birthday)">Birthday</a> <span class="muted">1 book · Birthday</span>"#))
            #expect(!page.shows("Someday") && !page.shows(home.titles[1]))
            let list = try await ana.get("/people/maya/lists/\(birthday)")
            #expect(list.status == .ok)
            #expect(list.shows("maya’s list: Birthday") && list.shows(home.titles[0]) && !list.shows(home.titles[2]))
            #expect(list.text.contains(#"href="/people/maya/lists/\#(birthday)?sort=title""#))
            for refused in ["/people/maya/lists/\(someday)", "/people/maya/lists/2", "/people/maya/lists/999", "/people/maya/lists/x", "/people/ben/lists/3"] {
                #expect(try await ana.get(refused).status == .notFound, "\(refused)")
            }

            // Reserved from the birthday list, it is reserved on every list that holds it.
            #expect(try await ana.reserve(home.itemIDs[0], returnTo: "/people/maya/lists/\(birthday)").status == .seeOther)
            #expect(try await ana.get("/people/maya/lists/\(birthday)").shows("Reserved by you"))
            #expect(try await ana.get("/people/maya/lists/1").shows("Reserved by you"))
            #expect(try await ben.get("/people/maya/lists/1").shows("Reserved by ana"))
            #expect(try await ben.reserve(home.itemIDs[0], returnTo: "/people/maya/lists/1").status == .conflict)
        }
    }

    @Test func peopleAndHerPageSayHowSoonHerListsOccasionsAre() async throws {
        // Saturday 28 November 2026, noon UTC, the servers' zone.
        let time = ManualClock(Date(timeIntervalSince1970: 1_795_867_200))
        let home = try await Household.make(clock: time.clock)
        try await home.run { maya, ana, _ in
            try await home.server.database.pool.write { try $0.execute(sql: "UPDATE user SET birthday = '12-10' WHERE username = 'maya'") }
            let birthday = try await Self.makeList(&maya, "Birthday", occasion: "birthday")
            _ = try await Self.makeList(&maya, "Christmas", occasion: "christmas")
            _ = try await Self.makeList(&maya, "Visit", occasion: "date", date: "2026-11-29")
            _ = try await Self.makeList(&maya, "Last trip", occasion: "date", date: "2026-11-01")
            _ = try await Self.makeList(&maya, "Hidden", occasion: "christmas", visibility: "private")

            let people = try await ana.get("/people")
            #expect(people.text.contains(#"<a href="/people/maya/lists/\#(birthday)">maya’s Birthday list</a>: in 12 days"#))
            let order = ["maya’s Visit list</a>: tomorrow", "maya’s Birthday list</a>: in 12 days", "maya’s Christmas list</a>: in 27 days"]
                .map { people.text.range(of: $0)?.lowerBound }
            #expect(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!, "soonest first")
            #expect(!people.shows("Last trip") && !people.shows("Hidden"), "a passed occasion and a private list are not shown")

            let page = try await ana.get("/people/maya")
            #expect(page.shows("0 books · Birthday: in 12 days") && page.shows("0 books · Christmas: in 27 days"))
            #expect(page.text.contains("0 books · November 1, 2026</span>"), "a passed date is named without a countdown, as every page writes a date")
            // The next day, her page counts from it: it was kept a day at a time.
            time.advance(by: 86_400)
            #expect(try await ana.get("/people/maya").shows("0 books · Birthday: in 11 days"))
        }
    }

    @Test func aGoodreadsImportFromAListsPageAddsItsWishesToThatListAlone() async throws {
        let home = try await Household.make()
        try await home.run(sharing: [.maya, .ana]) { maya, ana, _ in
            let someday = try await Self.makeList(&maya, "Someday", visibility: "private")
            #expect(try await maya.get("/wishlist?list=\(someday)").text.contains(#"action="/wishlist/import?list=\#(someday)""#))
            let csv = "Book Id,Title,Author,ISBN,ISBN13,Date Added,Bookshelves,Exclusive Shelf,Private Notes\r\n"
                + "1,A Quiet Want,Ann Author,,,2026/01/03,to-read,to-read,\r\n"
            #expect(try await WishlistHTTPTests().upload(csv, as: &ana, to: "/wishlist/import?list=\(someday)").status == .notFound, "another's list")
            let imported = try await WishlistHTTPTests().upload(csv, as: &maya, to: "/wishlist/import?list=\(someday)")
            #expect(imported.status == .ok && imported.text.contains(#"<li id="import-added"><strong>1</strong> added</li>"#))
            let item = try await home.server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM wishlist_item WHERE title = 'A Quiet Want'")! }
            #expect(try await Self.lists(of: item, home.server) == [someday])
            #expect(!(try await ana.get("/people/maya")).shows("A Quiet Want"), "a private list's import stays hers")
        }
    }

    @Test func aLongListComesAHundredAPageAndEveryLinkKeepsTheList() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let long = try await Self.makeList(&maya, "Long")
            try await home.server.database.pool.write { db in
                for number in 1...130 {
                    try db.execute(
                        sql: """
                            INSERT INTO wishlist_item (user_id, title, author, publisher, description, isbn10, isbn13,
                                image_width, image_height, buy_links, reading_links, added_at)
                            VALUES (1, ?, 'An Author', '', '', '', '', 0, 0, '[]', '[]', ?)
                            """,
                        arguments: ["Book \(1000 + number)", "2026-01-01 00:00:00.000"]
                    )
                    try db.execute(sql: "UPDATE wish_list_item SET list_id = ? WHERE item_id = ?", arguments: [long, db.lastInsertedRowID])
                }
            }
            let first = try await maya.get("/wishlist?list=\(long)&sort=title")
            #expect(first.text.matches(of: /<li class="book wishlist-item"/).count == 100)
            #expect(first.text.contains(#"<a rel="next" id="wishlist-next" href="/wishlist?sort=title&amp;list=\#(long)&amp;page=2">"#))
            let second = try await maya.get("/wishlist?sort=title&list=\(long)&page=2")
            #expect(second.text.matches(of: /<li class="book wishlist-item"/).count == 30)
            #expect(second.text.contains(#"<a rel="prev" id="wishlist-previous" href="/wishlist?sort=title&amp;list=\#(long)">"#))
            // Removing a book from the second page comes back to it.
            let here = "/wishlist?sort=title&list=\(long)&page=2"
            #expect(second.text.contains("/remove?return_to=%2Fwishlist%3Fsort%3Dtitle%26list%3D\(long)%26page%3D2\""))
            let item = try #require(second.text.firstMatch(of: /data-item="(\d+)"/)?.1)
            #expect(try await maya.post("/wishlist/\(item)/delete", [("return_to", here)]).location == here)
            #expect(try await maya.get("/wishlist?list=\(long)").shows("129 books"))
        }
    }

    /// One list downloads as the Goodreads CSV of the whole wishlist, in the same columns, with
    /// only its books; the list's page links it.
    @Test func oneListDownloadsAsGoodreadsCSV() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let someday = try await Self.makeList(&maya, "Someday", visibility: "private")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "\(someday)")]).status == .seeOther)
            #expect(try await maya.get("/wishlist?list=\(someday)").text.contains(#"href="/wishlist/lists/\#(someday)/export.csv""#))
            let whole = try await maya.get("/wishlist.csv").text
            let one = try await maya.get("/wishlist/lists/\(someday)/export.csv")
            #expect(one.status == .ok)
            #expect(one.headers[.contentDisposition] == #"attachment; filename="someday.csv""#)
            let rows = one.text.split(separator: "\r\n").map(String.init)
            #expect(rows.count == 2)
            #expect(rows.first == whole.split(separator: "\r\n").first.map(String.init), "the same columns")
            #expect(rows.last.map { whole.contains($0) } == true, "the same row as the whole wishlist's")
            #expect(rows.last?.contains(home.titles[0]) == true)
            let first = try await maya.get("/wishlist/lists/1/export.csv").text
            #expect(!first.contains(home.titles[0]) && first.contains(home.titles[1]))
        }
    }
}
