import Foundation
import Testing
@testable import WishlistTemplates

@Suite("Outputs")
struct OutputTests: TemplateTestCase {
    @Test func staticTextIsKeptAsWrittenButForItsIndentation() throws {
        let page = "<!DOCTYPE html>\n  <p>  spaced\ttext  </p>\n\n{ not a tag } %} }}"
        #expect(try render(page) == "<!DOCTYPE html>\n<p>  spaced\ttext  </p>\n{ not a tag } %} }}")
    }

    @Test func dottedPathsReachIntoNestedDictionaries() throws {
        let context: TemplateValue = ["user": ["name": "Ada", "address": ["city": "London"]]]
        #expect(try render("{{ user.name }} / {{ user.address.city }}", context) == "Ada / London")
    }

    @Test func missingValuesRenderAsNothing() throws {
        let context: TemplateValue = ["title": "Dune", "user": [:]]
        #expect(try render("[{{ nothing }}|{{ user.missing }}|{{ user.a.b.c }}|{{ title.length }}]", context) == "[|||]")
    }

    @Test func aContextThatIsNotADictionaryRendersNothing() throws {
        #expect(try render("[{{ title }}]", "just a string") == "[]")
    }

    @Test func scalarsRenderPlainly() throws {
        let context: TemplateValue = [
            "int": 42, "negative": -7, "double": 4.5, "yes": true, "no": false, "null": nil,
            "date": .date(utcDate(2024, 3, 9, 23, 59)), "list": [1, 2], "map": ["a": 1],
        ]
        let page = "{{ int }} {{ negative }} {{ double }} {{ yes }} {{ no }} [{{ null }}] {{ date }} [{{ list }}] [{{ map }}]"
        #expect(try render(page, context) == "42 -7 4.5 true false [] 2024-03-09 [] []")
    }

    @Test func literalsRenderTheirValue() throws {
        let page = #"{{ "double" }} {{ 'single' }} {{ 42 }} {{ -3 }} {{ 2.5 }} {{ true }} {{ false }} {{ "say \"hi\"" }} {{ 'it\'s' }}"#
        #expect(try render(page) == "double single 42 -3 2.5 true false say &quot;hi&quot; it&#39;s")
    }

    @Test func commentsAreRemoved() throws {
        #expect(try render("a{# a comment with {{ tags }} and {% if %} #}b{#\nmulti\nline\n#}c") == "abc")
    }

    @Test func textOutputEscapesTheFiveSpecialCharacters() throws {
        #expect(try render("<p>{{ text }}</p>", ["text": #"& < > " ' plain"#]) == "<p>&amp; &lt; &gt; &quot; &#39; plain</p>")
    }

    @Test func trustedHTMLIsWrittenVerbatimInText() throws {
        let context: TemplateValue = ["blurb": .html(TrustedHTML(trusted: "<em>Bold</em> & brave"))]
        #expect(try render("<div>{{ blurb }}</div>", context) == "<div><em>Bold</em> & brave</div>")
    }
}
