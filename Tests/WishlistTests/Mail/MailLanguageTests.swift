import Foundation
import Testing
@testable import WishlistCore
@testable import WishlistLanguages
@testable import WishlistWeb

/// A message and its subject are in the recipient's language (issue 53): the one she chose in
/// Settings, else the server's; an invite, to someone without an account yet, in the server's.
@Suite("E-mail in the recipient's language", .removesTemporaryDirectories)
struct MailLanguageTests {
    /// A member with a confirmed address who chose `language` ("browser" for none), signed out.
    static func member(_ name: String, language: String, _ browser: inout TestBrowser, _ server: WishlistServer) async throws {
        try await browser.signUp(name, email: "\(name)@example.com")
        let confirm = try #require(try await QueuedMail.all(server.database, kind: "verification").last?.path(startingWith: "/verify-email/"))
        try await browser.get(confirm)
        try await browser.post("/settings/language", [("language", language)])
        try await browser.post("/logout", [])
    }

    static func askForAReset(_ name: String, _ browser: inout TestBrowser) async throws {
        try await browser.get("/forgot")
        try await browser.post("/forgot", [("name_or_email", name)])
    }

    @Test func aGermanMembersPasswordResetMailIsInGerman() async throws {
        let server = try await MailHTTPTests.build()
        try await TestApp.run(server) { browser in
            try await Self.member("oma", language: "de", &browser, server)
            try await Self.member("ann", language: "browser", &browser, server)
            try await Self.askForAReset("oma", &browser)
            try await Self.askForAReset("ann", &browser)
            let resets = try await QueuedMail.awaited(server.database, kind: "password-reset", count: 2)
            let german = try #require(resets.first { $0.recipient == "oma@example.com" })
            #expect(german.headers.contains("Subject: Neues Passwort festlegen"))
            #expect(german.text.hasPrefix("Hallo oma,") && german.text.contains("Jemand, wahrscheinlich du, möchte ein neues Passwort"))
            #expect(german.text.contains("Ein neues Passwort meldet dich in allen Browsern ab."))
            #expect(german.path(startingWith: "/reset/") != nil, "the link is the same in every language")
            let english = try #require(resets.first { $0.recipient == "ann@example.com" })
            #expect(english.headers.contains("Subject: Set a new password"))
            #expect(english.text.hasPrefix("Hello ann,") && english.text.contains("Someone, probably you, asked to set a new password"))
        }
    }

    /// Without a choice of her own, a member's mail is in the server's language, as an invite is.
    @Test func theServersLanguageIsForAMemberWhoChoseNoneAndForAnInvite() async throws {
        let server = try await TestApp.build { config in
            config.mail.smtpURL = "smtp://127.0.0.1:9"
            config.mail.from = "wishlist@example.com"
            config.server.language = "fr"
        }
        try await TestApp.run(server) { browser in
            try await Self.member("ann", language: "browser", &browser, server)
            try await Self.askForAReset("ann", &browser)
            let reset = try #require(try await QueuedMail.awaited(server.database, kind: "password-reset").first)
            #expect(reset.text.hasPrefix("Bonjour ann,") && reset.text.contains("Quelqu’un, sans doute toi, a demandé"))

            try await browser.signUp("admin", email: "")
            try await server.database.pool.write { try $0.execute(sql: "UPDATE user SET is_admin = 1, language = 'de' WHERE username = 'admin'") }
            try await browser.post("/admin/invites", [("email", "friend@example.com")])
            let invite = try #require(try await QueuedMail.all(server.database, kind: "invite").first)
            #expect(invite.text.hasPrefix("admin t’invite sur Bestseller Wishlist, où un foyer"), "the server's language, not the inviter's")
        }
    }

    /// The digest's sentences, counts and a birthday's month are the recipient's language's.
    @Test func theDigestIsInTheRecipientsLanguage() throws {
        let catalogs = try LanguageCatalogs.load(from: repositoryRoot.appendingPathComponent("Languages"))
        var news = DigestNews()
        news.birthdays = [.init(username: "ann", name: "Ann", month: 3, day: 14, daysAway: 3)]
        let content = { (code: String) in
            DigestText.content(news, name: "Oma", unsubscribe: "https://example.org/u", site: "https://example.org", paths: SitePath.mail, in: catalogs.translations(for: code))
        }
        let german = content("de")
        #expect(german.subject == "Deine Bücherwoche")
        #expect(german.text.contains("Bald Geburtstag\n---------------\n- Ann: 14. März, in 3 Tagen\n"))
        #expect(german.html.contains(#"<html lang="de">"#))
        #expect(content("es").text.contains("- Ann: 14 de marzo, dentro de 3 días\n"))
        #expect(content("en").text.contains("- Ann: 14 March, in 3 days\n"))
    }
}
