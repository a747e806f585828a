import Testing
@testable import WishlistLanguages

/// Messages name their values ("{count} books"), and a translation must print the same values.
@Suite struct MessageTextTests {
    @Test func cutsTextAndNamedPlaceholders() {
        #expect(MessageText("{count} books for {name}!").parts
            == [.placeholder("count"), .text(" books for "), .placeholder("name"), .text("!")])
        #expect(MessageText("{a}{b_2}").placeholders == ["a", "b_2"])
    }

    @Test func otherBracesAreText() {
        for text in ["{", "}", "{}", "{ name }", "{1st}", "{na-me}", "a {b", "{{x"] {
            #expect(MessageText(text).parts == [.text(text)], "\(text)")
        }
        #expect(MessageText("{{name}}").parts == [.text("{"), .placeholder("name"), .text("}")])
    }

    @Test func translationsWithOtherPlaceholdersAreListed() throws {
        let catalog = try POReader.read(POReaderTests.header + """
            msgid "Hello {name}"
            msgstr "Hallo {nom}"

            msgid "{count} book"
            msgid_plural "{count} books"
            msgstr[0] "ein Buch"
            msgstr[1] "{count} Bücher"

            msgid "Sign in"
            msgstr "Anmelden {name}"

            msgid "Untranslated {name}"
            msgstr ""

            msgid "{title} by {author}"
            msgstr "{author}: {title}"
            """)
        #expect(catalog.placeholderMismatches == [
            POReadError(line: 6, message: "msgstr of \"Hello {name}\" has {nom} where the English has {name}"),
            POReadError(line: 9, message: "msgstr[0] of \"{count} book\" has {} where the English has {count}"),
            POReadError(line: 14, message: "msgstr of \"Sign in\" has {name} where the English has {}"),
        ])
    }
}
