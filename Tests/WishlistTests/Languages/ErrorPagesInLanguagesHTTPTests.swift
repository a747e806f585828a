import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
import WishlistLanguages
@testable import WishlistWeb

/// Error pages and the refusals worded in controllers, in the reader's language (issue 53): a
/// member's choice, else her browser's, also where the error comes before the visitor is known.
@Suite("Error pages and refusals, in the reader's language, over HTTP", .removesTemporaryDirectories)
struct ErrorPagesInLanguagesHTTPTests {
    /// A member who chose `language` in Settings.
    static func member(_ name: String, reading language: String, like browser: TestBrowser) async throws -> TestBrowser {
        var member = TestBrowser(client: browser.client)
        try await member.signUp(name)
        if language != "en" { try await member.post("/settings/language", [("language", language)]) }
        return member
    }

    @Test func aMissingPageReadsInTheMembersLanguageAndStaysEnglishForAnEnglishOne() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            var german = try await Self.member("oma", reading: "de", like: browser)
            let missing = try await german.get("/books/no-such-book")
            #expect(missing.status == .notFound)
            #expect(missing.text.contains(#"<html lang="de""#))
            #expect(missing.shows("Buch nicht gefunden"))
            #expect(missing.shows("Dieses Buch haben wir nicht gefunden."))
            #expect(missing.text.contains(#"id="error-back" href="/lists">Zurück zu den Listen</a>"#))
            #expect(!missing.shows("Book not found"))
            let unknown = try await german.get("/no-such-page")
            #expect(unknown.shows("Seite nicht gefunden") && unknown.shows("Diese Seite haben wir nicht gefunden."))

            var french = try await Self.member("mamie", reading: "fr", like: browser)
            let nowhere = try await french.get("/no-such-page")
            #expect(nowhere.status == .notFound && nowhere.text.contains(#"<html lang="fr""#))
            #expect(nowhere.shows("Page introuvable"))
            #expect(nowhere.text.contains(#"id="error-back" href="/">Retour aux listes des meilleures ventes</a>"#))

            var english = try await Self.member("granny", reading: "en", like: browser)
            let same = try await english.get("/books/no-such-book", headers: [.acceptLanguage: "en"])
            #expect(same.shows("Book not found"))
            #expect(same.shows("We couldn’t find that book. It may have left the lists; browse the current lists instead."))
            #expect(same.text.contains(#"id="error-back" href="/lists">Back to the lists</a>"#))
            let page = try await english.get("/no-such-page", headers: [.acceptLanguage: "en"])
            #expect(page.shows("Page not found") && page.shows("We couldn’t find that page. It may have moved, or the address may be mistyped."))
        }
    }

    /// A form too large is refused before the session is read: the page follows the browser.
    @Test func aBodyTooLargeBeforeTheVisitorIsKnownFollowsTheBrowser() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.get("/login")
            let padding = String(repeating: "a", count: 100 * 1024)
            let refused = try await browser.post("/login", [("username", padding), ("password", "x")], headers: [.acceptLanguage: "es"])
            #expect(refused.status == .contentTooLarge)
            #expect(refused.text.contains(#"<html lang="es""#))
            #expect(refused.shows("Era demasiado para enviar"))
            #expect(refused.headers[values: .vary].contains { $0.contains("Accept-Language") })
        }
    }

    @Test func aPictureAndABarcodePhotoAreRefusedInTheMembersLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            var german = try await Self.member("oma", reading: "de", like: browser)
            let picture = try await german.uploadPicture(Array("just some words".utf8), contentType: "text/plain")
            #expect(picture.status == .unprocessableContent)
            #expect(picture.shows("Diese Datei ist kein Bild im Format JPEG, PNG oder WebP."))
            let bomb = try await german.uploadPicture(PictureSamples.pngClaiming(width: 50_000, height: 50_000))
            #expect(bomb.shows("Dieses Bild hat mehr als 40 Megapixel (es hat 50.000 × 50.000)."), "the language's digit groups")
            let photo = try await german.scanBarcode(Array("not a picture".utf8), contentType: "text/plain")
            #expect(photo.status == .unprocessableContent && photo.shows("Diese Datei ist kein Bild im Format JPEG, PNG oder WebP."))
            let none = try await german.scanBarcode([], filename: "", contentType: nil)
            #expect(none.shows("Wähle ein Foto vom Strichcode des Buchs und drück dann auf „Strichcode lesen“."))

            var french = try await Self.member("mamie", reading: "fr", like: browser)
            let empty = try await french.uploadPicture([])
            #expect(empty.status == .unprocessableContent && empty.shows("Ce fichier est vide."))
        }
    }

    @Test func aGuestsEmptyNameIsRefusedInHerBrowsersLanguage() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let link = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/settings/share-link", []))
            var guest = TestBrowser(client: maya.client)
            _ = try await guest.get(link, headers: [.acceptLanguage: "de"])
            let refused = try await guest.post(link, [("item", "\(home.itemIDs[1])"), ("name", "")], headers: [.acceptLanguage: "de"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("Gib deinen Namen an, damit die Familie weiß, wer es mitbringt."))
            let long = try await guest.post(link, [("item", "\(home.itemIDs[1])"), ("name", String(repeating: "g", count: 61))], headers: [.acceptLanguage: "fr"])
            #expect(long.shows("Un nom peut compter jusqu’à 60 caractères. Raccourcis-le et réserve à nouveau."))
            let english = try await guest.post(link, [("item", "\(home.itemIDs[1])"), ("name", "")], headers: [.acceptLanguage: "en"])
            #expect(english.shows("Give your name, so the family knows who is bringing it."))
        }
    }

    /// The passkey endpoints answer `{error: …}`, which passkeys.js shows as it is.
    @Test func aPasskeyRefusalsBodyIsInTheReadersLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            var german = try await Self.member("oma", reading: "de", like: browser)
            let wrong = try await PasskeyHTTPTests.postJSON(&german, "/passkeys/registration/options", #"{"password":"not hers"}"#)
            #expect(wrong.status == .forbidden)
            #expect(try PasskeyHTTPTests.object(wrong)["error"] as? String
                == "Das ist nicht dein Passwort. Gib das Passwort ein, mit dem du dich anmeldest, und füge dann den Passkey hinzu.")
            let unread = try await PasskeyHTTPTests.postJSON(&german, "/passkeys/sign-in", "{")
            #expect(try PasskeyHTTPTests.object(unread)["error"] as? String
                == "Die Passkey-Anfrage konnte nicht gelesen werden. Lade die Seite neu und versuch es noch einmal.")

            var french = TestBrowser(client: browser.client)
            _ = try await french.get("/login")
            var headers: HTTPFields = [.contentType: "application/json", .acceptLanguage: "fr"]
            headers[CSRFMiddleware.tokenHeader] = french.csrfToken
            let signedOut = try await french.send("/passkeys/registration/options", method: .post, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(signedOut.status == .unauthorized)
            #expect(try PasskeyHTTPTests.object(signedOut)["error"] as? String
                == "Tu n’es plus connecté ici. Reconnecte-toi, puis ajoute la clé d’accès.")
        }
    }

    /// The page carries passkeys.js's own words in its language, as copy-share.js's.
    @Test func theSignInPageGivesThePasskeyScriptItsWords() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            let page = try await browser.get("/login", headers: [.acceptLanguage: "es"])
            #expect(page.text.contains(#"data-name-first="Ponle primero un nombre a la llave de acceso, como «Móvil».""#))
            let english = try await browser.get("/login", headers: [.acceptLanguage: "en"])
            #expect(english.text.contains(#"data-failed="The passkey request failed. Try again.""#))
        }
    }

    /// A heading no catalog has stays English, that heading only; its placeholders are filled.
    @Test func aMissingKeyFallsBackToEnglish() throws {
        let german = try LanguageCatalogs.load(from: LanguageCatalogsTests.folder).translations(for: "de")
        let unknown = PageError(.notFound, title: "A heading in no catalog", message: "Nor this sentence.")
        #expect(unknown.title(in: german) == "A heading in no catalog")
        #expect(unknown.message(in: german) == "Nor this sentence.")
        let throttled = PageError.tooManyAttempts(retryAfter: 90, action: .signIn)
        #expect(throttled.message(in: german) == "Es gab zu viele Anmeldeversuche. Versuch es in 2 Minuten noch einmal.")
        #expect(throttled.message(in: Translations()) == "There have been too many sign-in attempts. Try again in 2 minutes.")
    }
}
