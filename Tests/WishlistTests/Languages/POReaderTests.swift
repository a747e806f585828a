import Foundation
import Testing
@testable import WishlistLanguages

/// The catalogs' reader takes what gettext writes (escapes, strings over several lines, contexts,
/// plural forms, comments) and refuses anything doubtful with the line it stopped at.
@Suite struct POReaderTests {
    static let header = """
        msgid ""
        msgstr ""
        "Language: de\\n"
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Plural-Forms: nplurals=2; plural=(n == 1) ? 0 : 1;\\n"

        """

    @Test func readsTheHeaderAndItsPluralForms() throws {
        let catalog = try POReader.read(Self.header)
        #expect(catalog.language == "de")
        #expect(catalog.pluralForms == "nplurals=2; plural=(n == 1) ? 0 : 1;")
        #expect(catalog.pluralFormCount == 2)
        #expect(catalog.entries.isEmpty)
    }

    @Test func readsEscapesAndStringsOverSeveralLines() throws {
        let catalog = try POReader.read(Self.header + """
            # A translator's comment, skipped.
            #. An extracted comment, skipped.
            #: Views/layout.html:12
            msgid ""
            "Say \\"hello\\"\\n"
            "to\\tall"
            msgstr "Sag \\"hallo\\"\\n"
            "an\\talle \\\\ o/"

            """)
        let entry = try #require(catalog.entries.first)
        #expect(entry.id == "Say \"hello\"\nto\tall")
        #expect(entry.translations == ["Sag \"hallo\"\nan\talle \\ o/"])
        #expect(entry.line == 9)
        #expect(entry.isTranslated)
    }

    @Test func readsContextsAndPlurals() throws {
        let catalog = try POReader.read(Self.header + """
            msgctxt "menu"
            msgid "Open"
            msgstr "Öffnen"

            msgctxt "state"
            msgid "Open"
            msgstr "Offen"
            msgid "{count} book"
            msgid_plural "{count} books"
            msgstr[0] "{count} Buch"
            msgstr[1] "{count} Bücher"
            """)
        #expect(catalog.entries.map(\.context) == ["menu", "state", nil])
        #expect(catalog.entries.map(\.translations) == [["Öffnen"], ["Offen"], ["{count} Buch", "{count} Bücher"]])
        #expect(catalog.entries[2].pluralID == "{count} books")
    }

    @Test func fuzzyAndEmptyTranslationsAreNotUsed() throws {
        let catalog = try POReader.read(Self.header + """
            #, fuzzy, python-format
            msgid "Gift"
            msgstr "Gift"

            msgid "Wishlist"
            msgstr ""

            #~ msgid "Gone"
            #~ msgstr "Weg"
            """)
        #expect(catalog.entries.map(\.id) == ["Gift", "Wishlist"])
        #expect(catalog.entries[0].flags == ["fuzzy", "python-format"])
        #expect(catalog.entries.map(\.isTranslated) == [false, false])
    }

    @Test func readsWindowsLineEnds() throws {
        let text = (Self.header + "msgid \"Yes\"\nmsgstr \"Ja\"\n").replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try POReader.read(text).entries.map(\.translations) == [["Ja"]])
    }

    static let refusals: [(text: String, line: Int, message: String)] = [
        ("msgid \"x\"\nmsgstr \"y\"\n", 1, "no header (an entry with msgid \"\" first)"),
        (header + "msgid \"a\"\nmsgstr \"b\\q\"\n", 7, "unknown escape \\q"),
        (header + "msgid \"a\nmsgstr \"b\"\n", 6, "a string without its closing quote"),
        (header + "msgid \"a\" x\nmsgstr \"b\"\n", 6, "text after the closing quote"),
        (header + "msgid \"a\"\nmsgtext \"b\"\n", 7, "unknown keyword \"msgtext\""),
        (header + "msgid \"a\"\n\nmsgstr \"b\"\n", 7, "msgid \"a\" has no msgstr"),
        (header + "\n\"stray\"\n", 7, "a string with no msgid, msgstr or msgctxt before it"),
        (header + "msgid \"a\" \"b\"\nmsgstr \"c\"\n", 6, "text after the closing quote"),
        (header + "msgid \"a\"\nmsgstr \"b\"\nmsgid \"a\"\nmsgstr \"c\"\n", 8, "msgid \"a\" appears twice"),
        (header + "msgid \"a\"\nmsgid_plural \"as\"\nmsgstr \"b\"\n", 8, "an entry with msgid_plural needs msgstr[0], msgstr[1]…"),
        (header + "msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[1] \"b\"\n", 8, "msgstr[1] where msgstr[0] was expected"),
        (header + "msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"b\"\n", 6, "msgid \"a\" has 1 plural forms; Plural-Forms says 2"),
        (header + "msgid \"a\"\nmsgstr[0] \"b\"\n", 7, "msgstr[0] without a msgid_plural"),
        (header + "msgid \"a\"\nmsgctxt \"c\"\n", 7, "msgctxt must come before its msgid"),
        ("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n", 1,
         "Content-Type \"text/plain; charset=ISO-8859-1\": catalogs must be charset=UTF-8"),
        ("msgid \"\"\nmsgstr \"Language de\\n\"\n", 1, "header line \"Language de\" is not \"Name: value\""),
    ]

    @Test(arguments: refusals) func refusesWithTheLine(text: String, line: Int, message: String) {
        #expect(throws: POReadError(line: line, message: message)) {
            try POReader.read(text)
        }
    }
}
