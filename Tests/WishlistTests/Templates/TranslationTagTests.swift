import Foundation
import NIOCore
import Testing
@testable import WishlistLanguages
@testable import WishlistTemplates

/// `{% t %}`: a template's English text, compiled once per language into static text with its
/// placeholders' values, a plural form picked by the language's CLDR rule, English for a string
/// the catalog lacks, and mistakes refused when the templates compile.
@Suite("Translation tag")
struct TranslationTagTests: TemplateTestCase {
    static let frenchCatalog = """
        msgid ""
        msgstr ""
        "Language: fr\\n"
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Plural-Forms: \(LanguageData.french.gettextPluralForms)\\n"

        msgid "Sign in"
        msgstr "Se connecter"

        msgid "Signed in as {name}"
        msgstr "Connecté·e en tant que {name}"

        msgctxt "nav"
        msgid "List"
        msgstr "Listes"

        msgid "{count} gift"
        msgid_plural "{count} gifts"
        msgstr[0] "{count} cadeau"
        msgstr[1] "{count} de cadeaux"
        msgstr[2] "{count} cadeaux"

        msgid "Tom & Jerry's \\"shop\\""
        msgstr "<b>Tom & Jerry</b>"
        """

    /// `page` rendered in English, French (the catalog above) and en-XA.
    func rendered(_ page: String, _ context: TemplateValue = [:], files: [String: String] = [:]) throws -> [String: String] {
        let views = try TemporaryViews(files.merging(["page.html": page]) { _, page in page })
        let french = try Translations(Self.frenchCatalog, for: .french)
        let library = try TemplateLibrary(directory: views.url, languages: [Translations(), french, .pseudo])
        var pages: [String: String] = [:]
        for code in ["en", "fr", PseudoLanguage.code] {
            pages[code] = String(buffer: try library.render("page.html", context, language: code))
        }
        return pages
    }

    @Test func textIsInThePagesLanguage() throws {
        let pages = try rendered(#"<a href="/signin">{% t "Sign in" %}</a>"#)
        #expect(pages["en"] == #"<a href="/signin">Sign in</a>"#)
        #expect(pages["fr"] == #"<a href="/signin">Se connecter</a>"#)
        #expect(pages["en-XA"] == #"<a href="/signin">[Šîĝñ îñ ~~~]</a>"#)
    }

    @Test func placeholdersPrintTheirValuesEscaped() throws {
        let pages = try rendered(#"<p title="{% t "Signed in as {name}" name=user.name %}">{% t "Signed in as {name}" name=user.name %}</p>"#, ["user": ["name": #"<Oma "Rosi">"#]])
        #expect(pages["en"] == #"<p title="Signed in as &lt;Oma &quot;Rosi&quot;&gt;">Signed in as &lt;Oma &quot;Rosi&quot;&gt;</p>"#)
        #expect(pages["fr"] == #"<p title="Connecté·e en tant que &lt;Oma &quot;Rosi&quot;&gt;">Connecté·e en tant que &lt;Oma &quot;Rosi&quot;&gt;</p>"#)
    }

    @Test func aCatalogsTextIsTextNotMarkup() throws {
        let pages = try rendered(#"<p>{% t "Tom & Jerry's \"shop\"" %}</p><input value="{% t "Tom & Jerry's \"shop\"" %}">"#)
        #expect(pages["en"] == #"<p>Tom &amp; Jerry&#39;s &quot;shop&quot;</p><input value="Tom &amp; Jerry&#39;s &quot;shop&quot;">"#)
        #expect(pages["fr"] == #"<p>&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;</p><input value="&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;">"#)
    }

    @Test func aCountPicksTheLanguagesPluralFormAndItsDigits() throws {
        let page = #"{% for n in counts %}{% t "{count} gift" plural "{count} gifts" count=n %};{% endfor %}"#
        let pages = try rendered(page, ["counts": [0, 1, 2, 1234, 1_000_000]])
        #expect(pages["en"] == "0 gifts;1 gift;2 gifts;1,234 gifts;1,000,000 gifts;")
        // French: 0 and 1 are `one`; a million is `many`; 1 234 has a narrow no-break space.
        #expect(pages["fr"] == "0 cadeau;1 cadeau;2 cadeaux;1\u{202F}234 cadeaux;1\u{202F}000\u{202F}000 de cadeaux;")
    }

    @Test func aContextTellsTwoUsesOfTheSameWordsApart() throws {
        let pages = try rendered(#"{% t "List" context "nav" %}|{% t "List" %}"#)
        #expect(pages["fr"] == "Listes|List")
    }

    @Test func aStringTheCatalogLacksIsEnglishAndOnlyThatString() throws {
        let pages = try rendered(#"{% t "Sign in" %}|{% t "Sign out" %}|{% t "{count} book" plural "{count} books" count=n %}"#, ["n": 1234])
        #expect(pages["fr"] == "Se connecter|Sign out|1,234 books")
    }

    @Test func aPlaceholderMayBeASlotFilledPerRequest() throws {
        let views = try TemporaryViews(["page.html": #"<p>{% t "Signed in as {name}" name=user.name %}</p>"#])
        let french = try Translations(Self.frenchCatalog, for: .french)
        let library = try TemplateLibrary(directory: views.url, languages: [Translations(), french])
        let page = try library.renderSlotted("page.html", ["user": ["name": .slot("user.name")]], language: "fr")
        var buffer = ByteBufferAllocator().buffer(capacity: 64)
        page.write(into: &buffer) { _ in .value("Oma") }
        #expect(String(buffer: buffer) == "<p>Connecté·e en tant que Oma</p>")
    }

    @Test func anUnknownLanguageRendersInTheFirst() throws {
        let views = try TemporaryViews(["page.html": #"{% t "Sign in" %}"#])
        let french = try Translations(Self.frenchCatalog, for: .french)
        let library = try TemplateLibrary(directory: views.url, languages: [french, Translations()])
        #expect(String(buffer: try library.render("page.html", [:], language: "xx")) == "Se connecter")
        #expect(String(buffer: try library.render("page.html", [:])) == "Se connecter")
    }

    /// An include's literal label, such as a password field's, is a text too: `label=t "Sign in"`.
    @Test func anIncludesLabelIsTranslatedWhereItIsGiven() throws {
        let pages = try rendered(#"{% include "field.html" with label=t "Sign in" %}"#, files: ["field.html": "<label>{{ label }}</label>"])
        #expect(pages["en"] == "<label>Sign in</label>")
        #expect(pages["fr"] == "<label>Se connecter</label>")
        #expect(compileError(["page.html": #"{% include "field.html" with label=t "Hi {name}" %}"#, "field.html": "{{ label }}"])?.contains("takes no placeholders") == true)
    }

    /// `date: "long"` and the other styles take the page's language's own CLDR pattern and names,
    /// inside a placeholder's value as well; a pattern of letters stays English.
    @Test func aDateStyleIsTheLanguagesOwn() throws {
        let page = #"{{ day | date: "long" }}|{{ day | date: "medium" }}|{% t "Signed in as {name}" name=day | date: "long" %}|{{ day | date: "MMMM d" }}"#
        let pages = try rendered(page, ["day": "2026-11-28"])
        #expect(pages["en"] == "November 28, 2026|Nov 28, 2026|Signed in as November 28, 2026|November 28")
        #expect(pages["fr"] == "28 novembre 2026|28 nov. 2026|Connecté·e en tant que 28 novembre 2026|November 28")
        #expect(pages["en-XA"]?.hasPrefix("[Ñöṽéɱƀéŕ ~~~~] 28, 2026|") == true)
    }

    /// `date: "long"` writes the day by the page's language's CLDR pattern and names, in a
    /// placeholder's value too; a pattern stays English, as `<time datetime>` needs.
    @Test func aStyledDateIsInThePagesLanguage() throws {
        let page = #"<time datetime="{{ day | date: "yyyy-MM-dd" }}">{{ day | date: "long" }}</time> {% t "Since {date}" date=day | date: "medium" %}"#
        let pages = try rendered(page, ["day": "2026-11-28"])
        #expect(pages["en"] == #"<time datetime="2026-11-28">November 28, 2026</time> Since Nov 28, 2026"#)
        #expect(pages["fr"] == #"<time datetime="2026-11-28">28 novembre 2026</time> Since 28 nov. 2026"#)
        #expect(pages["en-XA"] == #"<time datetime="2026-11-28">[Ñöṽéɱƀéŕ ~~~~] 28, 2026</time> [Šîñçé [Ñöṽ ~~] 28, 2026 ~~~~]"#)
        #expect(try rendered(#"{{ day | date: "short" }}|{{ nothing | date: "full" }}"#, ["day": "2026-11-28"])["fr"] == "28/11/2026|")
    }

    @Test func mistakesStopTheStart() {
        #expect(compileError(#"{% t "Signed in as {name}" %}"#) == "page.html:1:1: '{% t \"Signed in as {name}\" %}' needs a value for {name}: add name=…")
        #expect(compileError(#"{% t "Sign in" name=user.name %}"#) == "page.html:1:16: 'name' is not a placeholder of \"Sign in\"; write {name} in the text or leave it out")
        #expect(compileError(#"{% t "{count} book" plural "{count} books" %}"#)?.hasSuffix("needs a value for {count}: add count=books | length") == true)
        #expect(compileError(#"{% t "Hi {a}" a=x a=y %}"#)?.contains("duplicate placeholder 'a'") == true)
        #expect(compileError(#"{% t name %}"#)?.contains("expected the English text") == true)
        #expect(compileError(#"<a href="{% t "Sign in" %}">x</a>"#)?.contains("cannot stand in a URL attribute") == true)
        #expect(compileError(#"<script>{% t "Sign in" %}</script>"#) != nil)
        #expect(compileError(["page.html": #"{% extends "base.html" %}{% t "Sign in" %}"#, "base.html": ""])?.contains("'{% t %}' outside a '{% block %}'") == true)
    }
}
