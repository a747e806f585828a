import Foundation
import Testing
@testable import WishlistTemplates

@Suite("Includes with bindings")
struct IncludeBindingTests: TemplateTestCase {
    static let cover = #"<img class="cover-{{ size }}" src="{{ book.cover }}" alt="{{ book.title }}">"#

    @Test func bindingsNameWhatTheIncludedTemplateCalls() throws {
        let page = #"{% for item in items %}{% include "cover.html" with book=item size="large" %}{% endfor %}"#
        let context: TemplateValue = ["items": [["title": "Dune", "cover": "/covers/1.jpg"], ["title": "Emma", "cover": "/covers/2.jpg"]]]
        #expect(try render(page, context, files: ["cover.html": Self.cover]) == """
        <img class="cover-large" src="/covers/1.jpg" alt="Dune"><img class="cover-large" src="/covers/2.jpg" alt="Emma">
        """)
    }

    @Test func valuesArePathsLiteralsOrFilteredExpressions() throws {
        let partial = "{{ title }}|{{ title | truncate: 3 }}|{{ count }}|{{ ratio }}|{% if flag %}on{% else %}off{% endif %}|{{ name.first }}|{{ count.digits }}"
        let page = #"{% include "p.html" with title=book.title | upper count=-3 ratio=2.5 flag=false name=book.author %}"#
        let context: TemplateValue = ["book": ["title": "dune", "author": ["first": "Frank"]]]
        #expect(try render(page, context, files: ["p.html": partial]) == "DUNE|DUN…|-3|2.5|off|Frank|")
    }

    @Test func bindingsShadowOuterNamesOnlyInsideTheInclude() throws {
        let files = ["p.html": "[{{ book }} {{ site }}]"]
        let page = #"{{ book }}{% include "p.html" with book="inner" %}{{ book }}{% include "p.html" %}"#
        #expect(try render(page, ["book": "outer", "site": "W"], files: files) == "outer[inner W]outer[outer W]")
    }

    @Test func bindingsShadowTheLoopVariablesOfTheIncludeSite() throws {
        let files = ["p.html": "{{ book }}"]
        let page = #"{% for book in books %}{% include "p.html" with book="bound" %},{{ book }};{% endfor %}"#
        #expect(try render(page, ["books": ["a", "b"]], files: files) == "bound,a;bound,b;")
    }

    @Test func aValueMeansWhatItMeansAtTheIncludeSite() throws {
        let files = ["p.html": "{{ book.title }} #{{ position }}"]
        let page = #"{% for book in books %}{% include "p.html" with book=book.details position=loop.index %} {% endfor %}"#
        let context: TemplateValue = ["books": [["details": ["title": "Dune"]], ["details": ["title": "Emma"]]]]
        #expect(try render(page, context, files: files) == "Dune #1 Emma #2 ")
    }

    @Test func loopsInsideTheIncludedTemplateShadowBindings() throws {
        let files = ["p.html": "{% for name in names %}{{ name }}{{ loop.index }}@{{ outer }} {% endfor %}{{ name }}"]
        let page = #"{% for x in xs %}{% include "p.html" with name="bound" outer=loop.index %}|{% endfor %}"#
        #expect(try render(page, ["xs": [1, 2], "names": ["a", "b"]], files: files) == "a1@1 b2@1 bound|a1@2 b2@2 bound|")
    }

    @Test func includedTemplatesPassBindingsOn() throws {
        let files = [
            "row.html": #"<li>{% include "cover.html" with book=entry size=size %}</li>"#,
            "cover.html": Self.cover,
        ]
        let page = #"{% include "row.html" with entry=list.top size="small" %}{% include "row.html" with entry=list.next size="tiny" %}"#
        let context: TemplateValue = ["list": ["top": ["title": "Dune", "cover": "/1.jpg"], "next": ["title": "Emma", "cover": "/2.jpg"]]]
        #expect(try render(page, context, files: files) == """
        <li><img class="cover-small" src="/1.jpg" alt="Dune"></li><li><img class="cover-tiny" src="/2.jpg" alt="Emma"></li>
        """)
    }

    // MARK: Escaping

    static let markup = #""><script>alert(1)</script>"#
    static let escapedMarkup = "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
    static let link = #"<p>{{ text }}</p><a title="{{ text }}" href="{{ url }}">x</a><a href="/books/{{ text }}">y</a>"#

    @Test func dataPassedThroughBindingsIsEscapedForWhereTheIncludedTemplateUsesIt() throws {
        let page = #"{% include "link.html" with text=book.title url=book.url %}"#
        let context: TemplateValue = ["book": ["title": .string(Self.markup), "url": "javascript:alert(1)"]]
        #expect(try render(page, context, files: ["link.html": Self.link]) == """
        <p>\(Self.escapedMarkup)</p><a title="\(Self.escapedMarkup)" href="about:invalid">x</a><a href="/books/\(Self.escapedMarkup)">y</a>
        """)
    }

    @Test func literalBindingsAreEscapedAndCheckedLikeData() throws {
        let page = #"{% include "link.html" with text='"><script>alert(1)</script>' url=" JaVaScRiPt:alert(1)" %}"#
        #expect(try render(page, files: ["link.html": Self.link]) == """
        <p>\(Self.escapedMarkup)</p><a title="\(Self.escapedMarkup)" href="about:invalid">x</a><a href="/books/\(Self.escapedMarkup)">y</a>
        """)
    }

    @Test func trustedHTMLThroughABindingIsRawOnlyInText() throws {
        let context: TemplateValue = ["blurb": .html(TrustedHTML(trusted: "<b>Hi</b>")), "url": .html(TrustedHTML(trusted: "javascript:alert(1)"))]
        let page = #"{% include "link.html" with text=blurb url=url %}"#
        #expect(try render(page, context, files: ["link.html": Self.link]) == """
        <p><b>Hi</b></p><a title="&lt;b&gt;Hi&lt;/b&gt;" href="about:invalid">x</a><a href="/books/&lt;b&gt;Hi&lt;/b&gt;">y</a>
        """)
    }

    @Test func theSameIncludeIsEscapedForEachSite() throws {
        let files = ["value.html": "{{ value }}"]
        let page = #"<a href="{% include "value.html" with value=url %}" title="{% include "value.html" with value=label %}">{% include "value.html" with value=label %}</a>"#
        let context: TemplateValue = ["url": "javascript:alert(1)", "label": "<b>"]
        #expect(try render(page, context, files: files) == #"<a href="about:invalid" title="&lt;b&gt;">&lt;b&gt;</a>"#)
    }

    @Test func anIncludedTemplateCannotPutABindingWhereNoExpressionMayGo() {
        let files = ["page.html": #"<script>{% include "p.html" with code="alert(1)" %}</script>"#, "p.html": "{{ code }}"]
        #expect(compileError(files) == "p.html:1:1: expression not allowed inside <script>; pass data through a data-* attribute instead")
    }
}
