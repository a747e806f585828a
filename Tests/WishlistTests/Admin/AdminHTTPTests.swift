import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Admin: accounts, reset links, invites and the audit log", .removesTemporaryDirectories)
struct AdminHTTPTests {
    /// A server with the admin `root` (signed in, in the returned browser's client) and the user `bob`,
    /// who has one book with a note on his wishlist.
    static func withAdmin(
        clock: WallClock = .system, _ adjust: @escaping (inout AppConfig) -> Void = { _ in },
        _ body: @Sendable (WishlistServer, inout TestBrowser, inout TestBrowser) async throws -> Void
    ) async throws {
        let server = try await TestApp.build(clock: clock, adjust)
        let book = try await WishlistHTTPTests.fictionIDs(server)[0]
        // Made as `wishlist user create` makes them, which works whatever accounts.signup says.
        _ = try await server.accounts.createUser(username: "root", password: "correct horse battery", isAdmin: true)
        _ = try await server.accounts.createUser(username: "bob", password: "correct horse battery")
        try await TestApp.run(server) { root in
            try await root.signIn("root")
            var bob = TestBrowser(client: root.client)
            try await bob.signIn("bob")
            try await bob.post("/wishlist", [("book", book), ("return_to", "/wishlist")])
            let item = try await server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM wishlist_item")! }
            try await bob.post("/wishlist/\(item)", [("note", "secret birthday idea"), ("priority", "high")])
            try await body(server, &root, &bob)
        }
    }

    static func userID(_ name: String, _ server: WishlistServer) async throws -> UserID {
        try await server.database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user WHERE username = ?", arguments: [name])! }
    }

    @Test func onlyAdminsSeeTheAdminPageAndItShowsAccountsButNeverTheirLists() async throws {
        try await Self.withAdmin { server, root, bob in
            let bobID = try await Self.userID("bob", server)
            #expect(try await bob.get("/admin").status == .notFound)
            #expect(!(try await bob.get("/wishlist")).text.contains(#"href="/admin""#))
            for path in ["/admin/users/\(bobID)/disable", "/admin/users/\(bobID)/delete", "/admin/users/\(bobID)/reset-link", "/admin/invites"] {
                #expect(try await bob.post(path, []).status == .notFound, "\(path) for a non-admin")
            }
            #expect(try await Administration(database: server.database, clock: .system).recentEvents().isEmpty, "nothing happened")

            let page = try await root.get("/admin")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"id="nav-admin" href="/admin" aria-current="page""#))
            #expect(page.text.contains(#"<tr data-user="bob">"#))
            #expect(page.text.contains("<td>1</td>"), "Bob's item count")
            #expect(!page.text.contains("secret birthday idea"))
            let title = try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT title FROM wishlist_item")! }
            #expect(!page.shows(title), "admins never see what is on a list")
            #expect(page.text.contains(#"<dd id="version">\#(ServerFacts.version)</dd>"#))
            #expect(page.text.contains(#"<dd id="api-requests">0</dd>"#))
        }
    }

    @Test func disablingEndsTheSessionsAndRefusesSignInWithTheGenericSentence() async throws {
        try await Self.withAdmin { server, root, bob in
            let bobID = try await Self.userID("bob", server)
            let disabled = try await root.post("/admin/users/\(bobID)/disable", [])
            #expect(disabled.status == .seeOther && disabled.location == "/admin?done=disabled")
            #expect(try await bob.get("/wishlist").status == .seeOther, "Bob's open session ended at once")
            var again = TestBrowser(client: root.client)
            let refused = try await again.signIn("bob")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("Wrong username or password."))
            #expect((try await root.get("/admin")).text.contains("root disabled bob"))

            #expect(try await root.post("/admin/users/\(bobID)/enable", []).location == "/admin?done=enabled")
            #expect(try await again.signIn("bob").status == .seeOther)
        }
    }

    @Test func anAdminCannotDisableThemselfNorAsTheLastAdminDeleteThemself() async throws {
        try await Self.withAdmin { server, root, bob in
            let rootID = try await Self.userID("root", server)
            let selfDisable = try await root.post("/admin/users/\(rootID)/disable", [])
            #expect(selfDisable.status == .conflict)
            #expect(selfDisable.shows("You can’t disable your own account while signed in with it."))
            let selfDelete = try await root.post("/admin/users/\(rootID)/delete", [])
            #expect(selfDelete.status == .conflict)
            #expect(selfDelete.shows("That would leave the server without an admin"))
            #expect(try await root.get("/admin").status == .ok, "still an admin, still signed in")
            await #expect(throws: Administration.Refusal.lastAdmin) {
                try await Administration(database: server.database, clock: .system).setAdmin(false, username: "root")
            }
            for bad in ["0", "-3", "abc", "99999"] {
                #expect(try await root.post("/admin/users/\(bad)/delete", []).status == .notFound, "user \(bad)")
            }
        }
    }

    @Test func deletingAnAccountRemovesItAndIsLogged() async throws {
        try await Self.withAdmin { server, root, bob in
            let bobID = try await Self.userID("bob", server)
            #expect(try await root.post("/admin/users/\(bobID)/delete", []).location == "/admin?done=deleted")
            let users = try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT username FROM user") }
            #expect(users == ["root"])
            #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item") } == 0)
            #expect((try await root.get("/admin")).text.contains("root deleted bob"))
        }
    }

    @Test func aDemotedAdminsOpenPageFindsTheFormsGone() async throws {
        try await Self.withAdmin { server, root, bob in
            let administration = Administration(database: server.database, clock: .system)
            try await administration.setAdmin(true, username: "bob")
            let page = try await bob.get("/admin")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"action="/admin/invites""#), "an administrator's page, with its forms")
            try await administration.setAdmin(false, username: "bob")
            let bobID = try await Self.userID("bob", server)
            #expect(try await bob.post("/admin/invites", []).status == .notFound)
            #expect(try await bob.post("/admin/users/\(bobID)/reset-link", []).status == .notFound)
        }
    }

    /// 248 accounts more than root and bob, `user001` to `user248`, written straight to the table
    /// (hashing 248 passwords would only slow the test).
    static func addAccounts(_ server: WishlistServer) async throws {
        try await server.database.pool.write { db in
            for number in 1...248 {
                let name = "user" + String(1000 + number).dropFirst()
                try db.execute(
                    sql: "INSERT INTO user (username, username_key, password_hash, created_at) VALUES (?, ?, 'not-a-hash', ?)",
                    arguments: [name, name, Date()]
                )
            }
        }
    }

    static func accountRows(_ page: TestResponse) -> Int { page.text.matches(of: /<tr data-user="/).count }

    @Test func accountsComeAHundredAPageFoundByNameAndAnActionReturnsToItsPage() async throws {
        try await Self.withAdmin { server, root, _ in
            try await Self.addAccounts(server)
            let first = try await root.get("/admin")
            #expect(Self.accountRows(first) == 100)
            #expect(first.shows("1–100 of 250 accounts."))
            #expect(first.text.contains(#"<a rel="next" id="accounts-next" href="/admin?page=2#accounts">"#))
            #expect(!first.text.contains(#"rel="prev""#))
            #expect(!first.text.contains(#"name="page""#), "the first page's forms return to it without saying so")

            let last = try await root.get("/admin?page=3")
            #expect(Self.accountRows(last) == 50)
            #expect(last.shows("201–250 of 250 accounts."))
            #expect(last.shows("Page 3 of 3"))
            #expect(last.text.contains(#"<a rel="prev" id="accounts-previous" href="/admin?page=2#accounts">"#))
            #expect(!last.text.contains(#"rel="next""#))
            #expect(last.text.contains(#"<tr data-user="user248">"#))
            #expect(try await root.get("/admin?page=9").shows("201–250 of 250 accounts."), "past the end: the last page")
            for bad in ["0", "-1", "two", "1x", "99999999", "1.5"] {
                let refused = try await root.get("/admin?page=\(bad)")
                #expect(refused.status == .badRequest, "page \(bad)")
            }

            let found = try await root.get("/admin?q=USER1")
            #expect(Self.accountRows(found) == 100, "user100 to user199, whatever the case typed")
            #expect(found.shows("1–100 of 100 accounts whose names contain “USER1”."))
            #expect(found.text.contains(#"value="USER1""#))
            #expect(!found.text.contains(#"<tr data-user="bob">"#))
            let none = try await root.get("/admin?q=%3Cb%3Enobody")
            #expect(none.status == .ok && Self.accountRows(none) == 0)
            #expect(none.text.contains("No account names contain “&lt;b&gt;nobody”."))

            let second = try await root.get("/admin?q=user&page=2")
            #expect(second.shows("101–200 of 248 accounts whose names contain “user”."))
            #expect(second.text.contains(#"<input type="hidden" name="q" value="user"><input type="hidden" name="page" value="2">"#))
            let user150 = try await Self.userID("user150", server)
            let disabled = try await root.post("/admin/users/\(user150)/disable", [("q", "user"), ("page", "2")])
            #expect(disabled.location == "/admin?done=disabled&q=user&page=2")
            let back = try await root.get(disabled.location ?? "")
            #expect(back.shows("The account is disabled and signed out everywhere."))
            #expect(back.shows("101–200 of 248 accounts"))
            #expect(try await root.post("/admin/users/\(user150)/enable", [("page", "junk")]).location == "/admin?done=enabled",
                    "the action is done; a page that does not parse returns to the first")
        }
    }

    /// The link from the admin page that made it, as a path.
    static func newLink(in page: TestResponse) throws -> String {
        let link = try #require(page.text.firstMatch(of: /id="new-link-url" type="text" readonly value="http:\/\/[^\/"]+(\/[^"]+)"/)?.1)
        return String(link).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func aResetLinkSetsANewPasswordOnceEndsTheSessionsAndThenSaysItWasUsed() async throws {
        let time = ManualClock()
        try await Self.withAdmin(clock: time.clock) { server, root, bob in
            let bobID = try await Self.userID("bob", server)
            let made = try await root.post("/admin/users/\(bobID)/reset-link", [])
            #expect(made.status == .ok)
            #expect(made.shows("Password-reset link for bob"))
            let path = try Self.newLink(in: made)
            #expect(path.hasPrefix("/reset/"))
            #expect(!(try await root.get("/admin")).text.contains(path), "shown once")

            var stranger = TestBrowser(client: root.client)
            let form = try await stranger.get(path)
            #expect(form.status == .ok && form.text.contains("For the account <strong>bob</strong>."))
            #expect(form.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            let mismatch = try await stranger.post(path, [("new_password", "a brand new one"), ("new_password_confirm", "another")])
            #expect(mismatch.status == .unprocessableContent && mismatch.shows("The two passwords differ."))
            let done = try await stranger.post(path, [("new_password", "a brand new one"), ("new_password_confirm", "a brand new one")])
            #expect(done.status == .seeOther && done.location == "/login?done=password-reset")
            #expect(try await bob.get("/wishlist").status == .seeOther, "Bob's old session ended")
            var fresh = TestBrowser(client: root.client)
            #expect(try await fresh.signIn("bob", password: "a brand new one").status == .seeOther)

            let used = try await stranger.get(path)
            #expect(used.status == .gone && used.shows("A password-reset link works once"))
            #expect(try await stranger.post(path, [("new_password", "third password!"), ("new_password_confirm", "third password!")]).status == .gone)
            #expect(try await stranger.get("/reset/" + String(repeating: "x", count: 43)).status == .notFound)

            let expiring = try Self.newLink(in: try await root.post("/admin/users/\(bobID)/reset-link", []))
            time.advance(by: PasswordResetLinks.lifetime + 1)
            let expired = try await stranger.get(expiring)
            #expect(expired.status == .gone && expired.shows("Password-reset links work for 24 hours when an admin makes them"))
            #expect((try await root.get("/admin")).text.contains("root made a password-reset link for bob"))
        }
    }

    @Test func invitesMakeOneAccountEachAndEveryOtherLinkSaysWhyNot() async throws {
        let time = ManualClock()
        try await Self.withAdmin(clock: time.clock, { $0.accounts.signup = .invite }) { server, root, bob in
            var visitor = TestBrowser(client: root.client)
            let closed = try await visitor.get("/signup")
            #expect(closed.status == .notFound && closed.shows("On this server accounts are made by invitation."))

            let path = try Self.newLink(in: try await root.post("/admin/invites", []))
            #expect(path.hasPrefix("/signup?invite="))
            let token = String(path.dropFirst("/signup?invite=".count))
            let form = try await visitor.get(path)
            #expect(form.status == .ok && form.text.contains(#"<input type="hidden" name="invite" value="\#(token)">"#))
            let fields = [("username", "carol"), ("email", ""), ("password", "carol's password"), ("password_confirm", "carol's password")]
            #expect(try await visitor.post("/signup", fields).status == .notFound, "no invite in the form")
            #expect(try await visitor.post("/signup", fields + [("invite", token)]).status == .seeOther)

            var second = TestBrowser(client: root.client)
            let used = try await second.get(path)
            #expect(used.status == .gone && used.shows("Each invite makes one account, and this one already did."))
            let again = [("username", "dave"), ("email", ""), ("password", "dave's password"), ("password_confirm", "dave's password"), ("invite", token)]
            #expect(try await second.post("/signup", again).status == .gone)
            #expect(try await second.get("/signup?invite=unknown").status == .notFound)

            let revokable = try Self.newLink(in: try await root.post("/admin/invites", []))
            let inviteID = try await server.database.pool.read { try Int64.fetchOne($0, sql: "SELECT MAX(id) FROM invite")! }
            #expect(try await root.post("/admin/invites/\(inviteID)/delete", []).location == "/admin?done=invite-revoked")
            #expect(try await second.get(revokable).status == .notFound)
            #expect(try await root.post("/admin/invites/\(inviteID)/delete", []).status == .notFound)

            let expiring = try Self.newLink(in: try await root.post("/admin/invites", []))
            time.advance(by: Invites.lifetime + 1)
            let expired = try await second.get(expiring)
            #expect(expired.status == .gone && expired.shows("Invites work for 7 days"))

            let users = try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT username FROM user ORDER BY id") }
            #expect(users == ["root", "bob", "carol"])
            let admin = try await root.get("/admin")
            #expect(admin.text.contains("<td>used by carol</td>") && admin.text.contains("<td>expired</td>"))
            #expect(admin.text.contains("root revoked invite"))
        }
    }

    @Test func resetTokensNeverReachTheLog() async throws {
        let log = LogCapture()
        let server = try await WishlistServer.build(config: try TestApp.config(), logger: log.logger)
        try await TestApp.run(server) { root in
            try await root.signUp("root")
            try await Administration(database: server.database, clock: .system).setAdmin(true, username: "root")
            let path = try Self.newLink(in: try await root.post("/admin/users/1/reset-link", []))
            var stranger = TestBrowser(client: root.client)
            #expect(try await stranger.get(path).status == .ok)
            #expect(log.all.contains { $0.contains("GET /reset/… 200") })
            #expect(!log.all.contains { $0.contains(path.dropFirst("/reset/".count)) })
        }
    }
}
