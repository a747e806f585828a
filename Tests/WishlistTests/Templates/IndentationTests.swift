import Testing
@testable import WishlistTemplates

/// The views are indented for their readers; a page goes out with each run of whitespace that
/// holds a line break cut to one line break, wherever a browser would read the two alike
/// (docs/decisions/templates-drop-their-indentation.md).
@Suite("Indentation")
struct IndentationTests: TemplateTestCase {
    @Test func indentationBetweenTagsBecomesOneLineBreak() throws {
        let page = "<ul>\n    <li>one</li>\n\n    <li>two</li>\n  </ul>\n"
        #expect(try render(page) == "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n")
    }

    @Test func whitespaceWithoutALineBreakIsKept() throws {
        let page = "<p>by  <a href=\"/a\">Ada</a> \t and   Bea</p>"
        #expect(try render(page) == page)
    }

    @Test func outputsKeepTheirPlaceBetweenLines() throws {
        let page = "<p>\n      {{ name }}\n      {{ other }}\n    </p>"
        #expect(try render(page, ["name": "Ada", "other": "Bea"]) == "<p>\nAda\nBea\n</p>")
    }

    @Test func aTagWrittenOverSeveralLinesKeepsItsAttributes() throws {
        let page = "<input\n      type=\"text\"\n      name=\"q\"\n      required\n    >"
        #expect(try render(page) == "<input\ntype=\"text\"\nname=\"q\"\nrequired\n>")
    }

    @Test func attributeValuesKeepEveryByte() throws {
        let page = "<p title=\"one\n    two\" data-x='a\n  b'>x</p>"
        #expect(try render(page) == page)
    }

    @Test func preformattedTextKeepsEveryByte() throws {
        let page = "<pre>\n  a\n    {{ b }}\n</pre>\n  <p>\n  c</p>"
        #expect(try render(page, ["b": "B"]) == "<pre>\n  a\n    B\n</pre>\n<p>\nc</p>")
    }

    @Test func rawTextCommentsAndTextareasKeepEveryByte() throws {
        let page = "<script>\n  let a = 1;\n</script><style>\n  p { }\n</style><!--\n  note\n--><textarea>\n  typed\n</textarea><title>\n  T\n</title>"
        #expect(try render(page) == page)
    }

    @Test func aBranchMayNotOpenAPreThatTheOtherDoesNot() {
        let error = compileError(["page.html": "{% if x %}<pre>{% endif %}text</pre>"])
        #expect(error?.contains("different HTML contexts (the text of a <pre> and text)") == true, "\(error ?? "compiled")")
    }
}
