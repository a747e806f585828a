import CivilTime
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("E-mail over HTTP: confirmation, forgotten passwords, invites, the digest", .removesTemporaryDirectories)
struct MailHTTPTests {
    /// Mail on, to a port nothing listens on: messages stay in the outbox for the tests to read.
    static func build(clock: WallClock = .system) async throws -> WishlistServer {
        try await TestApp.build(clock: clock) { config in
            config.mail.smtpURL = "smtp://127.0.0.1:9"
            config.mail.from = "wishlist@example.com"
        }
    }

    static func verified(_ database: AppDatabase, _ username: String) async throws -> Bool {
        try await database.pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT email_verified_at IS NOT NULL FROM user WHERE username = ?", arguments: [username]) ?? false
        }
    }

    @Test func withoutMailNothingMailIsOffered() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            #expect(try await browser.get("/login").text.contains("/forgot") == false)
            #expect(try await browser.get("/forgot").status == .notFound)
            try await browser.signUp("ann", email: "ann@example.com")
            let settings = try await browser.get("/settings")
            #expect(!settings.text.contains("href=\"/settings/email\""), "no E-mail page in the section list")
            #expect(try await browser.get("/settings/email").status == .notFound)
            #expect(try await browser.post("/settings/email", [("email", "x@example.com")]).status == .notFound)
        }
        #expect(try await QueuedMail.all(server.database).isEmpty)
    }

    @Test func aNewAddressIsConfirmedByItsLinkOnce() async throws {
        let server = try await Self.build()
        try await TestApp.run(server) { browser in
            #expect(try await browser.signUp("ann", email: "ann@example.com").status == .seeOther)
            let mail = try #require(try await QueuedMail.all(server.database, kind: "verification").first)
            #expect(mail.recipient == "ann@example.com")
            #expect(mail.headers.contains("Subject: Confirm your e-mail address"))
            #expect(mail.headers.contains("To: \"ann\" <ann@example.com>"))
            #expect(try await browser.get("/settings/email").text.contains("id=\"email-unverified\""))
            let link = try #require(mail.path(startingWith: "/verify-email/"))
            let confirmed = try await browser.get(link)
            #expect(confirmed.status == .ok && confirmed.shows("your e-mail address is confirmed"))
            #expect(confirmed.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(try await Self.verified(server.database, "ann"))
            #expect(try await browser.get("/settings/email").text.contains("id=\"email-verified\""))
            #expect(try await browser.get(link).status == .gone)
            #expect(try await browser.get("/verify-email/" + String(repeating: "x", count: 43)).status == .notFound)
        }
    }

    @Test func aChangedAddressIsUnconfirmedAndTheOldLinkNoLongerWorks() async throws {
        let server = try await Self.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("ann", email: "ann@example.com")
            let first = try #require(try await QueuedMail.all(server.database, kind: "verification").first?.path(startingWith: "/verify-email/"))
            let changed = try await browser.post("/settings/email", [("email", "ann@books.example")])
            #expect(changed.status == .seeOther && changed.location == "/settings/email?done=email-changed#flash")
            #expect(try await browser.get(first).status == .notFound, "a link for the old address confirms nothing")
            let second = try await QueuedMail.all(server.database, kind: "verification")
            #expect(second.map(\.recipient) == ["ann@example.com", "ann@books.example"])
            #expect(try await browser.get(try #require(second[1].path(startingWith: "/verify-email/"))).status == .ok)
            #expect(try await Self.verified(server.database, "ann"))
            // A hostile address is refused beside the field.
            let refused = try await browser.post("/settings/email", [("email", "ann@example.com\r\nBcc: eve@example.com")])
            #expect(refused.status == .unprocessableContent && refused.shows("Enter an e-mail address like name@example.com"))
            #expect(refused.text.contains(#"<h1 id="page-title">E-mail</h1>"#), "the E-mail page again")
        }
    }

    @Test func sendAgainIsThrottled() async throws {
        let server = try await Self.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("ann", email: "ann@example.com")
            for _ in 0..<LoginThrottle.mailsPerAccount {
                #expect(try await browser.post("/settings/email/verify", []).status == .seeOther)
            }
            let refused = try await browser.post("/settings/email/verify", [])
            #expect(refused.status == .tooManyRequests)
            #expect(try await QueuedMail.all(server.database, kind: "verification").count == 1 + LoginThrottle.mailsPerAccount)
        }
    }

    @Test func forgotPasswordAnswersAlikeAndMailsOnlyAConfirmedAccount() async throws {
        let server = try await Self.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("ann", email: "ann@example.com")
            try await browser.signUp("bob", email: "bob@example.com")
            let confirm = try #require(try await QueuedMail.all(server.database, kind: "verification").first?.path(startingWith: "/verify-email/"))
            try await browser.get(confirm)
            try await browser.post("/logout", [])
            #expect(try await browser.get("/login").text.contains("href=\"/forgot\""))
            var answers: [String] = []
            for query in ["ann@example.com", "nobody", "bob"] {
                try await browser.get("/forgot")
                let answer = try await browser.post("/forgot", [("name_or_email", query)])
                #expect(answer.status == .ok)
                answers.append(answer.text.replacing(#/name="csrf_token" value="[^"]+"/#, with: ""))
            }
            #expect(Set(answers).count == 1, "a match, no match and an unconfirmed address answer the same")
            let resets = try await QueuedMail.awaited(server.database, kind: "password-reset")
            #expect(resets.map(\.recipient) == ["ann@example.com"], "bob's address is not confirmed, so it gets nothing")

            // The link sets a new password once and ends every session.
            var other = TestBrowser(client: browser.client)
            try await other.signIn("ann")
            let link = try #require(resets[0].path(startingWith: "/reset/"))
            #expect(try await browser.get(link).status == .ok)
            let done = try await browser.post(link, [("new_password", "a brand new password"), ("new_password_confirm", "a brand new password")])
            #expect(done.status == .seeOther)
            #expect(try await other.get("/settings").status == .seeOther, "the other browser was signed out")
            #expect(try await browser.get(link).status == .gone)
            #expect(try await browser.signIn("ann", password: "a brand new password").status == .seeOther)
        }
    }

    @Test func forgotPasswordIsThrottledPerClientAndPerAccount() async throws {
        let server = try await Self.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("ann", email: "ann@example.com")
            let confirm = try #require(try await QueuedMail.all(server.database, kind: "verification").first?.path(startingWith: "/verify-email/"))
            try await browser.get(confirm)
            try await browser.post("/logout", [])
            for _ in 0..<LoginThrottle.mailsPerAddress {
                #expect(try await browser.post("/forgot", [("name_or_email", "ann")]).status == .ok)
            }
            let refused = try await browser.post("/forgot", [("name_or_email", "ann")])
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil)
            // Five requests were admitted, but the account receives at most its three.
            let resets = try await QueuedMail.awaited(server.database, kind: "password-reset", count: LoginThrottle.mailsPerAccount)
            #expect(resets.count == LoginThrottle.mailsPerAccount)
        }
    }

    @Test func anInviteCanBeMailedFromAdmin() async throws {
        let server = try await Self.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("admin", email: "")
            try await server.database.pool.write { try $0.execute(sql: "UPDATE user SET is_admin = 1") }
            let page = try await browser.get("/admin")
            #expect(page.text.contains("id=\"invite-email\"") && page.text.contains("id=\"mail-outbox\"") == false)
            let bad = try await browser.post("/admin/invites", [("email", "\"a@b\"@example.com")])
            #expect(bad.status == .unprocessableContent && bad.shows("Enter an e-mail address like name@example.com"))
            let made = try await browser.post("/admin/invites", [("email", "friend@example.com")])
            #expect(made.status == .ok && made.shows("It is on its way to friend@example.com"))
            let invite = try #require(try await QueuedMail.all(server.database, kind: "invite").first)
            #expect(invite.recipient == "friend@example.com")
            let link = try #require(invite.path(startingWith: "/signup?invite="))
            #expect(made.text.contains(link.replacingOccurrences(of: "?", with: "?")))
            // The outbox shows on /admin, with the server's answer once a try was made.
            #expect(try await browser.get("/admin").text.contains("id=\"mail-outbox\""))
        }
    }

    @Test func theDigestGoesOnceAWeekOnlyWithNewsAndUnsubscribesInOneClick() async throws {
        let time = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        let server = try await Self.build(clock: time.clock)
        let digests = try DigestService.queueing(into: server.database, clock: time.clock)
        try await TestApp.run(server) { browser in
            try await browser.signUp("ann", email: "ann@example.com")
            try await browser.get(try #require(try await QueuedMail.all(server.database, kind: "verification").first?.path(startingWith: "/verify-email/")))
            #expect(try await browser.post("/settings/digest", [("digest", "weekly")]).location == "/settings/email?done=digest-on#flash")
            #expect(try await browser.get("/settings/email").text.contains("id=\"digest-weekly\" name=\"digest\" value=\"weekly\" checked"))
            // No news yet: nothing is sent, and the week is done.
            try await server.database.pool.write { try $0.execute(sql: "UPDATE edition SET fetched_at = '2020-01-01 00:00:00.000'") }
            #expect(try await digests.queueDue() == 0)
            // A sharing member's birthday in three days is news; but this week was considered already.
            try await server.database.pool.write { db in
                try db.execute(sql: "INSERT INTO user (username, username_key, password_hash, created_at, sharing, birthday) VALUES ('bea', 'bea', 'x', '2026-01-01 00:00:00.000', 'household', '11-21')")
            }
            #expect(try await digests.queueDue() == 0)
            time.advance(by: 7 * 86_400)
            try await server.database.pool.write { try $0.execute(sql: "UPDATE user SET birthday = '11-28' WHERE username = 'bea'") }
            #expect(try await digests.queueDue() == 1)
            #expect(try await digests.queueDue() == 0, "never twice in a week")
            let digest = try #require(try await QueuedMail.all(server.database, kind: "digest").first)
            #expect(digest.text.contains("bea: 28 November, in 3 days"))
            let unsubscribe = try #require(digest.path(startingWith: "/unsubscribe/"))
            #expect(digest.headers.contains("List-Unsubscribe: <http://localhost:8080\(unsubscribe)>"))
            #expect(digest.headers.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"))

            // A mail provider's one-click POST: no cookie, no CSRF token.
            var provider = TestBrowser(client: browser.client)
            #expect(try await provider.get(unsubscribe).text.contains("id=\"unsubscribe-form\""))
            let stopped = try await provider.send(
                unsubscribe, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "List-Unsubscribe=One-Click")
            )
            #expect(stopped.status == .ok && stopped.shows("You will get no more weekly digests"))
            #expect(try await browser.get("/settings/email").text.contains("id=\"digest-weekly\" name=\"digest\" value=\"weekly\" checked") == false)
            time.advance(by: 7 * 86_400)
            #expect(try await digests.queueDue() == 0)
            #expect(try await provider.post("/unsubscribe/" + String(repeating: "x", count: 43), []).status == .notFound)
        }
    }

    /// Issue 56: in a week when three confirmed members have the same news (books new on the list
    /// each of them starred), the digest goes to the one who asked for it and to nobody else: not
    /// to one who never asked, nor to one who asked and then turned it off. A week without news
    /// sends nothing to anyone, so it could not tell them apart.
    @Test func inAWeekWithNewsOnlyTheMemberWhoAskedGetsADigest() async throws {
        let time = ManualClock(Date(timeIntervalSince1970: 1_795_000_000))
        let server = try await Self.build(clock: time.clock)
        let zone = try ZoneRules.load(named: "UTC")
        let digests = DigestService(
            database: server.database, mailer: try Mailer.queueing(into: server.database, clock: time.clock),
            timeZone: zone, clock: time.clock, logger: .init(label: "test")
        )
        try await TestApp.run(server) { browser in
            for name in ["ann", "cat", "dan"] {
                var member = TestBrowser(client: browser.client)
                try await member.signUp(name, email: "\(name)@example.com")
                let confirmations = try await QueuedMail.all(server.database, kind: "verification")
                let link = try #require(confirmations.first { $0.recipient == "\(name)@example.com" }?.path(startingWith: "/verify-email/"))
                #expect(try await member.get(link).status == .ok)
                #expect(try await member.post("/lists/hardcover-fiction/favorite", [("return_to", "/lists")]).status == .seeOther)
                if name != "cat" {
                    #expect(try await member.post("/settings/digest", [("digest", "weekly")]).location == "/settings/email?done=digest-on#flash")
                }
                if name == "dan" {
                    #expect(try await member.post("/settings/digest", [("digest", "")]).location == "/settings/email?done=digest-off#flash")
                }
            }
            // The sample's editions were fetched as the server started, this week: each member has
            // the same news, books new on the list she starred.
            let now = time.clock.now()
            let news = try await server.database.pool.read { db in
                try ["ann", "cat", "dan"].map { name in
                    let id = try #require(try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username = ?", arguments: [name]))
                    return try DigestNews.read(userID: id, editionsFetchedAfter: StoredDate(now.addingTimeInterval(-7 * 86_400)), today: zone.localDay(at: now), db)
                }
            }
            #expect(!news[0].newOnLists.isEmpty && news.allSatisfy { $0 == news[0] }, "\(news)")

            #expect(try await digests.queueDue() == 1)
            #expect(try await QueuedMail.all(server.database, kind: "digest").map(\.recipient) == ["ann@example.com"])
        }
    }

    @Test func noMailTokenNorTheSMTPPasswordReachesTheLog() async throws {
        let log = LogCapture()
        let password = "smtp-Secret-Zq8"
        let config = try TestApp.config { config in
            config.mail.smtpURL = "smtp://127.0.0.1:9"
            config.mail.from = "wishlist@example.com"
            config.mail.username = "wishlist"
            config.mail.password = password
        }
        let server = try await WishlistServer.build(config: config, logger: log.logger)
        let mailer = try #require(server.mailSender)
        try await TestApp.run(server) { browser in
            try await browser.signUp("ann", email: "ann@example.com")
            let verification = try #require(try await QueuedMail.all(server.database, kind: "verification").first?.path(startingWith: "/verify-email/"))
            try await browser.get(verification)
            try await browser.get(verification + "x")
            try await browser.post("/logout", [])
            try await browser.post("/forgot", [("name_or_email", "ann")])
            let reset = try #require(try await QueuedMail.awaited(server.database, kind: "password-reset").first?.path(startingWith: "/reset/"))
            try await browser.get(reset)
            try await browser.get("/unsubscribe/" + String(repeating: "u", count: 43))
            try await server.database.pool.write { try $0.execute(sql: "UPDATE mail_outbox SET next_attempt_at = '2000-01-01 00:00:00.000'") }
            await mailer.sendDue()
            let lines = log.all.joined(separator: "\n")
            #expect(lines.contains("mail: message"), "the failed tries are logged")
            for secret in [password, String(verification.dropFirst(14)), String(reset.dropFirst(7)), String(repeating: "u", count: 43)] {
                #expect(!lines.contains(secret), "\(secret) reached the log")
            }
        }
    }

    /// Issue 50: neither the database nor a backup taken while the mail waits holds a link of
    /// it, in any encoding; the links themselves still work.
    @Test func noCopyOfTheDatabaseHoldsALinkFromTheMail() async throws {
        let server = try await Self.build()
        try await TestApp.run(server) { ann in
            try await ann.signUp("ann", email: "ann@example.com")
            try await server.database.pool.write { try $0.execute(sql: "UPDATE user SET is_admin = 1 WHERE username = 'ann'") }
            try await ann.post("/admin/invites", [("email", "friend@example.com")])
            var bob = TestBrowser(client: ann.client)
            try await bob.signUp("bob", email: "bob@example.com")
            let confirmations = try await QueuedMail.all(server.database, kind: "verification").compactMap { $0.path(startingWith: "/verify-email/") }
            try await bob.get(confirmations[1])
            try await bob.post("/logout", [])
            try await bob.post("/forgot", [("name_or_email", "bob")])
            let reset = try #require(try await QueuedMail.awaited(server.database, kind: "password-reset").first?.path(startingWith: "/reset/"))
            let invite = try #require(try await QueuedMail.all(server.database, kind: "invite").first?.path(startingWith: "/signup?invite="))
            let tokens = (confirmations + [reset, invite]).map { String($0.split(whereSeparator: { "/=".contains($0) }).last!) }
            #expect(tokens.count == 4 && tokens.allSatisfy { $0.utf8.count == 43 })

            let backup = try temporaryDirectory().appendingPathComponent("backup.sqlite").path
            try DatabaseBackup.write(server.database, to: backup)
            for (copy, bytes) in [("the database", try DatabaseBytes.of(server.database.pool.path)), ("the backup", try DatabaseBytes.of(backup))] {
                let held = tokens.filter { DatabaseBytes.hold($0, in: bytes) }
                #expect(held.isEmpty, "\(copy) holds \(held)")
            }
            #expect(try await ann.get(confirmations[0]).status == .ok)
            #expect(try await bob.get(reset).status == .ok)
        }
    }

    @Test func anUnconfirmedAddressGetsNoDigest() async throws {
        let server = try await Self.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("ann", email: "ann@example.com")
            try await browser.post("/settings/digest", [("digest", "weekly")])
            try await server.database.pool.write { db in
                try db.execute(sql: "INSERT INTO user (username, username_key, password_hash, created_at, sharing, birthday) VALUES ('bea', 'bea', 'x', '2026-01-01 00:00:00.000', 'household', ?)", arguments: [Self.birthdayTomorrow()])
            }
            let digests = try DigestService.queueing(into: server.database, clock: .system)
            #expect(try await digests.queueDue() == 0)
        }
    }

    /// `MM-DD` of tomorrow in UTC.
    static func birthdayTomorrow() -> String {
        let tomorrow = CivilDateTime(Date().addingTimeInterval(86_400))
        return String(format: "%02d-%02d", tomorrow.month, tomorrow.day)
    }
}
