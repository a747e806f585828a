import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistCore
import WishlistLanguages
@testable import WishlistWeb

/// The last text a person read in English in every language (issue 53): Admin's refusals, a gift
/// marked bought twice, the sign-in proxy's refusals, a broken upload's details, a passkey's
/// malformed answer and Open Library's look-ups, each in the reader's language.
@Suite("The last refusals, in the reader's language, over HTTP", .removesTemporaryDirectories)
struct LastRefusalsInLanguagesHTTPTests {
    @Test func adminsRefusalsReadInTheAdminsLanguage() async throws {
        try await AdminHTTPTests.withAdmin { server, root, _ in
            let rootID = try await AdminHTTPTests.userID("root", server)
            try await root.post("/settings/language", [("language", "de")])
            let disabled = try await root.post("/admin/users/\(rootID)/disable", [])
            #expect(disabled.status == .conflict)
            #expect(disabled.shows("Für dein eigenes Konto nicht erlaubt"))
            #expect(disabled.shows("Du kannst dein eigenes Konto nicht sperren, während du damit angemeldet bist."))
            let nobody = try await root.post("/admin/users/99999/delete", [])
            #expect(nobody.status == .notFound && nobody.shows("Dieses Konto gibt es nicht. Vielleicht wurde es inzwischen gelöscht."))

            try await root.post("/settings/language", [("language", "fr")])
            let last = try await root.post("/admin/users/\(rootID)/delete", [])
            #expect(last.status == .conflict)
            #expect(last.shows("Le serveur n’aurait alors plus d’administrateur, donc rien n’a changé."))
            let invite = try await root.post("/admin/invites/99999/delete", [])
            #expect(invite.status == .notFound && invite.shows("Invitation introuvable"))
            #expect(!invite.shows("No such invite"))
        }
    }

    @Test func aGiftMarkedBoughtTwiceIsRefusedInTheGiversLanguage() async throws {
        let home = try await Household.make()
        let item = home.itemIDs[0]
        try await home.run { _, ana, _ in
            _ = try await ana.reserve(item)
            try await ana.post("/reservations/\(item)/bought", [])
            try await ana.post("/settings/language", [("language", "de")])
            let again = try await ana.post("/reservations/\(item)/bought", [])
            #expect(again.status == .conflict)
            #expect(again.shows("Schon gekauft") && again.shows("Du hattest dieses Geschenk schon als gekauft markiert, deshalb hat sich nichts geändert."))
            try await ana.post("/reservations/\(item)/bought/delete", [])
            let notBought = try await ana.post("/reservations/\(item)/bought/delete", [])
            #expect(notBought.status == .conflict && notBought.shows("Dieses Geschenk war nicht als gekauft markiert"))
        }
    }

    /// The proxy's refusal comes before the visitor's language is chosen: it follows the browser,
    /// as every error page before the session does, with the name the proxy sent and, for a name
    /// that can't be a username, the rule it breaks in that language too.
    @Test func theSignInProxysRefusalFollowsTheBrowser() async throws {
        try await TrustedHeaderTests.run(proxies: ["127.0.0.1"], signup: .closed) { browser, _ in
            let unknown = try await browser.get("/wishlist", headers: [TrustedHeaderTests.remoteUser: "frank", .acceptLanguage: "de"])
            #expect(unknown.status == .forbidden && unknown.text.contains(#"<html lang="de""#))
            #expect(unknown.shows("Kein Konto für dich hier"))
            #expect(unknown.shows("Dein Anmelde-Proxy sagt, du bist frank, und dieser Server hat kein Konto mit diesem Namen."))
            let bad = try await browser.get("/wishlist", headers: [TrustedHeaderTests.remoteUser: "frank smith", .acceptLanguage: "fr"])
            #expect(bad.status == .forbidden)
            #expect(bad.shows("Ton proxy de connexion te nomme frank smith, ce qui ne peut pas être un nom d’utilisateur ici"))
            #expect(bad.shows("Seulement des lettres, des chiffres, des points, des traits d’union et des tirets bas."))
            let english = try await browser.get("/wishlist", headers: [TrustedHeaderTests.remoteUser: "frank", .acceptLanguage: "en"])
            #expect(english.shows("Your sign-in proxy says you are frank, and this server has no account of that name."))
        }
    }

    /// A multipart body to `/settings/profile/picture` made of `parts` and, unless cut short, its close.
    static func upload(_ browser: inout TestBrowser, parts: [String], closed: Bool) async throws -> TestResponse {
        let boundary = "----BrokenUpload7"
        var body = ByteBuffer()
        for name in parts { body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\nx\r\n") }
        if closed { body.writeString("--\(boundary)--\r\n") }
        return try await browser.send(
            "/settings/profile/picture", method: .post, headers: [.contentType: "multipart/form-data; boundary=\(boundary)"], body: body
        )
    }

    @Test func aBrokenUploadsDetailsReadInTheMembersLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            var german = try await ErrorPagesInLanguagesHTTPTests.member("oma", reading: "de", like: browser)
            let cut = try await Self.upload(&german, parts: ["csrf_token"], closed: false)
            #expect(cut.status == .badRequest)
            #expect(cut.shows("Das Hochladen brach vor dem Ende ab. Lade die Datei noch einmal hoch."))
            var french = try await ErrorPagesInLanguagesHTTPTests.member("mamie", reading: "fr", like: browser)
            let many = try await Self.upload(&french, parts: (0...MultipartForm.maximumParts).map { "part\($0)" }, closed: true)
            #expect(many.status == .badRequest && many.shows("L’envoi contient plus de 20 parties. Recharge la page et réessaie."))
        }
    }

    /// The browser's answer names no field the passkey needs: passkeys.js shows the sentence as it comes.
    @Test func aPasskeysMalformedAnswerReadsInTheMembersLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            let incomplete = #"{"id":"AAAA","clientDataJSON":"e30","authenticatorData":"AAAA","signature":"AAAA"}"#
            var german = try await ErrorPagesInLanguagesHTTPTests.member("oma", reading: "de", like: browser)
            let refused = try await PasskeyHTTPTests.postJSON(&german, "/passkeys/sign-in", incomplete)
            #expect(refused.status == .badRequest)
            #expect(try PasskeyHTTPTests.object(refused)["error"] as? String == "Die Beschreibung der Passkey-Anfrage durch den Browser ist unvollständig.")
            var french = try await ErrorPagesInLanguagesHTTPTests.member("mamie", reading: "fr", like: browser)
            let again = try await PasskeyHTTPTests.postJSON(&french, "/passkeys/sign-in", incomplete)
            #expect(try PasskeyHTTPTests.object(again)["error"] as? String == "La description de la demande de clé d’accès par le navigateur est incomplète.")
        }
        let english = Translations()
        #expect(WebAuthnError.invalidCredentialIDLength(2000).sentence(in: english) == "The passkey’s identifier is 2,000 bytes long; it must be 1 to 1,023 bytes.")
        #expect(WebAuthnError.trailingAuthenticatorData(count: 1).sentence(in: english) == "The passkey’s answer ends with 1 byte too many.")
    }

    @Test func lookUpsSentencesReadInTheMembersLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            var german = try await ErrorPagesInLanguagesHTTPTests.member("oma", reading: "de", like: browser)
            let asked = try await german.get("/books/new?title=orchard")
            #expect(asked.shows("Das Nachschlagen ist auf diesem Server ausgeschaltet. Tippe das Buch unten ein."))
            #expect(!asked.shows("Look-up is off on this server."))
        }
        let fake = FakeOpenLibraryServer(clock: .system)
        fake.fail(with: .status(503))
        try await LookupHTTPTests.withLookUp(fake) { server, _ in
            try await TestApp.run(server) { browser in
                var german = try await ErrorPagesInLanguagesHTTPTests.member("oma", reading: "de", like: browser)
                #expect(try await german.get("/books/new?title=lantern").shows("Open Library war gerade nicht erreichbar."))
            }
        }
        let down = FakeOpenLibraryServer(clock: .system)
        down.fail(with: .status(503))
        try await IdeaSearchHTTPTests.withHousehold(down) { _, _, ana in
            try await ana.post("/settings/language", [("language", "fr")])
            let page = try await ana.get("/people/maya/ideas?q=Lantern")
            #expect(page.shows("Open Library est injoignable pour le moment"))
        }
    }

    /// The single sign-on button's default label is the app's, worded per language; one the admin
    /// wrote is the admin's, shown as written.
    @Test func theSingleSignOnButtonsDefaultLabelReadsInTheBrowsersLanguage() async throws {
        try await SingleSignOnHTTPTests.withProvider({ _ in }) { setup in
            try await TestApp.run(setup.server) { browser in
                let german = try await browser.get("/login", headers: [.acceptLanguage: "de"])
                #expect(german.shows("Mit einmaliger Anmeldung anmelden"))
                let french = try await browser.get("/signup", headers: [.acceptLanguage: "fr"])
                #expect(french.shows("Se connecter avec l’authentification unique"))
            }
        }
        try await SingleSignOnHTTPTests.withProvider({ $0.accounts.oidc.buttonLabel = "Sign in with Example ID" }) { setup in
            try await TestApp.run(setup.server) { browser in
                let german = try await browser.get("/login", headers: [.acceptLanguage: "de"])
                #expect(german.shows("Sign in with Example ID"))
            }
        }
    }

    /// Admin's database size, with the language's decimal separator and its units' abbreviations.
    @Test func aSizeOnAdminIsWrittenInTheAdminsLanguage() throws {
        let catalogs = try LanguageCatalogs.load(from: LanguageCatalogsTests.folder)
        #expect(AdminController.fileSize(4_096, in: catalogs.translations(for: "de")) == "4,1 KB")
        #expect(AdminController.fileSize(350_400_000, in: catalogs.translations(for: "fr")) == "350\u{00A0}Mo")
        #expect(AdminController.fileSize(812, in: catalogs.translations(for: "es")) == "812 bytes")
        #expect(AdminController.fileSize(1, in: catalogs.translations(for: "fr")) == "1\u{00A0}octet")
    }

    /// The setup link's page, which the language walk can't open (its household has an admin), in
    /// the browser's language.
    @Test func theSetupLinksPageReadsInTheBrowsersLanguage() async throws {
        let server = try await TestApp.build()
        let token = try #require(try await SetupLinks(database: server.database, clock: .system).renew())
        try await TestApp.run(server) { browser in
            let page = try await browser.get(SitePath.setup(token), headers: [.acceptLanguage: "de"])
            #expect(page.status == .ok && page.text.contains(#"<html lang="de""#))
            #expect(page.shows("Diesen Server einrichten") && page.shows("Dieser Server hat noch keinen Admin."))
            #expect(page.shows("Admin-Konto erstellen"))
        }
    }
}
