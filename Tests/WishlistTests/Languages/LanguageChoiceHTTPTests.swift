import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Which language a page is in (issue 53): the member's setting (Settings → Language), else the
/// browser's `Accept-Language`, else `server.language`; `<html lang>` says which, a page that
/// followed the browser varies on it, and the shared pages are kept per language.
@Suite("Choosing a page's language over HTTP", .removesTemporaryDirectories)
struct LanguageChoiceHTTPTests {
    static func language(of page: TestResponse) -> String? {
        page.text.firstMatch(of: /<html lang="([^"]*)">/).map { String($0.1) }
    }

    /// The `<html lang>` of `path` as a browser asking for `acceptLanguage` (none when nil) gets it.
    static func language(of path: String, asking acceptLanguage: String? = nil, _ browser: inout TestBrowser) async throws -> String? {
        language(of: try await browser.get(path, headers: acceptLanguage.map(asking) ?? [:]))
    }

    static func asking(_ acceptLanguage: String) -> HTTPFields {
        [.acceptLanguage: acceptLanguage]
    }

    @Test func aSignedOutPageFollowsTheBrowserAndVariesOnIt() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            let german = try await browser.get("/login", headers: Self.asking("de-AT, en;q=0.5"))
            #expect(Self.language(of: german) == "de")
            #expect(german.headers[values: .vary].joined(separator: ", ").contains("Accept-Language"))
            let french = try await browser.get("/login", headers: Self.asking("it, fr;q=0.8, de;q=0.2"))
            #expect(Self.language(of: french) == "fr")
            let none = try await browser.get("/login", headers: Self.asking("it, pt-BR"))
            #expect(Self.language(of: none) == "en")
        }
    }

    @Test func theServersLanguageIsForABrowserThatAsksForNoneItHas() async throws {
        let languages = try await TestApp.run(try await TestApp.build { $0.server.language = "es" }) { browser in
            [
                try await Self.language(of: "/login", &browser),
                try await Self.language(of: "/login", asking: "it", &browser),
                try await Self.language(of: "/login", asking: "de", &browser),
            ]
        }
        #expect(languages == ["es", "es", "de"])
    }

    /// en-XA, every text accented and bracketed, only when the tests' switch is on.
    @Test func thePseudoLanguageIsForTestsOnly() async throws {
        let without = try await TestApp.run(try await TestApp.build()) { browser in
            try await Self.language(of: "/login", asking: "en-XA", &browser)
        }
        #expect(without == "en")
        let with = try await TestApp.run(try await TestApp.build { $0.server.pseudoLanguage = true }) { browser in
            try await Self.language(of: "/login", asking: "en-XA, en;q=0.9", &browser)
        }
        #expect(with == "en-XA")
    }

    @Test func aMembersChoiceWinsOverHerBrowser() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.signUp("oma")
            let form = try await browser.get("/settings/language", headers: Self.asking("fr"))
            #expect(form.status == .ok)
            #expect(Self.language(of: form) == "fr")
            #expect(form.text.contains(#"<input type="radio" id="language-browser" name="language" value="browser" aria-describedby="language-browser-hint" checked>"#))

            let saved = try await browser.post("/settings/language", [("language", "de")])
            #expect(saved.status == .seeOther)
            #expect(saved.location == "/settings/language?done=language#flash")
            let page = try await browser.get(saved.location!, headers: Self.asking("fr"))
            #expect(Self.language(of: page) == "de")
            #expect(page.text.contains(#"<h1 id="page-title">Sprache</h1>"#))
            #expect(page.text.contains("Deine Sprache wurde gespeichert."))
            #expect(page.text.contains(#"value="de" checked>"#))
            #expect(!page.headers[values: .vary].joined(separator: ", ").contains("Accept-Language"), "her choice, not her browser's")

            try await browser.post("/settings/language", [("language", "browser")])
            let followingAgain = try await Self.language(of: "/settings/language", asking: "es", &browser)
            #expect(followingAgain == "es")
        }
    }

    @Test func aLanguageTheServerHasNotIsRefusedWithASentence() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.signUp("oma")
            let refused = try await browser.post("/settings/language", [("language", "en-XA")])
            #expect(refused.status == .badRequest)
            #expect(refused.shows("Choose one of the languages listed, or your browser’s."))
            let unchanged = try await Self.language(of: "/settings/language", &browser)
            #expect(unchanged == "en")
        }
    }

    @Test func sharedPagesAreKeptPerLanguage() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.signUp("oma")
            let list = "/lists/hardcover-fiction"
            let german = try await browser.get(list, headers: Self.asking("de"))
            #expect(german.status == .ok)
            #expect(Self.language(of: german) == "de")
            let english = try await Self.language(of: list, asking: "en", &browser)
            let germanAgain = try await Self.language(of: list, asking: "de", &browser)
            #expect([english, germanAgain] == ["en", "de"])
        }
    }

    /// A catalog that lacks a string: that string is English, and only that one.
    @Test func aStringTheCatalogLacksIsEnglishOnThePage() async throws {
        let folder = try temporaryDirectory()
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Views"), to: folder.appendingPathComponent("Views"))
        let languages = folder.appendingPathComponent("Languages")
        try FileManager.default.createDirectory(at: languages, withIntermediateDirectories: true)
        for code in ["fr", "es"] {
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Languages/\(code).po"), to: languages.appendingPathComponent("\(code).po"))
        }
        let german = try String(contentsOf: repositoryRoot.appendingPathComponent("Languages/de.po"), encoding: .utf8)
        let lacking = german.replacingOccurrences(of: "msgid \"Save language\"\nmsgstr \"Sprache speichern\"\n", with: "")
        #expect(lacking != german)
        try Data(lacking.utf8).write(to: languages.appendingPathComponent("de.po"))

        let server = try await TestApp.build { $0.server.viewsDirectory = folder.appendingPathComponent("Views").path }
        try await TestApp.run(server) { browser in
            try await browser.signUp("oma")
            let page = try await browser.get("/settings/language", headers: Self.asking("de"))
            #expect(page.text.contains(#"<h1 id="page-title">Sprache</h1>"#))
            #expect(page.text.contains(#"<button class="button" id="language-submit" type="submit">Save language</button>"#))
        }
    }
}
