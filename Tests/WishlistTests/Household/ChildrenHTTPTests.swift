import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Children's profiles over HTTP: making one, its managers (issue 51)", .removesTemporaryDirectories)
struct ChildrenHTTPTests {
    /// Mum (sharing) makes Bea's profile and lands on her page; Dad and Gran share too.
    static func family(_ body: @Sendable (WishlistServer, inout TestBrowser, inout TestBrowser, inout TestBrowser) async throws -> Void) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { mum in
            var dad = TestBrowser(client: mum.client)
            var gran = TestBrowser(client: mum.client)
            try await dad.signUp("dad")
            try await dad.share()
            try await gran.signUp("gran")
            try await gran.share()
            try await mum.signUp("mum")
            try await mum.share()
            #expect(try await mum.get("/people/new-child").status == .ok)
            let made = try await mum.post("/people/children", [("name", "Bea"), ("birthday_month", "5"), ("birthday_day", "4")])
            #expect(made.status == .seeOther)
            #expect(made.location == "/people/~bea")
            try await body(server, &mum, &dad, &gran)
        }
    }

    /// Each browser posts its form at the same time; the statuses, in no particular order.
    static func atOnce(_ posts: [(TestBrowser, String, [(String, String)])]) async throws -> [HTTPResponse.Status] {
        try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for (browser, path, fields) in posts {
                group.addTask {
                    var browser = browser
                    return try await browser.post(path, fields).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aMemberMakesAChildsProfileThatPeopleShowsManagedByHer() async throws {
        try await Self.family { _, mum, dad, gran in
            let people = try await gran.get("/people")
            #expect(people.text.contains(#"<a class="person-link" href="/people/~bea">Bea</a>"#))
            #expect(people.shows("managed by mum"))
            let page = try await gran.get("/people/~bea")
            #expect(page.status == .ok, "the household sees her as any member")
            #expect(try await mum.get("/people/~bea").status == .ok, "her manager sees her page as a giver does, not as her owner")
        }
    }

    @Test func aChildsNameIsCheckedAndARefusedPictureMakesNoProfile() async throws {
        try await Self.family { _, mum, _, _ in
            let empty = try await mum.post("/people/children", [("name", "  ")])
            #expect(empty.status == .unprocessableContent)
            #expect(empty.shows("Enter the child’s name, as the family calls her or him."))
            let badDay = try await mum.post("/people/children", [("name", "Cal"), ("birthday_month", "2"), ("birthday_day", "30")])
            #expect(badDay.status == .unprocessableContent)
            #expect(badDay.shows("Choose both the month and a day that month has, or neither."))
            #expect(try await mum.get("/people/~cal").status == .notFound, "nothing was made")
        }
    }

    @Test func signingInAsAChildIsRefusedAsAWrongPasswordIs() async throws {
        try await Self.family { _, mum, _, _ in
            var stranger = TestBrowser(client: mum.client)
            let asChild = try await stranger.signIn("~bea", password: "")
            let wrong = try await stranger.signIn("mum", password: "not her password at all")
            #expect(asChild.status == wrong.status)
            #expect(asChild.status != .seeOther)
            #expect(asChild.shows("The username or password is incorrect.") == wrong.shows("The username or password is incorrect."))
        }
    }

    @Test func onlyManagersSeeTheManagersPageAndAddOrRemoveCoManagers() async throws {
        try await Self.family { _, mum, dad, gran in
            #expect(try await gran.get("/people/~bea/managers").status == .notFound)
            #expect(try await gran.post("/people/~bea/managers", [("action", "add"), ("username", "gran")]).status == .notFound)
            #expect(try await mum.get("/people/dad/managers").status == .notFound, "a member is no child")
            let unknown = try await mum.post("/people/~bea/managers", [("action", "add"), ("username", "nobody")])
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.shows("Nobody here has that username."))
            let added = try await mum.post("/people/~bea/managers", [("action", "add"), ("username", "dad")])
            #expect(added.location == "/people/~bea/managers?done=added")
            #expect(try await dad.get("/people/~bea/managers").text.contains(#"data-manager="mum""#))
            // Dad leaves; then Mum, the last, cannot.
            #expect(try await dad.post("/people/~bea/managers", [("action", "remove"), ("manager", "dad")]).location == "/people")
            let last = try await mum.post("/people/~bea/managers", [("action", "remove"), ("manager", "mum")])
            #expect(last.status == .unprocessableContent)
            #expect(last.shows("Bea needs at least one manager: add another before you leave, or hand the profile over."))
            #expect(try await dad.get("/people/~bea/managers").status == .notFound)
        }
    }

    @Test(arguments: 1...2) func twoManagersRemovingEachOtherAtOnceLeaveOne(round: Int) async throws {
        try await Self.family { _, mum, dad, _ in
            #expect(try await mum.post("/people/~bea/managers", [("action", "add"), ("username", "dad")]).status == .seeOther)
            _ = try await dad.get("/people/~bea/managers")
            _ = try await mum.get("/people/~bea/managers")
            let statuses = try await Self.atOnce([(mum, "/people/~bea/managers", [("action", "remove"), ("manager", "dad")]),
                                                  (dad, "/people/~bea/managers", [("action", "remove"), ("manager", "mum")])])
            #expect(statuses.filter { $0 == .seeOther }.count == 1, "one removal wins")
            #expect(statuses.contains(.unprocessableContent) || statuses.contains(.notFound), "the other is refused")
            let mumSees = try await mum.get("/people/~bea/managers").status == .ok
            let dadSees = try await dad.get("/people/~bea/managers").status == .ok
            #expect(mumSees != dadSees, "exactly one manager remains")
        }
    }

    static func firstBook(_ server: WishlistServer) async throws -> BookSummary {
        try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1.first!.book
    }

    @Test func aManagerAddsAndRemovesHerWantsAndSeesWhatTheHouseholdReserves() async throws {
        try await Self.family { server, mum, dad, gran in
            let book = try await Self.firstBook(server)
            #expect(try await mum.get("/books/\(book.id)").text.contains(#"name="for" value="~bea""#), "her manager's book page offers her list")
            #expect(!(try await gran.get("/books/\(book.id)")).text.contains(#"name="for""#))
            let refused = try await gran.post("/wishlist", [("book", book.id), ("for", "~bea")])
            #expect(refused.status == .notFound, "a non-manager cannot add to her list")
            let added = try await mum.post("/wishlist", [("book", book.id), ("for", "~bea"), ("return_to", "/books/\(book.id)")])
            #expect(added.location == "/people/~bea")
            #expect(try await mum.get("/books/\(book.id)").shows("On Bea’s wishlist"))
            #expect(!(try await mum.get("/wishlist")).shows(book.title), "her own wishlist is untouched")
            let itemID = try await server.database.pool.read {
                try Int64.fetchOne($0, sql: "SELECT wishlist_item.id FROM wishlist_item JOIN user ON user.id = user_id WHERE username = '~bea'")!
            }
            // Gran reserves from Bea's page; Mum, who manages her, sees it as a giver does; Dad does not manage her yet, and sees it reserved too, as any giver.
            #expect(try await gran.reserve(itemID, returnTo: "/people/~bea").status == .seeOther)
            let mumSees = try await mum.get("/people/~bea")
            #expect(mumSees.shows("Reserved by gran"))
            #expect(try await dad.get("/people/~bea").status == .ok)
            #expect(try await gran.post("/wishlist/\(itemID)/delete", [("for", "~bea")]).status == .notFound)
            #expect(try await dad.post("/wishlist/\(itemID)/delete", [("for", "~bea")]).status == .notFound)
            #expect(try await mum.get("/people/~bea/managers").shows(book.title))
            let removed = try await mum.post("/wishlist/\(itemID)/delete", [("for", "~bea")])
            #expect(removed.location == "/people/~bea/managers?done=wish-removed")
            #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item WHERE id = ?", arguments: [itemID]) } == 0)
        }
    }

    /// The child's lists row of the design: her managers keep her wants' notes and priorities
    /// from her managers page; anyone else's try is the 404 of a want that is not theirs.
    @Test func aManagerKeepsHerWantsNoteAndPriorityAndNoOneElseCan() async throws {
        try await Self.family { server, mum, dad, gran in
            let book = try await Self.firstBook(server)
            #expect(try await mum.post("/wishlist", [("book", book.id), ("for", "~bea")]).status == .seeOther)
            let itemID = try await server.database.pool.read {
                try Int64.fetchOne($0, sql: "SELECT wishlist_item.id FROM wishlist_item JOIN user ON user.id = user_id WHERE username = '~bea'")!
            }
            let note = [("note", "The one with the fox on the cover"), ("priority", "high"), ("for", "~bea")]
            #expect(try await gran.post("/wishlist/\(itemID)", note).status == .notFound, "a giver does not keep her list")
            #expect(try await dad.post("/wishlist/\(itemID)", note).status == .notFound, "nor a parent who is not her manager")
            #expect(try await mum.post("/wishlist/\(itemID)", note.filter { $0.0 != "for" }).status == .notFound, "without `for` it is Mum's own want, and Mum has none")
            let refused = try await mum.post("/wishlist/\(itemID)", [("note", ""), ("priority", "urgent"), ("for", "~bea")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("Choose high, normal or low."))
            let saved = try await mum.post("/wishlist/\(itemID)", note)
            #expect(saved.location == "/people/~bea/managers?done=wish-saved#want-\(itemID)")
            let stored = try await server.database.pool.read {
                try Row.fetchOne($0, sql: "SELECT note, priority FROM wishlist_item WHERE id = ?", arguments: [itemID])!
            }
            #expect(stored["note"] as String == "The one with the fox on the cover" && stored["priority"] as Int == 1)
            #expect(try await gran.get("/people/~bea").shows("The one with the fox on the cover"), "the household reads her note")
            let managing = try await mum.get("/people/~bea/managers?done=wish-saved")
            #expect(managing.shows("The note and priority were saved."))
            #expect(managing.text.contains(#"<option value="high" selected>"#))
        }
    }

    /// A hand-over link Mum makes for Bea, read from the page that shows it once.
    static func handOverLink(_ mum: inout TestBrowser) async throws -> String {
        let page = try await mum.post("/people/~bea/hand-over", [])
        #expect(page.status == .ok)
        return String(try #require(page.text.firstMatch(of: #/(/hand-over/[A-Za-z0-9_-]{43})"/#)?.1))
    }

    static func takeOver(_ bea: inout TestBrowser, _ link: String, username: String = "~bea") async throws -> TestResponse {
        try await bea.get(link)
        return try await bea.post(link, [
            ("username", username), ("email", ""), ("password", "correct horse battery"), ("password_confirm", "correct horse battery"),
        ])
    }

    @Test func aHandedOverChildIsAMemberWhoNeverSeesWhatWasReservedForHer() async throws {
        try await Self.family { server, mum, _, gran in
            let book = try await Self.firstBook(server)
            #expect(try await mum.post("/wishlist", [("book", book.id), ("for", "~bea")]).status == .seeOther)
            let itemID = try await server.database.pool.read {
                try Int64.fetchOne($0, sql: "SELECT wishlist_item.id FROM wishlist_item JOIN user ON user.id = user_id WHERE username = '~bea'")!
            }
            #expect(try await gran.reserve(itemID, returnTo: "/people/~bea").status == .seeOther, "reserved while she was a child")
            #expect(try await gran.post("/people/~bea/hand-over", []).status == .notFound, "only a manager hands her over")
            let link = try await Self.handOverLink(&mum)
            var bea = TestBrowser(client: mum.client)
            #expect(try await bea.get(link).shows("Your own account, Bea"))
            let weak = try await bea.post(link, [("username", "~bea"), ("password", "short"), ("password_confirm", "short")])
            #expect(weak.status == .unprocessableContent, "a refused form spends nothing")
            let done = try await Self.takeOver(&bea, link, username: "bea")
            #expect(done.status == .seeOther)
            #expect(done.location == "/wishlist")
            let own = try await bea.get("/wishlist")
            #expect(own.status == .ok)
            #expect(own.shows(book.title))
            #expect(!own.text.contains("gran") && !own.text.contains("Reserved") && !own.text.contains(#"class="reserved-mark"#), "her first page tells her nothing")
            let item = try await bea.get("/wishlist/\(itemID)")
            #expect(item.status == .ok && !item.text.contains("gran") && !item.text.contains(#"class="reserved-mark"#))
            #expect(try await mum.get("/people/bea/managers").status == .notFound, "her managers lose her at once")
            #expect(try await mum.post("/wishlist/\(itemID)/delete", [("for", "bea")]).status == .notFound)
            var again = TestBrowser(client: mum.client)
            #expect(try await again.signIn("bea").status == .seeOther, "she signs in with her password")
        }
    }

    @Test func aHandOverLinkWorksOnceAndMakesNoAccountWhenUsedAgain() async throws {
        try await Self.family { _, mum, _, _ in
            let link = try await Self.handOverLink(&mum)
            var bea = TestBrowser(client: mum.client)
            #expect(try await Self.takeOver(&bea, link).status == .seeOther)
            var other = TestBrowser(client: mum.client)
            #expect(try await other.get(link).status == .gone)
            let second = try await Self.takeOver(&other, link, username: "impostor")
            #expect(second.status == .gone)
            #expect(second.shows("This hand-over link was used already"))
        }
    }

    @Test(arguments: 1...2) func twoHandOversWithOneLinkAtOnceLetOneWin(round: Int) async throws {
        try await Self.family { server, mum, _, _ in
            let link = try await Self.handOverLink(&mum)
            var first = TestBrowser(client: mum.client)
            var second = TestBrowser(client: mum.client)
            try await first.get(link)
            try await second.get(link)
            let form = { (name: String) in [("username", name), ("email", ""), ("password", "correct horse battery"), ("password_confirm", "correct horse battery")] }
            let statuses = try await Self.atOnce([(first, link, form("bea")), (second, link, form("beatrice"))])
            #expect(statuses.sorted { $0.code < $1.code } == [.seeOther, .gone], "the second finds the link used")
            let names = try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT username FROM user WHERE username LIKE 'bea%' OR username = '~bea'") }
            #expect(names.count == 1, "one account, named by the winner: \(names)")
        }
    }

    static func userCount(_ server: WishlistServer, _ username: String) async throws -> Int {
        try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM user WHERE username = ?", arguments: [username]) ?? 0 }
    }

    @Test func theLastManagerCannotDeleteHerAccountButAManagerWithACoManagerCan() async throws {
        try await Self.family { server, mum, dad, _ in
            let refused = try await mum.post("/settings/delete-account", [("password", "correct horse battery")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("You are the only manager of a child’s profile, so your account can’t be deleted yet"))
            #expect(try await Self.userCount(server, "mum") == 1)
            #expect(try await mum.post("/people/~bea/managers", [("action", "add"), ("username", "dad")]).status == .seeOther)
            #expect(try await mum.post("/settings/delete-account", [("password", "correct horse battery")]).status == .seeOther)
            #expect(try await Self.userCount(server, "mum") == 0)
            #expect(try await Self.userCount(server, "~bea") == 1, "Bea stays with Dad")
            #expect(try await dad.get("/people/~bea/managers").status == .ok)
        }
    }

    @Test func anAdminSeesAChildAndDeletesHerButNotHerLastManager() async throws {
        let server = try await TestApp.build()
        _ = try await server.accounts.createUser(username: "root", password: "correct horse battery", isAdmin: true)
        let mum = try await server.accounts.createUser(username: "mum", password: "correct horse battery")
        let bea = try await ChildProfileTests.child(server, "Bea", managedBy: mum.id)
        try await TestApp.run(server) { root in
            #expect(try await root.signIn("root").status == .seeOther)
            #expect(try await root.get("/admin").text.contains("~bea"))
            let lastManager = try await root.post("/admin/users/\(mum.id)/delete", [])
            #expect(lastManager.status == .conflict)
            #expect(lastManager.shows("That account is the only manager of a child’s profile, so nothing changed."))
            #expect(try await root.post("/admin/users/\(bea.id)/delete", []).location == "/admin?done=deleted")
            #expect(try await root.post("/admin/users/\(mum.id)/delete", []).location == "/admin?done=deleted")
        }
        #expect(try await Self.userCount(server, "~bea") == 0)
    }

    @Test func aManagersDataHoldsNothingOfWhatTheHouseholdReservedForTheChild() async throws {
        try await Self.family { server, mum, _, gran in
            let book = try await Self.firstBook(server)
            #expect(try await mum.post("/wishlist", [("book", book.id), ("for", "~bea")]).status == .seeOther)
            let itemID = try await server.database.pool.read {
                try Int64.fetchOne($0, sql: "SELECT wishlist_item.id FROM wishlist_item JOIN user ON user.id = user_id WHERE username = '~bea'")!
            }
            #expect(try await gran.reserve(itemID, returnTo: "/people/~bea").status == .seeOther)
            #expect(try await gran.post("/reservations/\(itemID)/card", [("message", "Love from Gran")]).status == .seeOther)
            let export = try await mum.post("/settings/export", [])
            #expect(export.status == .ok)
            let text = try readZipWithPython(Array(buffer: export.body)).map { String(decoding: $0.bytes, as: UTF8.self) }.joined()
            #expect(!text.isEmpty)
            #expect(!text.contains("gran") && !text.contains("Love from Gran") && !text.contains(book.title), "her data is hers: not Bea's list nor its givers")
        }
    }
}
