import Foundation
import Testing
@testable import WishlistTemplates

@Suite("Filters")
struct FilterTests: TemplateTestCase {
    @Test func dateFormatsDatesAndDateStrings() throws {
        let context: TemplateValue = [
            "date": .date(utcDate(2024, 3, 9, 14, 5, 7)),
            "day": "2024-12-25",
            "stamp": "2024-03-09T23:30:00-02:00",
            "fractional": "2024-03-09T10:00:00.5Z",
            "junk": "next tuesday",
            "invalidDay": "2023-02-29",
            "number": 5,
        ]
        let page = """
        {{ date | date: "MMMM d, yyyy" }}|{{ day | date: "EEE d MMM" }}|{{ stamp | date: "yyyy-MM-dd HH:mm" }}|\
        {{ fractional | date: "ss.SSS" }}|{{ junk | date: "yyyy" }}|{{ invalidDay | date: "yyyy" }}|\
        {{ number | date: "yyyy" }}|{{ missing | date: "yyyy" }}
        """
        #expect(try render(page, context) == "March 9, 2024|Wed 25 Dec|2024-03-10 01:30|00.500||||")
    }

    @Test func dateOfSomethingThatIsNotADateFallsBackWithDefault() throws {
        #expect(try render(#"{{ when | date: "yyyy" | default: "undated" }}"#, ["when": "soon"]) == "undated")
    }

    static let patterns = [
        "yyyy-MM-dd HH:mm:ss", "MMMM d, yyyy", "EEE, d MMM yy h:mm a", "EEEE MMMMM EEEEE",
        "M/d/y H:m:s", "hh 'o''clock' a", "yyyy-MM-dd'T'HH:mm:ss.SSSZZZZZ", "LLL LLLL yyy", "Z ZZZZ XXX",
    ]

    /// The pattern compiler reimplements part of DateFormatter, so check it against the real thing.
    @Test(arguments: patterns)
    func dateFormatAgreesWithDateFormatter(pattern: String) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        let format = try DateFormat(pattern: pattern)
        let dates = [
            Date(timeIntervalSince1970: 0),
            Date(timeIntervalSince1970: -1),
            utcDate(2000, 2, 29, 12, 0, 0),
            utcDate(2024, 3, 9, 0, 30, 15).addingTimeInterval(0.25),
            utcDate(2005, 7, 4, 23, 1, 2),
            utcDate(1900, 3, 1, 6, 7, 8),
            utcDate(1600, 1, 1),
            utcDate(2100, 12, 31, 23, 59, 59),
            utcDate(2038, 1, 19, 3, 14, 8),
        ]
        for date in dates {
            #expect(format.string(from: date) == formatter.string(from: date), "\(date)")
        }
    }

    @Test func pluralizeCountsWithRegularAndIrregularPlurals() throws {
        let page = """
        {{ zero | pluralize: "book" }}, {{ one | pluralize: "book" }}, {{ two | pluralize: "book" }}, \
        {{ one | pluralize: "person", "people" }}, {{ many | pluralize: "person", "people" }}, \
        {{ list | pluralize: "item" }}, [{{ text | pluralize: "x" }}]
        """
        let context: TemplateValue = ["zero": 0, "one": 1, "two": 2, "many": 3, "list": [1, 2], "text": "abc"]
        #expect(try render(page, context) == "0 books, 1 book, 2 books, 1 person, 3 people, 2 items, []")
    }

    static let falsyValues: [TemplateValue] = [nil, false, "", 0, 0.0, [], [:]]

    @Test(arguments: falsyValues)
    func defaultReplacesFalsyValues(value: TemplateValue) throws {
        #expect(try render(#"{{ note | default: "No note" }}"#, ["note": value]) == "No note")
    }

    @Test func defaultKeepsTruthyValuesAndAcceptsAnyLiteral() throws {
        let context: TemplateValue = ["note": "Lovely", "count": 3, "blurb": .html(TrustedHTML(trusted: "<b>ok</b>"))]
        let page = #"{{ note | default: "No note" }} {{ count | default: 0 }} {{ missing | default: 7 }} {{ blurb | default: "x" }}"#
        #expect(try render(page, context) == "Lovely 3 7 <b>ok</b>")
    }

    @Test func truncateCutsAtCharactersAndAddsAnEllipsis() throws {
        let context: TemplateValue = ["short": "Dune", "long": "The quick brown fox", "exact": "Emma!"]
        let page = "{{ short | truncate: 10 }}|{{ long | truncate: 10 }}|{{ long | truncate: 12 }}|{{ exact | truncate: 5 }}|{{ long | truncate: 0 }}|{{ missing | truncate: 3 }}"
        #expect(try render(page, context) == "Dune|The quick…|The quick br…|Emma!|…|")
    }

    @Test func upperAndLowerHandleNonASCII() throws {
        #expect(try render("{{ s | upper }} {{ s | lower }}", ["s": "Ünïcode Straße"]) == "ÜNÏCODE STRASSE ünïcode straße")
    }

    @Test func lengthCountsItemsAndCharacters() throws {
        let context: TemplateValue = ["books": [1, 2, 3], "word": "héllo👍🏽", "map": ["a": 1, "b": 2]]
        #expect(try render("{{ books | length }} {{ word | length }} {{ map | length }} {{ missing | length }}", context) == "3 6 2 0")
    }

    @Test func urlencodeKeepsOnlyUnreservedCharacters() throws {
        let context: TemplateValue = ["s": "a b&c/d?e=f#g~h.i_j-k+l%", "word": "café", "n": 42]
        #expect(try render("{{ s | urlencode }} {{ word | urlencode }} {{ n | urlencode }}", context)
            == "a%20b%26c%2Fd%3Fe%3Df%23g~h.i_j-k%2Bl%25 caf%C3%A9 42")
    }

    @Test func filtersChainLeftToRight() throws {
        #expect(try render(#"{{ note | default: "no note" | upper | truncate: 5 }}"#) == "NO NO…")
    }

    @Test func filterResultsAreAlwaysEscaped() throws {
        let context: TemplateValue = ["tag": "<b>", "blurb": .html(TrustedHTML(trusted: "<b>Bold</b>"))]
        #expect(try render("{{ tag | upper }} {{ blurb | lower }} {{ blurb | truncate: 3 }}", context)
            == "&lt;B&gt; &lt;b&gt;bold&lt;/b&gt; &lt;b&gt;…")
    }
}
