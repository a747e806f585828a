import CivilTime
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

extension TestBrowser {
    /// Saves Settings → Profile with only a display name typed ("" for none).
    mutating func setDisplayName(_ name: String) async throws -> TestResponse {
        try await post("/settings/profile", [("display_name", name)])
    }
}

@Suite("Display names over HTTP: chosen in Settings, shown wherever a member appears", .removesTemporaryDirectories)
struct DisplayNameHTTPTests {
    static func storedDisplayName(_ server: WishlistServer, of username: String) async throws -> String? {
        try await server.database.pool.read { db in
            try String.fetchOne(db, sql: "SELECT display_name FROM user WHERE username = ?", arguments: [username])
        }
    }

    @Test func aDisplayNameIsTrimmedUpToFortyCharactersWithoutInvisibleOnesAndEmptyMeansTheUsername() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            let saved = try await maya.setDisplayName("  Mum  ")
            #expect(saved.location == "/settings/profile?done=saved")
            #expect(try await Self.storedDisplayName(home.server, of: "maya") == "Mum")
            #expect(try await maya.get("/settings/profile").text.contains(#"id="display_name" name="display_name" type="text" value="Mum""#))

            // Forty characters of two bytes each, and a name whose "ë" is an "e" and a combining mark.
            let forty = String(repeating: "é", count: 40)
            #expect(try await maya.setDisplayName(forty).status == .seeOther, "characters are counted, not bytes")
            #expect(try await maya.setDisplayName("Zoe\u{308}").status == .seeOther)
            #expect(try await Self.storedDisplayName(home.server, of: "maya") == "Zoe\u{308}")

            let cases: [(String, String)] = [
                (forty + "e", "A display name can be up to 40 characters; this one has 41. Shorten it and save again."),
                ("Mu\tm", "A display name can’t hold control or invisible formatting characters"),
                ("Mum\nmaya", "A display name can’t hold control or invisible formatting characters"),
                ("\u{202E}ayam", "A display name can’t hold control or invisible formatting characters"),
                ("ma\u{200B}ya", "A display name can’t hold control or invisible formatting characters"),
                ("Mum (@maya)", "A display name can’t contain “@”, which marks usernames."),
                ("Mum ＠ home", "A display name can’t contain “@”, which marks usernames."),
            ]
            for (typed, sentence) in cases {
                let refused = try await maya.setDisplayName(typed)
                #expect(refused.status == .unprocessableContent, "\(typed.debugDescription)")
                #expect(refused.shows(sentence), "\(typed.debugDescription)")
                #expect(refused.text.contains(#"aria-invalid="true""#))
            }
            #expect(try await Self.storedDisplayName(home.server, of: "maya") == "Zoe\u{308}", "nothing refused was stored")

            #expect(try await maya.setDisplayName("   ").status == .seeOther)
            #expect(try await Self.storedDisplayName(home.server, of: "maya") == nil, "empty: use the username")
            #expect(try await maya.get("/wishlist").text.contains(#"<span class="visually-hidden">Signed in as </span>maya</span>"#))
        }
    }

    @Test func theNameIsShownWhereverTheMemberAppearsAndURLsKeepTheUsername() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, ben in
            // Seen once before the names change, so a page kept from then must not be served.
            #expect(try await ben.get("/people/maya").text.contains(#"<h1 id="page-title">maya</h1>"#))
            #expect(try await maya.setDisplayName("Mum").status == .seeOther)
            #expect(try await ana.setDisplayName("Auntie Ana").status == .seeOther)

            #expect(try await maya.get("/wishlist").text.contains(#"<span class="visually-hidden">Signed in as </span>Mum</span>"#))
            #expect(try await ben.get("/people").text.contains(#"<a class="person-link" href="/people/maya">Mum</a>"#))
            let member = try await ben.get("/people/maya")
            #expect(member.text.contains(#"<h1 id="page-title">Mum</h1>"#))
            #expect(member.text.contains(#"<p class="profile-username" id="profile-username">@maya</p>"#), "her page always says whose it is")
            #expect(member.shows("Mum’s wishlist"))
            #expect(member.text.contains("<title>Mum"))

            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            #expect(try await ben.get("/people/maya").shows("Reserved by Auntie Ana"))
            #expect(try await ana.post("/reservations/\(home.itemIDs[0])/bought", [("return_to", "/reservations")]).status == .seeOther)
            #expect(try await ben.get("/people/maya").shows("Bought by Auntie Ana"))
            let idea = try #require(try await CatalogStore(database: home.server.database).list(named: "hardcover-fiction")?.1[5].book.id)
            #expect(try await ana.post("/people/maya/ideas", [("book", idea), ("note", "")]).status == .seeOther)
            #expect(try await ben.get("/people/maya/ideas").shows("Suggested by Auntie Ana"))
            let lost = try await ben.reserve(home.itemIDs[0])
            #expect(lost.status == .conflict)
            #expect(lost.shows("Already reserved by Auntie Ana — pick another."))
            #expect(try await ana.get("/reservations").text.contains(#"<a href="/people/maya">Mum</a>"#))

            let book = try await home.server.database.pool.read { db in
                try String.fetchOne(db, sql: "SELECT book_id FROM wishlist_item WHERE id = ?", arguments: [home.itemIDs[0]])!
            }
            try await ana.share()
            _ = try await ana.markRead(book, rating: "4", review: "Loved the ending.")
            #expect(try await ben.get("/books/\(book)").text.contains(#"<a href="/people/ana">Auntie Ana</a>"#))

            _ = try await ana.post("/reservations/\(home.itemIDs[0])/card", [("message", "Happy reading")])
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/received", []).status == .seeOther)
            #expect(try await maya.get("/wishlist/received").shows("From Auntie Ana"))
            #expect(try await ana.get("/reservations").text.contains("<strong>Mum</strong> got “"))
        }
    }

    @Test func birthdaysTheAdminListTheShareLinkAndTheFeedNameTheMemberToo() async throws {
        let now = CivilDateTime.date(year: 2026, month: 12, day: 20, hour: 12)
        let server = try await TestApp.build(clock: ManualClock(now).clock)
        try await TestApp.run(server) { browser in
            var maya = TestBrowser(client: browser.client)
            try await maya.signUp("maya")
            try await maya.share()
            #expect(try await maya.post("/settings/profile", [("display_name", "Mum"), ("birthday_month", "12"), ("birthday_day", "21")]).status == .seeOther)
            var ana = TestBrowser(client: browser.client)
            try await ana.signUp("ana")
            #expect(try await ana.get("/people").text.contains(#"<li class="birthday"><a href="/people/maya">Mum</a>: Birthday tomorrow"#))

            let shared = try await maya.get(try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/settings/share-link", [])))
            #expect(shared.text.contains("<title>Mum’s wishlist"))
            #expect(shared.shows("Mum shared this list"))
            let feed = try await maya.get(try HistoryPagesTests.feedPath(in: try await maya.post("/settings/feed-link", [])))
            #expect(feed.text.contains("<title>New on Mum’s favourite lists</title>"))

            // /admin always gives both names.
            try await Administration(database: server.database, clock: .system).setAdmin(true, username: "maya")
            let admin = try await maya.get("/admin")
            #expect(admin.text.contains(#"<span class="admin-display-name">Mum</span> (@maya)"#))
            #expect(try await maya.get("/admin?q=mum").text.contains(#"data-user="maya""#), "found by the display name too")
        }
    }

    @Test func aNameAnotherAccountCouldBeTakenForHasTheUsernameBesideIt() async throws {
        let home = try await Household.make()
        try await home.run(sharing: [.maya, .ana]) { maya, ana, ben in
            // Ben calls himself "Maya": another account's username, whatever the case.
            #expect(try await ben.setDisplayName("MAYA").status == .seeOther)
            try await ben.share()
            var people = try await ana.get("/people")
            #expect(people.text.contains(#"href="/people/ben">MAYA (@ben)</a>"#))
            #expect(people.text.contains(#"href="/people/maya">maya</a>"#), "the real maya needs nothing beside hers")
            // Full-width letters read the same.
            #expect(try await ben.setDisplayName("ｍａｙａ").status == .seeOther)
            #expect(try await ana.get("/people").text.contains(#"href="/people/ben">ｍａｙａ (@ben)</a>"#))

            // Two who choose the same display name both get their usernames.
            #expect(try await ben.setDisplayName("Mum").status == .seeOther)
            #expect(try await maya.setDisplayName("mum").status == .seeOther)
            people = try await ana.get("/people")
            #expect(people.text.contains(#"href="/people/ben">Mum (@ben)</a>"#))
            #expect(people.text.contains(#"href="/people/maya">mum (@maya)</a>"#))
            #expect(try await ben.get("/people/maya").text.contains(#"<h1 id="page-title">mum (@maya)</h1>"#))

            // Once ben picks another, both names stand alone again.
            #expect(try await ben.setDisplayName("Dad").status == .seeOther)
            people = try await ana.get("/people")
            #expect(people.text.contains(#"href="/people/ben">Dad</a>"#) && people.text.contains(#"href="/people/maya">mum</a>"#))
        }
    }

    /// Issue 50: a Cyrillic "а" or a zero-width joiner made "alice" without "(@eve)" on "Reserved
    /// by" and on cards; names are compared by what they look like (``NameSkeleton``).
    @Test func aLookAlikeOfAnotherMembersNameHasTheUsernameBesideItOnReservationsAndCards() async throws {
        let home = try await Household.make()
        try await home.run(sharing: []) { maya, ana, _ in
            var alice = TestBrowser(client: maya.client)
            try await alice.signUp("alice")
            var eve = TestBrowser(client: maya.client)
            try await eve.signUp("eve")
            try await maya.share()
            for (lookAlike, item) in [("\u{0430}lice", home.itemIDs[0]), ("al\u{200D}ice", home.itemIDs[1])] {
                #expect(try await eve.setDisplayName(lookAlike).status == .seeOther, "\(lookAlike.debugDescription)")
                #expect(try await eve.reserve(item).status == .seeOther)
                #expect(try await eve.post("/reservations/\(item)/card", [("message", "From your friend")]).status == .seeOther)
                #expect(try await ana.get("/people/maya").shows("Reserved by \(lookAlike) (@eve)"), "\(lookAlike.debugDescription)")
                #expect(try await maya.post("/wishlist/\(item)/received", []).status == .seeOther)
                #expect(try await maya.get("/wishlist/received").shows("From \(lookAlike) (@eve)"), "\(lookAlike.debugDescription)")
            }
            // The real alice, who chose no display name, needs nothing beside hers.
            #expect(try await alice.reserve(home.itemIDs[2]).status == .seeOther)
            let page = try await ana.get("/people/maya")
            #expect(page.shows("Reserved by alice") && !page.text.contains("(@alice)"))
        }
    }

    @Test func aNameIsTextWhateverItHolds() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            #expect(try await maya.setDisplayName("<b>Mum</b>").status == .seeOther)
            var page = try await ana.get("/people/maya")
            #expect(page.text.contains(#"<h1 id="page-title">&lt;b&gt;Mum&lt;/b&gt;</h1>"#))
            #expect(!page.text.contains("<b>Mum"))
            #expect(try await ana.get("/people").text.contains(#">&lt;b&gt;Mum&lt;/b&gt;</a>"#))
            // Right-to-left letters and a combining mark come back as they were typed.
            let name = "مريم Zoe\u{308}"
            #expect(try await maya.setDisplayName(name).status == .seeOther)
            page = try await ana.get("/people/maya")
            #expect(page.text.contains(#"<h1 id="page-title">\#(name)</h1>"#))
            #expect(page.text.contains(#">\#(name)’s wishlist"#))
        }
    }

    @Test func mailGreetsByTheDisplayNameAndNamesTheInviterAndTheBirthdaysByTheirs() async throws {
        let time = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        let server = try await MailHTTPTests.build(clock: time.clock)
        let digests = try DigestService.queueing(into: server.database, clock: time.clock)
        try await TestApp.run(server) { browser in
            try await browser.signUp("ann", email: "ann@example.com")
            try await browser.get(try #require(try await QueuedMail.all(server.database, kind: "verification").first?.path(startingWith: "/verify-email/")))
            #expect(try await browser.setDisplayName("Granny Ann").status == .seeOther)
            #expect(try await browser.post("/settings/digest", [("digest", "weekly")]).status == .seeOther)
            // Bea shares, goes by "Auntie B" and has a birthday in three days.
            try await server.database.pool.write { db in
                try db.execute(sql: """
                    INSERT INTO user (username, username_key, password_hash, created_at, sharing, birthday, display_name, display_name_key)
                    VALUES ('bea', 'bea', 'x', '2026-01-01 00:00:00.000', 'household', '11-28', 'Auntie B', 'auntie b')
                    """)
            }
            time.advance(by: 7 * 86_400)
            #expect(try await digests.queueDue() == 1)
            let digest = try #require(try await QueuedMail.all(server.database, kind: "digest").first)
            #expect(digest.text.contains("Hello Granny Ann, here is what happened this week."))
            #expect(digest.text.contains("- Auntie B: 28 November, in 3 days"))
            #expect(digest.text.contains("  http://localhost:8080/people/bea"), "the link keeps the username")

            try await server.database.pool.write { try $0.execute(sql: "UPDATE user SET is_admin = 1 WHERE username = 'ann'") }
            try await browser.get("/admin")
            #expect(try await browser.post("/admin/invites", [("email", "friend@example.com")]).status == .ok)
            let invite = try #require(try await QueuedMail.all(server.database, kind: "invite").first)
            #expect(invite.text.contains("Granny Ann invites you to Bestseller Wishlist"))
        }
    }

    @Test func theDataExportCarriesTheDisplayName() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            var without = try await DataExportHTTPTests.download(&maya)
            var account = try #require(without.json["account"] as? [String: Any])
            #expect(account["display_name"] == nil, "a value she never set is left out")
            #expect(try await maya.setDisplayName("Mum").status == .seeOther)
            without = try await DataExportHTTPTests.download(&maya)
            account = try #require(without.json["account"] as? [String: Any])
            #expect(account["display_name"] as? String == "Mum")
            #expect(account["username"] as? String == "maya")
        }
    }
}
