import Foundation
import Testing
@testable import WishlistLanguages

/// Swift code words a message by its English text with named values; a string a catalog lacks
/// falls back to English for that string only, and a catalog that disagrees with CLDR is refused.
@Suite struct TranslationsTests {
    static let german = """
        msgid ""
        msgstr ""
        "Language: de\\n"
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Plural-Forms: nplurals=2; plural=(n == 1) ? 0 : 1;\\n"

        msgid "Signed in as {name}"
        msgstr "Angemeldet als {name}"

        msgctxt "button"
        msgid "Reserve"
        msgstr "Reservieren"

        msgid "{count} book"
        msgid_plural "{count} books"
        msgstr[0] "{count} Buch"
        msgstr[1] "{count} Bücher"

        #, fuzzy
        msgid "Wishlist"
        msgstr "Wunschzettel?"
        """

    @Test func wordsMessagesWithTheirValues() throws {
        let translations = try Translations(Self.german, for: .german)
        #expect(translations.text("Signed in as {name}", values: ["name": "Oma"]) == "Angemeldet als Oma")
        #expect(translations.text("Reserve", context: "button") == "Reservieren")
        #expect(translations.text(one: "{count} book", other: "{count} books", count: 1) == "1 Buch")
        #expect(translations.text(one: "{count} book", other: "{count} books", count: 1234) == "1.234 Bücher")
    }

    @Test func aMissingStringFallsBackToEnglishForThatStringOnly() throws {
        let translations = try Translations(Self.german, for: .german)
        #expect(translations.text("Sign out") == "Sign out")
        #expect(translations.text("Wishlist") == "Wishlist", "a fuzzy translation is not used")
        #expect(translations.text("Reserve") == "Reserve", "the context is part of the key")
        #expect(translations.text(one: "{count} gift", other: "{count} gifts", count: 1234) == "1,234 gifts")
        #expect(translations.text(one: "{count} gift", other: "{count} gifts", count: 1) == "1 gift")
        #expect(translations.text("Signed in as {name}", values: ["name": "Oma"]) == "Angemeldet als Oma")
    }

    /// French counts 0 as "one": an English sentence in a French page must still say "0 gifts".
    @Test func aMissingCountedStringIsEnglishInFormAndDigits() throws {
        let french = try Translations("""
            msgid ""
            msgstr "Language: fr\\nPlural-Forms: \(LanguageData.french.gettextPluralForms)\\n"
            """, for: .french)
        #expect(french.text(one: "{count} gift", other: "{count} gifts", count: 0) == "0 gifts")
        #expect(french.text(one: "{count} gift", other: "{count} gifts", count: 1234) == "1,234 gifts")
    }

    @Test func aForgottenValueShows() {
        #expect(Translations().text("Hello {name}, {who}", values: ["who": "you"]) == "Hello {name}, you")
    }

    @Test func aCatalogThatDisagreesIsRefused() {
        #expect(throws: POReadError(line: 1, message: "the header's Language is de, not fr")) {
            try Translations(Self.german, for: .french)
        }
        let wrongRule = Self.german.replacingOccurrences(of: "plural=(n == 1) ? 0 : 1;", with: "plural=(n != 1);")
        #expect(throws: POReadError(line: 1, message: "the header's Plural-Forms must be \"nplurals=2; plural=(n == 1) ? 0 : 1;\" (scripts/make-cldr.py)")) {
            try Translations(wrongRule, for: .german)
        }
        let wrongValue = Self.german.replacingOccurrences(of: "Angemeldet als {name}", with: "Angemeldet als {nom}")
        #expect(throws: POReadError(line: 7, message: "msgstr of \"Signed in as {name}\" has {nom} where the English has {name}")) {
            try Translations(wrongValue, for: .german)
        }
    }
}
