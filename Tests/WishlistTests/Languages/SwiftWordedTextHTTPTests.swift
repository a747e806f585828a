import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
import WishlistLanguages
@testable import WishlistWeb

/// The text Swift words for a person (issue 53: flashes, form errors), in her language: a German
/// member reads German, a member who chose nothing reads her browser's language, as the page around it.
@Suite("Text worded in Swift, in the reader's language, over HTTP", .removesTemporaryDirectories)
struct SwiftWordedTextHTTPTests {
    /// The page `response` redirects to, as a browser gets it with the flash cookie it set.
    static func followed(_ response: TestResponse, by browser: inout TestBrowser) async throws -> TestResponse {
        let flash = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("wishlist_flash=") })
        let page = String(try #require(response.location).prefix { $0 != "#" })
        return try await browser.get(page, headers: [.cookie: "wishlist_session=\(browser.sessionCookie!); \(flash.prefix { $0 != ";" })"])
    }

    @Test func aFlashReadsInTheMembersLanguage() async throws {
        let server = try await TestApp.build()
        let books = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1.map(\.book)
        try await TestApp.run(server) { browser in
            try await browser.signUp("oma")
            let english = try await Self.followed(try await browser.post("/wishlist", [("book", books[0].id), ("return_to", "/wishlist")]), by: &browser)
            #expect(english.shows("Added “\(books[0].title)” to your wishlist."))
            #expect(english.shows("View your wishlist"))

            try await browser.post("/settings/language", [("language", "de")])
            let german = try await Self.followed(try await browser.post("/wishlist", [("book", books[1].id), ("return_to", "/wishlist")]), by: &browser)
            #expect(german.shows("„\(books[1].title)“ steht jetzt auf deiner Wunschliste."))
            #expect(german.shows("Deine Wunschliste ansehen"))
            #expect(!german.shows("to your wishlist."))
        }
    }

    /// A member who chose no language reads her confirmation in her browser's, as the page around it.
    @Test func aFlashFollowsTheBrowserOfAMemberWhoChoseNoLanguage() async throws {
        let server = try await TestApp.build()
        let book = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1[0].book
        try await TestApp.run(server) { browser in
            try await browser.signUp("oma")
            let added = try await browser.post("/wishlist", [("book", book.id), ("return_to", "/wishlist")])
            let flash = try #require(added.headers[values: .setCookie].first { $0.hasPrefix("wishlist_flash=") })
            let page = try await browser.get(
                "/wishlist", headers: [.cookie: "wishlist_session=\(browser.sessionCookie!); \(flash.prefix { $0 != ";" })", .acceptLanguage: "es"]
            )
            #expect(page.shows("Se añadió «\(book.title)» a tu lista de deseos."))
            #expect(page.shows("Ver tu lista de deseos"))
        }
    }

    /// The core refuses with values (``AccountFault``); the sign-up form words them in the
    /// browser's language, its numbers written the German way, on the same fields and status.
    @Test func aFormErrorWithValuesReadsInGerman() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.get("/signup", headers: [.acceptLanguage: "de"])
            let refused = try await browser.post(
                "/signup", [("username", "al"), ("email", ""), ("password", String(repeating: "p", count: 1025)), ("password_confirm", "")],
                headers: [.acceptLanguage: "de"]
            )
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"id="username-error"><span class="visually-hidden">"#))
            #expect(refused.shows("Verwende 3 bis 32 Zeichen."))
            #expect(refused.shows("Verwende höchstens 1.024 Zeichen."))
            #expect(refused.shows("Die beiden Passwörter stimmen nicht überein."))
            #expect(!refused.shows("characters."))
        }
    }

    /// A feed reader sends no session: the feeds are in their owner's language.
    @Test func theFeedsAreInTheirOwnersLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.signUp("oma")
            try await browser.post("/settings/language", [("language", "de")])
            let made = try await browser.post("/settings/feed-link", [])
            let calendar = try #require(made.text.firstMatch(of: /id="calendar-link-url" type="text" readonly value="http:\/\/[^\/"]+(\/calendar\/[A-Za-z0-9_-]{43}\.ics)"/)?.1)
            var reader = TestBrowser(client: browser.client)
            let feed = try await reader.get(try HistoryPagesTests.feedPath(in: made))
            #expect(feed.text.contains("<title>Neu auf den Lieblingslisten von oma</title>"))
            #expect(feed.text.contains("<subtitle>Neue Bücher auf deinen Lieblings-Bestsellerlisten der New York Times, Ausgabe für Ausgabe.</subtitle>"))
            #expect(try await reader.get(String(calendar)).text.contains("X-WR-CALNAME:Geburtstage und Anlässe"))
        }
    }

    /// The sentence a page shows after a redirect (`?done=`) on Settings, Profile and a child's
    /// managers page: every one marked, so each catalog has it, and worded in the reader's language.
    @Test func aConfirmationAfterARedirectReadsInTheMembersLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.signUp("oma")
            #expect(try await browser.get(SitePath.settings(.lists, done: "start-page")).shows("Your start page was saved. It opens when you sign in."))
            try await browser.post("/settings/language", [("language", "de")])
            #expect(try await browser.get(SitePath.settings(.lists, done: "start-page")).shows("Deine Startseite wurde gespeichert. Sie öffnet sich, wenn du dich anmeldest."))
            #expect(try await browser.get(SitePath.profile + "?done=saved").shows("Dein Profil wurde gespeichert."))
            let child = try await browser.post("/people/children", [("name", "Bea"), ("birthday_month", ""), ("birthday_day", "")])
            let managers = try #require(child.location).prefix { $0 != "?" && $0 != "#" } + "/managers?done=removed"
            #expect(try await browser.get(String(managers)).shows("Die Person verwaltet das Profil nicht mehr."))
        }
        let catalog = Set(try String(contentsOf: repositoryRoot.appendingPathComponent("Languages/messages.pot"), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("msgid ") }.map { String($0.dropFirst(7).dropLast()) })
        let shown = [SettingsController.confirmations, ProfileController.confirmations, ChildrenController.confirmations, AdminController.confirmations, AuthorsController.confirmations]
        #expect(Set(shown.flatMap(\.values)).subtracting(catalog) == [], "a confirmation no catalog has")
    }

    /// A form's problems that a controller words (a token's fields, the welcome's sharing, a list's
    /// sort) read in the reader's language too.
    @Test func aFormsProblemsWordedInAControllerReadInTheMembersLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.signUp("oma")
            try await browser.post("/settings/language", [("language", "de")])
            let token = try await browser.post("/settings/api-tokens", [("name", ""), ("scope", "all"), ("expiry", "7")])
            #expect(token.status == .unprocessableContent)
            #expect(token.shows("Gib dem Token einen Namen mit 1 bis 60 Zeichen, etwa das Skript oder Gerät, das ihn benutzt."))
            #expect(token.shows("Wähle, was der Token darf: lesen, oder lesen und ändern."))
            #expect(token.shows("Wähle, wann der Token aufhört zu funktionieren: in 30, 90 oder 365 Tagen, oder nie."))
            let welcome = try await browser.post("/welcome", [("display_name", "Oma"), ("birthday_month", ""), ("birthday_day", ""), ("sharing", "friends")])
            #expect(welcome.status == .unprocessableContent && welcome.shows("Wähle, wer deine Listen sieht: nur du oder alle auf diesem Server."))
            let sorted = try await browser.get("/lists/hardcover-fiction?sort=price")
            #expect(sorted.status == .badRequest && sorted.shows("„price“ ist nichts davon."))
        }
    }

    /// The managers People names after "managed by", joined as each language joins names.
    @Test func namesAreJoinedAsTheLanguageJoinsThem() throws {
        let catalogs = try LanguageCatalogs.load(from: LanguageCatalogsTests.folder)
        let three = ["Gran", "Mum", "Dad"]
        #expect(HouseholdController.namesText(three, in: Translations()) == "Gran, Mum and Dad")
        #expect(HouseholdController.namesText(three, in: catalogs.translations(for: "de")) == "Gran, Mum und Dad")
        #expect(HouseholdController.namesText(three, in: catalogs.translations(for: "fr")) == "Gran, Mum et Dad")
        #expect(HouseholdController.namesText(["Mum", "Dad"], in: catalogs.translations(for: "es")) == "Mum y Dad")
        #expect(HouseholdController.namesText(["Mum"], in: catalogs.translations(for: "de")) == "Mum")
    }
}
