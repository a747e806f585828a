import Foundation
import Testing
@testable import WishlistTemplates

@Suite("Context-aware escaping")
struct EscapingTests: TemplateTestCase {
    // MARK: Text and attribute values

    @Test func scriptInjectionInTextIsInert() throws {
        let payload = #""><script>alert(1)</script>"#
        #expect(try render("<p>{{ name }}</p>", ["name": .string(payload)])
            == "<p>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>")
    }

    @Test func breakingOutOfQuotedAttributesIsInert() throws {
        let context: TemplateValue = ["double": #""><script>alert(1)</script>"#, "single": "' onmouseover=alert(1) x='"]
        #expect(try render(#"<input value="{{ double }}" title='{{ single }}'>"#, context)
            == #"<input value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" title='&#39; onmouseover=alert(1) x=&#39;'>"#)
    }

    @Test func trustedHTMLIsRawOnlyInText() throws {
        let context: TemplateValue = ["blurb": .html(TrustedHTML(trusted: #"<b class="x">Hi</b>"#))]
        let page = #"{{ blurb }}<img alt="{{ blurb }}"><title>{{ blurb }}</title><textarea>{{ blurb }}</textarea>"#
        #expect(try render(page, context) == """
        <b class="x">Hi</b><img alt="&lt;b class=&quot;x&quot;&gt;Hi&lt;/b&gt;">\
        <title>&lt;b class=&quot;x&quot;&gt;Hi&lt;/b&gt;</title><textarea>&lt;b class=&quot;x&quot;&gt;Hi&lt;/b&gt;</textarea>
        """)
    }

    @Test func trustedHTMLInAURLAttributeIsCheckedLikeAnyURL() throws {
        let context: TemplateValue = ["link": .html(TrustedHTML(trusted: "javascript:alert(1)"))]
        #expect(try render(#"<a href="{{ link }}">x</a>"#, context) == #"<a href="about:invalid">x</a>"#)
    }

    // MARK: URL attributes

    static let dangerousURLs = [
        "javascript:alert(1)", "JaVaScRiPt:alert(1)", "  javascript:alert(1)", "java\tscript:alert(1)",
        "\njavascript:alert(1)", "java\nscript:alert(1)", "\u{01}javascript:alert(1)", "javascript\r:alert(1)",
        "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)",
        "mailto:someone@example.com", "httpx://example.com", "http ://example.com",
    ]

    @Test(arguments: dangerousURLs)
    func urlsWithOtherSchemesBecomeAboutInvalid(url: String) throws {
        #expect(try render(#"<a href="{{ url }}">x</a>"#, ["url": .string(url)]) == #"<a href="about:invalid">x</a>"#)
    }

    static let urlAttributes = ["href", "src", "action", "formaction", "cite", "poster", "data", "HREF"]

    @Test(arguments: urlAttributes)
    func everyURLAttributeIsChecked(attribute: String) throws {
        #expect(try render("<x \(attribute)='{{ url }}'>", ["url": "javascript:alert(1)"]) == "<x \(attribute)='about:invalid'>")
    }

    static let safeURLs: [(url: String, rendered: String)] = [
        ("https://example.com/a?b=1&c=2", "https://example.com/a?b=1&amp;c=2"),
        ("HTTP://EXAMPLE.COM", "HTTP://EXAMPLE.COM"),
        ("/lists/summer-reading", "/lists/summer-reading"),
        ("?q=1", "?q=1"),
        ("#top", "#top"),
        ("book.html", "book.html"),
        ("reviews/2024:best", "reviews/2024:best"),
        // Entities in data are escaped, so the browser sees the literal text: harmless relative URLs.
        ("javascript&#58;alert(1)", "javascript&amp;#58;alert(1)"),
        ("&#106;avascript:alert(1)", "&amp;#106;avascript:alert(1)"),
    ]

    @Test(arguments: safeURLs)
    func relativeAndHTTPURLsPassEscaped(url: String, rendered: String) throws {
        #expect(try render(#"<a href="{{ url }}">x</a>"#, ["url": .string(url)]) == #"<a href="\#(rendered)">x</a>"#)
    }

    @Test func nonURLAttributesAreOnlyEscaped() throws {
        #expect(try render(#"<img alt="{{ text }}">"#, ["text": "javascript:alert(1)"]) == #"<img alt="javascript:alert(1)">"#)
    }

    @Test func aStaticPrefixFixesTheSchemeSoOnlyEscapingIsNeeded() throws {
        let context: TemplateValue = ["id": "javascript:alert(1)"]
        #expect(try render(#"<a href="/books/{{ id }}">x</a>"#, context) == #"<a href="/books/javascript:alert(1)">x</a>"#)
        #expect(try render(#"<a href="/books/{{ id | urlencode }}">x</a>"#, context) == #"<a href="/books/javascript%3Aalert%281%29">x</a>"#)
        #expect(try render(#"<a href="mailto:{{ id }}">x</a>"#, context) == #"<a href="mailto:javascript:alert(1)">x</a>"#)
    }

    @Test func leadingWhitespaceDoesNotCountAsAPrefix() throws {
        #expect(try render(#"<a href=" {{ url }}">x</a>"#, ["url": "javascript:alert(1)"]) == #"<a href=" about:invalid">x</a>"#)
    }

    @Test func outputsAfterAnUnsettledPrefixCannotIntroduceAScheme() throws {
        #expect(try render(#"<a href="java{{ rest }}">x</a>"#, ["rest": "script:alert(1)"]) == #"<a href="javaabout:invalid">x</a>"#)
        let split: TemplateValue = ["a": "javascript", "b": ":alert(1)"]
        #expect(try render(#"<a href="{{ a }}{{ b }}">x</a>"#, split) == #"<a href="javascriptabout:invalid">x</a>"#)
        let harmless: TemplateValue = ["a": "/search", "b": "?q=a:b"]
        #expect(try render(#"<a href="{{ a }}{{ b }}">x</a>"#, harmless) == #"<a href="/search?q=a:b">x</a>"#)
    }

    @Test func urlPiecesJoinedByALoopCannotFormAScheme() throws {
        let page = #"<a href="{% for part in parts %}{{ part }}{% endfor %}">x</a>"#
        #expect(try render(page, ["parts": ["java", "script:alert(1)"]]) == #"<a href="javaabout:invalid">x</a>"#)
        #expect(try render(page, ["parts": ["/lists/", "summer"]]) == #"<a href="/lists/summer">x</a>"#)
    }

    @Test func aPrefixFromOnlySomeBranchesDoesNotCount() throws {
        let page = #"<a href="{% if local %}/static/{% endif %}{{ url }}">x</a>"#
        #expect(try render(page, ["local": false, "url": "javascript:alert(1)"]) == #"<a href="about:invalid">x</a>"#)
        #expect(try render(page, ["local": true, "url": "cover.jpg"]) == #"<a href="/static/cover.jpg">x</a>"#)
    }

    // MARK: Following the markup

    @Test func contextTrackingFollowsTagsCommentsAndRawText() throws {
        let page = """
        <!DOCTYPE html><!-- a <comment> with "quotes' --><p title="a > b">1 < 2 {{ x }}</p>\
        <script>if (a < b && c > "d") {}</script><style>p > a { content: "'" }</style>{{ x }}\
        <textarea><p title="</textarea>{{ x }}<a href='{{ x }}'>
        """
        let context: TemplateValue = ["x": "<&>"]
        #expect(try render(page, context) == """
        <!DOCTYPE html><!-- a <comment> with "quotes' --><p title="a > b">1 < 2 &lt;&amp;&gt;</p>\
        <script>if (a < b && c > "d") {}</script><style>p > a { content: "'" }</style>&lt;&amp;&gt;\
        <textarea><p title="</textarea>&lt;&amp;&gt;<a href='&lt;&amp;&gt;'>
        """)
    }

    @Test func controlTagsMayAppearWhereOutputsMayNot() throws {
        let page = #"<script>{% if debug %}console.log("debug");{% endif %}</script><div {% if hidden %}hidden{% endif %}>{{ x }}</div>"#
        #expect(try render(page, ["debug": true, "hidden": true, "x": 1]) == #"<script>console.log("debug");</script><div hidden>1</div>"#)
        #expect(try render(page, ["x": 1]) == "<script></script><div >1</div>")
    }

    @Test func branchesThatStayInsideATagOrValueMerge() throws {
        let page = #"<li{% if active %} class="active"{% endif %} title="{{ name }}">{% for c in classes %}{{ c }} {% endfor %}<b class="book{% if featured %} featured{% endif %} {{ extra }}"></b></li>"#
        let context: TemplateValue = ["active": true, "featured": true, "name": "<Dune>", "classes": ["a", "b"], "extra": "x"]
        #expect(try render(page, context) == #"<li class="active" title="&lt;Dune&gt;">a b <b class="book featured x"></b></li>"#)
    }

    static let forbiddenPlaces: [(page: String, error: String)] = [
        ("<script>var x = {{ x }};</script>", "page.html:1:17: expression not allowed inside <script>; pass data through a data-* attribute instead"),
        (#"<SCRIPT type="module">{{ x }}</SCRIPT>"#, "page.html:1:23: expression not allowed inside <script>; pass data through a data-* attribute instead"),
        ("<style>p { color: {{ c }} }</style>", "page.html:1:19: expression not allowed inside <style>; pass data through a data-* attribute instead"),
        (#"<button onclick="go('{{ id }}')">"#, "page.html:1:22: expression not allowed in event-handler attribute 'onclick'; pass data through a data-* attribute instead"),
        (#"<p OnMouseOver="{{ js }}">"#, "page.html:1:17: expression not allowed in event-handler attribute 'onmouseover'; pass data through a data-* attribute instead"),
        (#"<p style="color: {{ c }}">"#, "page.html:1:18: expression not allowed in a 'style' attribute"),
        (#"<iframe srcdoc="{{ html }}">"#, "page.html:1:17: expression not allowed in a 'srcdoc' attribute"),
        ("<a href={{ url }}>", #"page.html:1:9: expression not allowed in the unquoted value of attribute 'href'; quote the value: href="{{ … }}""#),
        ("<input value=x{{ v }}>", #"page.html:1:15: expression not allowed in the unquoted value of attribute 'value'; quote the value: value="{{ … }}""#),
        ("<div {{ attrs }}>", "page.html:1:6: expression not allowed in attribute-name position inside <div>; write the attribute yourself and put the expression in its quoted value"),
        ("<div data-{{ name }}=\"x\">", "page.html:1:11: expression not allowed in attribute-name position inside <div>; write the attribute yourself and put the expression in its quoted value"),
        ("<{{ tag }}>", "page.html:1:2: expression not allowed in a tag name"),
        ("<h{{ level }}>", "page.html:1:3: expression not allowed in a tag name"),
        ("<!-- {{ secret }} -->", "page.html:1:6: expression not allowed inside an HTML comment or declaration"),
    ]

    @Test(arguments: forbiddenPlaces)
    func expressionsInUnsafePlacesAreCompileErrors(page: String, error: String) {
        #expect(compileError(page) == error)
    }

    @Test func branchesEndingInDifferentContextsAreCompileErrors() {
        #expect(compileError(#"{% if a %}<a href="{% endif %}{{ u }}">"#)
            == "page.html:1:1: the branches of this 'if' end in different HTML contexts (the value of attribute 'href' and text); close tags and quotes inside each branch")
        #expect(compileError(#"<p>{% for x in xs %}<a title="{% endfor %}">"#)
            == "page.html:1:4: the body of this 'for' starts in text but ends in the value of attribute 'title'; close tags and quotes inside the loop")
        #expect(compileError(#"{% for x in xs %}{% empty %}<a title="{% endfor %}">"#)
            == "page.html:1:1: the 'empty' branch of this 'for' ends in the value of attribute 'title' but the loop body in text")
    }
}
