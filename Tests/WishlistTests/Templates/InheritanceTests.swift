import Foundation
import Testing
@testable import WishlistTemplates

@Suite("Includes and inheritance")
struct InheritanceTests: TemplateTestCase {
    @Test func includeInlinesATemplateWithTheSameContextAndLoopVariables() throws {
        let files = [
            "partials/cover.html": #"<img src="{{ book.cover }}" alt="{{ book.title }}">"#,
            "partials/footer.html": "<footer>{{ site }}</footer>",
        ]
        let page = #"{% for book in books %}{% include "partials/cover.html" %}{% endfor %}{% include 'partials/footer.html' %}"#
        let context: TemplateValue = ["site": "Wishlist", "books": [["title": "Dune", "cover": "/covers/1.jpg"], ["title": "Emma", "cover": "/covers/2.jpg"]]]
        #expect(try render(page, context, files: files)
            == #"<img src="/covers/1.jpg" alt="Dune"><img src="/covers/2.jpg" alt="Emma"><footer>Wishlist</footer>"#)
    }

    @Test func includesNest() throws {
        let files = ["a.html": #"A({% include "b.html" %})"#, "b.html": "B{{ x }}"]
        #expect(try render(#"{% include "a.html" %}{% include "a.html" %}"#, ["x": 1], files: files) == "A(B1)A(B1)")
    }

    static let inheritanceFiles = [
        "base.html": """
        <html><head><title>{% block title %}Wishlist{% endblock %}</title></head>\
        <body>{% block body %}<main>{% block content %}default content{% endblock %}</main>{% endblock body %}\
        <footer>{% block footer %}© {{ year }}{% endblock %}</footer></body></html>
        """,
        "layout.html": """
        {% extends "base.html" %}
        {% block title %}{% block page_title %}Page{% endblock %} · Wishlist{% endblock %}
        {% block footer %}{% include "partials/credits.html" %}{% endblock %}
        """,
        "partials/credits.html": "Made by {{ author }}",
        "page.html": """
        {# A list page: comments and whitespace may come before extends. #}
        {% extends "layout.html" %}
        {% block page_title %}{{ list.name }}{% endblock %}
        {% block content %}<ul>{% for b in list.books %}<li>{{ b }}</li>{% endfor %}</ul>{% endblock content %}

        """,
    ]

    @Test func twoLevelInheritanceReplacesBlocksAtEveryLevel() throws {
        let context: TemplateValue = ["author": "Ada", "year": 2024, "list": ["name": "Dune & more", "books": ["Dune", "Emma"]]]
        let expected = """
        <html><head><title>Dune &amp; more · Wishlist</title></head>\
        <body><main><ul><li>Dune</li><li>Emma</li></ul></main>\
        <footer>Made by Ada</footer></body></html>
        """
        #expect(try render(template: "page.html", context, files: Self.inheritanceFiles) == expected)
    }

    @Test func parentTemplatesRenderTheirOwnDefaults() throws {
        let context: TemplateValue = ["author": "Ada", "year": 2024]
        #expect(try render(template: "layout.html", context, files: Self.inheritanceFiles)
            == "<html><head><title>Page · Wishlist</title></head><body><main>default content</main><footer>Made by Ada</footer></body></html>")
        #expect(try render(template: "base.html", context, files: Self.inheritanceFiles)
            == "<html><head><title>Wishlist</title></head><body><main>default content</main><footer>© 2024</footer></body></html>")
    }

    @Test func aChildCanReplaceABlockThatContainsOtherBlocks() throws {
        var files = Self.inheritanceFiles
        files["bare.html"] = #"{% extends "layout.html" %}{% block body %}<p>{% block message %}bare{% endblock %}</p>{% endblock %}"#
        files["barer.html"] = #"{% extends "bare.html" %}{% block message %}barer{% endblock %}"#
        #expect(try render(template: "barer.html", ["author": "Ada"], files: files)
            == "<html><head><title>Page · Wishlist</title></head><body><p>barer</p><footer>Made by Ada</footer></body></html>")
    }

    @Test func includedMarkupContinuesTheHTMLContextOfTheIncludeSite() throws {
        let files = ["url.html": "{{ link }}", "label.html": "{{ label }}"]
        let page = #"<a href="{% include "url.html" %}" title="{% include "label.html" %}">{% include "label.html" %}</a>"#
        let context: TemplateValue = ["link": "javascript:alert(1)", "label": .html(TrustedHTML(trusted: "<b>Go</b>"))]
        #expect(try render(page, context, files: files) == #"<a href="about:invalid" title="&lt;b&gt;Go&lt;/b&gt;"><b>Go</b></a>"#)
    }
}
