import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Accounts over HTTP: sign-up, sign-in, sessions, CSRF, throttling", .removesTemporaryDirectories)
struct AccountsHTTPTests {
    // MARK: Sign-up

    @Test("each sign-up mistake is shown beside its field, input kept, password never echoed", arguments: [
        ("al", "a@b.co", "secret-password", "secret-password", "Use 3 to 32 characters."),
        ("al ice", "", "secret-password", "secret-password", "Use only letters, digits"),
        ("alice", "not-an-address", "secret-password", "secret-password", "Enter an e-mail address"),
        ("alice", "", "short", "short", "Use at least 8 characters."),
        ("alice", "", "secret-password", "other-password", "The two passwords differ."),
        ("", "", "secret-password", "secret-password", "Enter a username."),
    ])
    func signupValidation(username: String, email: String, password: String, confirm: String, message: String) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.get("/signup")
            let response = try await browser.post(
                "/signup", [("username", username), ("email", email), ("password", password), ("password_confirm", confirm)]
            )
            #expect(response.status == .unprocessableContent)
            #expect(response.shows(message))
            #expect(!response.text.contains(password), "the password is never sent back")
            if !username.isEmpty { #expect(response.text.contains("value=\"\(username)\"")) }
        }
        #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM user") } == 0)
    }

    @Test func passwordOfAnyCharactersUpTo1024IsAcceptedAndLongerRefused() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let longest = String(repeating: "é😀", count: 512)
            #expect(try await browser.signUp("unicode", password: longest).status == .seeOther)
            var other = TestBrowser(client: browser.client)
            let tooLong = longest + "x"
            let response = try await other.signUp("toolong", password: tooLong)
            #expect(response.status == .unprocessableContent)
            #expect(response.shows("Use at most 1,024 characters."))
            // No truncation: the 1024-character password works only whole.
            var third = TestBrowser(client: browser.client)
            #expect(try await third.signIn("unicode", password: String(longest.dropLast())).status == .unprocessableContent)
            #expect(try await third.signIn("unicode", password: longest).status == .seeOther)
        }
    }

    @Test func duplicateUsernameInAnotherCaseIsRefused() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            #expect(try await browser.signUp("Alice").status == .seeOther)
            var other = TestBrowser(client: browser.client)
            let response = try await other.signUp("aLICE")
            #expect(response.status == .unprocessableContent)
            #expect(response.shows("That username isn’t available"))
        }
    }

    @Test func signupSignsInAndLandsOnTheWelcome() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let response = try await browser.signUp("reader", email: "reader@example.com")
            #expect(response.status == .seeOther)
            #expect(response.location == "/welcome")
            #expect(try await browser.get("/").location == "/lists")
            let settings = try await browser.get("/settings")
            #expect(settings.status == .ok)
            #expect(settings.shows("reader"))
        }
    }

    @Test func closedSignupHidesTheFormAndRefusesPosts() async throws {
        let server = try await TestApp.build { $0.accounts.signup = .closed }
        try await TestApp.run(server) { browser in
            #expect(try await browser.get("/signup").status == .notFound)
            #expect(!(try await browser.get("/login").text.contains("href=\"/signup\"")))
            let response = try await browser.post("/signup", [("username", "x"), ("password", "y")])
            #expect(response.status == .notFound)
        }
    }

    @Test func storedHashIsArgon2idWithTheDefaultParameters() async throws {
        let server = try await TestApp.build { $0.accounts.argon2 = AppConfig.Argon2() }
        let status = try await TestApp.run(server) { browser in try await browser.signUp("hashcheck").status }
        #expect(status == .seeOther)
        let hash = try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT password_hash FROM user") }
        #expect(hash?.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$") == true)
    }

    // MARK: Sign-in

    @Test func unknownUserAndWrongPasswordAnswerIdentically() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("known")
            var first = TestBrowser(client: browser.client)
            var second = TestBrowser(client: browser.client)
            let wrongPassword = try await first.signIn("known", password: "not the password")
            let unknownUser = try await second.signIn("unknown", password: "not the password")
            #expect(wrongPassword.status == .unprocessableContent)
            #expect(wrongPassword.status == unknownUser.status)
            #expect(wrongPassword.shows("Wrong username or password."))
            let withoutTokens = { (text: String) in
                text.replacing(/value="[A-Za-z0-9_-]{43}"/, with: "TOKEN").replacing(/value="(known|unknown)"/, with: "NAME")
            }
            #expect(withoutTokens(wrongPassword.text) == withoutTokens(unknownUser.text))
            let headerNames = { (response: TestResponse) in Set(response.headers.map(\.name.canonicalName)) }
            #expect(headerNames(wrongPassword) == headerNames(unknownUser))
        }
    }

    @Test func emptyFieldsHaveTheirOwnMessages() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.get("/login")
            let response = try await browser.post("/login", [("username", ""), ("password", "")])
            #expect(response.status == .unprocessableContent)
            #expect(response.shows("Enter your username."))
            #expect(response.shows("Enter your password."))
        }
    }

    @Test("?next= leads only to local paths", arguments: [
        ("/settings", "/settings"),
        ("/lists?q=fiction", "/lists?q=fiction"),
        ("//evil.example", "/"),
        ("/\\evil.example", "/"),
        ("https://evil.example/", "/"),
        ("javascript:alert(1)", "/"),
        ("http:/evil.example", "/"),
        ("/%0d%0aSet-Cookie:x", "/%0d%0aSet-Cookie:x"),
        (" /settings", "/"),
    ])
    func nextParameter(next: String, expected: String) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("traveller")
            try await browser.post("/logout", [])
            let response = try await browser.signIn("traveller", next: next)
            #expect(response.status == .seeOther)
            #expect(response.location == expected)
        }
    }

    @Test func signedOutVisitorsAreSentToSignInWithTheirDestination() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            let response = try await browser.get("/settings")
            #expect(response.status == .seeOther)
            #expect(response.location == "/login?next=/settings")
            let page = try await browser.get("/login?next=/settings")
            #expect(page.text.contains("value=\"/settings\""))
        }
    }

    // MARK: CSRF

    @Test func postsWithoutTheRightCSRFTokenAreRefused() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("victim")
            var attacker = TestBrowser(client: browser.client)
            try await attacker.get("/login")
            let missing = try await browser.post("/logout", [("csrf_token", "")])
            let wrong = try await browser.post("/logout", [("csrf_token", String(repeating: "A", count: 43))])
            let fromAnotherSession = try await browser.post("/logout", [("csrf_token", attacker.csrfToken)])
            for response in [missing, wrong, fromAnotherSession] {
                #expect(response.status == .forbidden)
                #expect(response.shows("reload the page"))
            }
            #expect(try await browser.get("/settings").status == .ok, "still signed in: nothing happened")
        }
    }

    @Test func signInFormIsProtectedToo() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("member")
            var fresh = TestBrowser(client: browser.client)
            try await fresh.get("/login")
            let response = try await fresh.post("/login", [("username", "member"), ("password", "correct horse battery"), ("csrf_token", "forged")])
            #expect(response.status == .forbidden)
        }
    }

    @Test func crossOriginPostsAreRefusedEvenWithAToken() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("origin")
            let foreign = try await browser.post("/logout", [], headers: [.origin: "https://evil.example"])
            #expect(foreign.status == .forbidden)
            #expect(try await browser.get("/settings").status == .ok, "still signed in")
            // A page sent with no-referrer (a share link's) posts with `Origin: null`: the token decides.
            let opaque = try await browser.post("/settings/default-list", [("list", ""), ("csrf_token", "forged")], headers: [.origin: "null"])
            #expect(opaque.status == .forbidden)
            #expect(try await browser.post("/logout", [], headers: [.origin: "null"]).status == .seeOther)
        }
    }

    @Test("Origin must name the host the request was sent to", arguments: [
        ("http://localhost:8080", "localhost:8080", true),
        ("https://Wishlist.example", "wishlist.example", true),
        ("https://evil.example", "wishlist.example", false),
        ("http://wishlist.example:81", "wishlist.example", false),
        ("null", "wishlist.example", false),
        ("ftp://wishlist.example", "wishlist.example", false),
    ])
    func originCheck(origin: String, authority: String, allowed: Bool) {
        #expect(CSRFMiddleware.isSameOrigin(origin: origin, authority: authority) == allowed)
    }

    // MARK: Sessions and cookies

    @Test func signInIssuesANewTokenSoAFixedCookieIsWorthless() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("fixed")
            try await browser.post("/logout", [])
            try await browser.get("/login")
            let planted = try #require(browser.sessionCookie)
            try await browser.signIn("fixed")
            #expect(browser.sessionCookie != planted)
            var attacker = TestBrowser(client: browser.client)
            attacker.sessionCookie = planted
            #expect(try await attacker.get("/settings").status == .seeOther, "the pre-sign-in token does not sign anyone in")
        }
    }

    @Test func cookieAttributes() async throws {
        let plain = try await TestApp.build()
        try await TestApp.run(plain) { browser in
            let response = try await browser.signUp("cookies")
            let cookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("wishlist_session=") })
            for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] { #expect(cookie.contains(attribute)) }
            #expect(!cookie.contains("Secure"))
        }
        let secure = try await TestApp.build { $0.server.secureCookies = true }
        try await TestApp.run(secure) { browser in
            browser.cookieName = "__Host-wishlist_session"
            let response = try await browser.get("/login")
            let cookie = try #require(response.headers[values: .setCookie].first)
            #expect(cookie.hasPrefix("__Host-wishlist_session="))
            for attribute in ["Secure", "HttpOnly", "SameSite=Lax", "Path=/"] { #expect(cookie.contains(attribute)) }
            #expect(!cookie.contains("Domain"))
        }
    }

    @Test func onlyTheTokensHashIsStored() async throws {
        let server = try await TestApp.build()
        let token = try await TestApp.run(server) { browser in
            try await browser.signUp("hashed")
            return try #require(browser.sessionCookie)
        }
        let stored = try await server.database.pool.read { try Data.fetchOne($0, sql: "SELECT token_hash FROM session") }
        #expect(stored == Data(Digests.sha256(Array(token.utf8))))
        #expect(stored?.count == 32)
    }

    @Test func logoutDeletesTheSessionSoTheOldCookieNoLongerWorks() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("leaver")
            let old = try #require(browser.sessionCookie)
            let response = try await browser.post("/logout", [])
            #expect(response.location == "/login")
            var replay = TestBrowser(client: browser.client)
            replay.sessionCookie = old
            #expect(try await replay.get("/settings").status == .seeOther)
        }
        #expect(try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM session") } == 0)
    }

    @Test func sessionsExpireWhenIdleAndAfterTheirAbsoluteLifetime() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        try await TestApp.run(server) { browser in
            try await browser.signUp("idle")
            time.advance(by: 13 * 86_400)
            #expect(try await browser.get("/settings").status == .ok, "13 idle days: still signed in")
            time.advance(by: 14 * 86_400 + 1)
            #expect(try await browser.get("/settings").status == .seeOther, "over 14 idle days: signed out")

            try await browser.signIn("idle")
            for _ in 0..<29 {
                time.advance(by: 86_400)
                #expect(try await browser.get("/settings").status == .ok)
            }
            time.advance(by: 86_400 + 1)
            #expect(try await browser.get("/settings").status == .seeOther, "over 30 days since sign-in: signed out")
        }
    }

    // MARK: Throttling

    @Test func failedSignInsAreThrottledPerAccountAndTheLimitResets() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        try await TestApp.run(server) { browser in
            try await browser.signUp("target")
            try await browser.post("/logout", [])
            for _ in 0..<5 {
                #expect(try await browser.signIn("target", password: "wrong guess").status == .unprocessableContent)
            }
            let blocked = try await browser.signIn("target")
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] == "900")
            #expect(blocked.shows("Try again in 15 minutes."))
            time.advance(by: 15 * 60 + 1)
            #expect(try await browser.signIn("target").status == .seeOther)
        }
    }

    @Test func failedSignInsAreThrottledPerClientAddress() async throws {
        let server = try await TestApp.build { $0.accounts.failedLoginsPerAddress = 3 }
        try await TestApp.run(server) { browser in
            for name in ["one", "two", "three"] {
                #expect(try await browser.signIn(name, password: "wrong guess").status == .unprocessableContent)
            }
            let blocked = try await browser.signIn("four", password: "wrong guess")
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] != nil)
        }
    }

    @Test func signupsAreThrottledPerClientAddress() async throws {
        let server = try await TestApp.build { $0.accounts.signupsPerAddress = 2 }
        try await TestApp.run(server) { browser in
            for name in ["first", "second"] {
                var visitor = TestBrowser(client: browser.client)
                #expect(try await visitor.signUp(name).status == .seeOther)
            }
            let blocked = try await browser.signUp("third")
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.shows("Try again in"))
        }
    }

    // MARK: Settings

    @Test func changingThePasswordSignsOutTheOtherSessions() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("changer")
            var laptop = TestBrowser(client: browser.client)
            try await laptop.signIn("changer")
            try await browser.get("/settings")
            let wrong = try await browser.post("/settings/password", [
                ("current_password", "nope"), ("new_password", "a brand new password"), ("new_password_confirm", "a brand new password"),
            ])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.shows("That is not your current password."))
            #expect(wrong.text.contains(#"<h1 id="page-title">Password</h1>"#), "the form's own section again")
            let changed = try await browser.post("/settings/password", [
                ("current_password", "correct horse battery"), ("new_password", "a brand new password"),
                ("new_password_confirm", "a brand new password"),
            ])
            #expect(changed.location == "/settings/password?done=password#flash")
            #expect(try await browser.get("/settings").status == .ok, "this browser stays signed in")
            #expect(try await laptop.get("/settings").status == .seeOther, "the other one is signed out")
            #expect(try await laptop.signIn("changer", password: "a brand new password").status == .seeOther)
        }
    }

    @Test func settingsListsSessionsAndCanSignOutTheOthers() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("many")
            var phone = TestBrowser(client: browser.client)
            phone.userAgent = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1"
            try await phone.signIn("many")
            let page = try await browser.get("/settings/sign-in")
            #expect(page.shows("Chrome on Linux"))
            #expect(page.shows("Safari on iOS"))
            let response = try await browser.post("/settings/sessions/sign-out-others", [])
            #expect(response.location == "/settings/sign-in?done=signed-out-others#flash")
            #expect(try await phone.get("/settings").status == .seeOther)
            #expect(try await browser.get("/settings").status == .ok)
        }
    }

    /// Gives a signed-up user a row of every kind: a session, failed sign-ins (throttle events
    /// under their name), wishlist items, a favourite list, a start list, a shared list, a share
    /// link, a feed link, a passkey and a passkey challenge not yet answered. Reservations need
    /// two users: see `reserveEachOthersFirstBook`.
    static func giveEveryKindOfRow(_ browser: inout TestBrowser, _ username: String, books: [String]) async throws {
        try await browser.signUp(username)
        try await browser.get("/lists")
        for book in books { try await browser.post("/wishlist", [("book", book), ("return_to", "/lists")]) }
        try await browser.post("/lists/hardcover-fiction/favorite", [("return_to", "/lists")])
        try await browser.post("/settings/default-list", [("list", "hardcover-fiction")])
        try await browser.post("/settings/sharing", [("sharing", "household")])
        try await browser.post("/settings/share-link", [])
        try await browser.post("/settings/feed-link", [])
        try await browser.markRead(books[0], rating: "5", review: "\(username) loved it")
        // A book she reads now, and this year's goal (issue 57).
        try await browser.post("/books/\(books[1])/reading-now", [])
        try await browser.post("/reading/goal", [("goal", "12")])
        let readingID = try #require(try await browser.get("/settings/profile").text.firstMatch(of: /name="favorite_(\d+)"/)?.1)
        try await browser.post("/settings/profile", [("bio", "I am \(username)"), ("birthday_month", "3"), ("birthday_day", "14"), ("favorite_\(readingID)", "yes")])
        #expect(try await browser.uploadPicture(PictureSamples.png(width: 300, height: 200)).status == .seeOther)
        // The newest of the books wished for arrives (the oldest stays for the reservations below).
        let newest = try #require(try await browser.get("/wishlist").text.matches(of: /href="\/wishlist\/(\d+)\/remove"/).compactMap { Int($0.1) }.max())
        #expect(try await browser.post("/wishlist/\(newest)/received", []).status == .seeOther)
        var authenticator = PasskeyHTTPTests.authenticator()
        try await PasskeyHTTPTests.addPasskey(&browser, &authenticator)
        try await PasskeyHTTPTests.postJSON(&browser, "/passkeys/registration/options", #"{"password":"correct horse battery"}"#)
        // Last: a right password (adding the passkey) forgives the account's failures.
        var stranger = TestBrowser(client: browser.client)
        #expect(try await stranger.signIn(username, password: "not the password").status == .unprocessableContent)
    }

    /// Each reserves the other's oldest book as a gift.
    static func reserveEachOthersFirstBook(_ one: inout TestBrowser, _ other: inout TestBrowser, _ database: AppDatabase) async throws {
        let firstItems = try await database.pool.read { try Int64.fetchAll($0, sql: "SELECT MIN(id) FROM wishlist_item GROUP BY user_id ORDER BY user_id") }
        #expect(try await one.post("/reservations", [("item", "\(firstItems[1])")]).status == .seeOther)
        #expect(try await other.post("/reservations", [("item", "\(firstItems[0])")]).status == .seeOther)
    }

    /// For every table (read from sqlite_master, so a table added later is included): the rows
    /// whose foreign key points at the user, and the rows with the username anywhere in their text.
    static func rowsOf(userID: UserID, username: String, _ db: Database) throws -> [String: Int] {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        var counts: [String: Int] = [:]
        for table in tables {
            let userColumns = try String.fetchAll(db, sql: "SELECT \"from\" FROM pragma_foreign_key_list(?) WHERE \"table\" = 'user'", arguments: [table])
            for column in userColumns + (table == "user" ? ["id"] : []) {
                counts["\(table).\(column)"] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\" WHERE \"\(column)\" = ?", arguments: [userID])
            }
            let mentions = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]).map { column in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\" WHERE instr(lower(CAST(\"\(column)\" AS TEXT)), ?) > 0", arguments: [username])!
            }
            if mentions.contains(where: { $0 > 0 }) { counts["\(table) naming \(username)"] = mentions.reduce(0, +) }
        }
        return counts
    }

    @Test func deletingTheAccountRemovesEveryRowOfTheUser() async throws {
        let server = try await TestApp.build()
        let database = server.database
        let books = try await WishlistHTTPTests.fictionIDs(server)
        try await TestApp.run(server) { keeper in
            try await Self.giveEveryKindOfRow(&keeper, "keeper-4k", books: Array(books.prefix(2)))
            var goner = TestBrowser(client: keeper.client)
            try await Self.giveEveryKindOfRow(&goner, "goner-9x", books: Array(books.suffix(2)))
            try await Self.reserveEachOthersFirstBook(&keeper, &goner, database)
            // Each suggests a gift idea for the other, from a book neither wished for.
            #expect(try await keeper.post("/people/goner-9x/ideas", [("book", books[5]), ("note", "for goner")]).status == .seeOther)
            #expect(try await goner.post("/people/keeper-4k/ideas", [("book", books[6]), ("note", "for keeper")]).status == .seeOther)
            // A child's profile she manages with the keeper, who keeps it, and a hand-over link she made for it (issue 51).
            #expect(try await goner.post("/people/children", [("name", "Kit")]).status == .seeOther)
            #expect(try await goner.post("/people/~kit/managers", [("action", "add"), ("username", "keeper-4k")]).status == .seeOther)
            #expect(try await goner.post("/people/~kit/hand-over", []).status == .ok)
            let (keeperID, gonerID) = try await database.pool.read { db in
                (try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'keeper-4k'")!,
                 try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'goner-9x'")!)
            }
            // A password-reset link the admin (here the keeper) made for the goner.
            _ = try await PasswordResetLinks(database: database, clock: .system).create(
                userID: gonerID, by: Administration.Actor(userID: keeperID, username: "keeper-4k")
            )
            // A personal API token (issue 54).
            _ = try await server.accounts.apiTokens.create(userID: gonerID, name: "script", scope: .read, expiryDays: nil)
            // A linked single sign-on identity and a linking under way (issue 32), which this
            // server, having no provider, cannot make over HTTP.
            try await SignInIdentities(database: database, clock: .system).link(userID: gonerID, issuer: "https://id.example", subject: "goner")
            _ = try await SignInAttempts(database: database, clock: .system).start(
                browserToken: "browser", address: "192.0.2.1", linkingUserID: gonerID, next: "/settings"
            )
            // Mail (issue 31): a confirmation link, a message waiting for her, a digest's unsubscribe link.
            try await database.pool.write { db in
                try db.execute(
                    sql: "INSERT INTO email_verification (user_id, email, token_hash, created_at, expires_at) VALUES (?, 'goner@example.com', X'01', ?, ?)",
                    arguments: [gonerID, Date(), Date()]
                )
                try MailOutbox.insert([1], sealedWith: OutboxKey(bytes: Array(repeating: 7, count: 32)), kind: .digest, userID: gonerID, recipient: MailAddress("goner@example.com")!, now: Date(), db)
                _ = try UnsubscribeLinks.create(userID: gonerID, now: Date(), db)
                // A Goodreads import under way (issue 50), which her deletion ends.
                try db.execute(sql: "INSERT INTO goodreads_import (user_id, started_at) VALUES (?, ?)", arguments: [gonerID, Date()])
                // An author she follows (issue 52).
                try db.execute(
                    sql: "INSERT INTO followed_author (user_id, author_key, name, followed_at) VALUES (?, 'colleen hoover', 'Colleen Hoover', ?)",
                    arguments: [gonerID, Date()]
                )
            }
            let keeperBefore = try await database.pool.read { try Self.rowsOf(userID: keeperID, username: "keeper-4k", $0) }
            let gonerBefore = try await database.pool.read { try Self.rowsOf(userID: gonerID, username: "goner-9x", $0) }
            // A member is never a child's row: a child's own deletion is ChildrenHTTPTests's.
            #expect(gonerBefore.filter { $0.value == 0 && !$0.key.hasSuffix(".child_id") }.isEmpty, "the user has rows in every table that refers to users: \(gonerBefore)")
            #expect(gonerBefore["throttle_event naming goner-9x"] != nil, "failed sign-ins are recorded under the name")

            try await goner.get("/settings")
            let refused = try await goner.post("/settings/delete-account", [("password", "wrong")])
            #expect(refused.status == .unprocessableContent)
            let deleted = try await goner.post("/settings/delete-account", [("password", "correct horse battery")])
            #expect(deleted.location == "/login")
            #expect(try await goner.get("/settings").status == .seeOther, "the session went with the account")

            let gonerAfter = try await database.pool.read { try Self.rowsOf(userID: gonerID, username: "goner-9x", $0) }
            let keeperAfter = try await database.pool.read { try Self.rowsOf(userID: keeperID, username: "keeper-4k", $0) }
            // Except the keeper's record of the gift they meant to give: it names the owner, to tell
            // the keeper that the list is gone, and it points at nothing of theirs any more.
            // And the audit log's line that the admin made them a reset link: it is the admin's record.
            #expect(
                gonerAfter.filter { $0.value > 0 } == ["reservation naming goner-9x": 1, "audit_event naming goner-9x": 1],
                "nothing else of the deleted user is left: \(gonerAfter)"
            )
            let notice = try await database.pool.read { try Row.fetchOne($0, sql: "SELECT * FROM reservation WHERE owner_name = 'goner-9x'") }
            #expect(notice?["giver_id"] == keeperID && notice?["item_id"] == nil && notice?["owner_id"] == nil)
            var keeperExpected = keeperBefore
            keeperExpected["reservation.owner_id"] = 0
            keeperExpected["reservation naming keeper-4k"] = nil
            // The ideas between them go: one was for the deleted user, the other was theirs.
            keeperExpected["gift_idea.suggested_by"] = 0
            keeperExpected["gift_idea.owner_id"] = 0
            #expect(keeperAfter == keeperExpected, "the other user's rows stay, but for the reservation the deleted user made")
        }
    }
}
