import Foundation
import Testing
@testable import WishlistTemplates

/// Every compile error names the file, line and column, and says what was expected.
@Suite("Compile errors")
struct ErrorTests: TemplateTestCase {
    static let delimiterErrors: [(page: String, error: String)] = [
        ("<p>{{ title </p>", "page.html:1:4: expected '}}' to close '{{'"),
        ("{{ a }\n{{ b }}", "page.html:1:1: expected '}}' to close '{{'"),
        ("\n\n    {% if user.name\n<p>hi</p>{% endif %}", "page.html:3:5: expected '%}' to close 'if'"),
        ("text {%", "page.html:1:6: expected '%}' to close '{%'"),
        ("a {# note", "page.html:1:3: expected '#}' to close '{#'"),
    ]

    static let tagErrors: [(page: String, error: String)] = [
        ("{% unless x %}", "page.html:1:1: unknown tag 'unless'; expected one of if, elif, else, endif, for, empty, endfor, block, endblock, include, extends, t"),
        ("{% %}", "page.html:1:1: expected a tag name after '{%'"),
        ("x{% endif %}", "page.html:1:2: unexpected '{% endif %}': no 'if' is open"),
        ("{% else %}", "page.html:1:1: unexpected '{% else %}': no 'if' is open"),
        ("{% elif x %}", "page.html:1:1: unexpected '{% elif %}': no 'if' is open"),
        ("{% endfor %}", "page.html:1:1: unexpected '{% endfor %}': no 'for' is open"),
        ("{% empty %}", "page.html:1:1: unexpected '{% empty %}': no 'for' is open"),
        ("{% endblock %}", "page.html:1:1: unexpected '{% endblock %}': no 'block' is open"),
        ("{% if a %}\n{% for b in c %}\n{% endif %}", "page.html:3:1: unexpected '{% endif %}' inside 'for' opened at 2:1; expected '{% empty %}' or '{% endfor %}'"),
        ("{% for b in c %}{% else %}{% endfor %}", "page.html:1:17: unexpected '{% else %}' inside 'for' opened at 1:1; expected '{% empty %}' or '{% endfor %}'"),
        ("{% block a %}{% endif %}", "page.html:1:14: unexpected '{% endif %}' inside 'block' opened at 1:1; expected '{% endblock %}'"),
        ("{% if a %}1{% else %}2{% else %}3{% endif %}", "page.html:1:23: unexpected '{% else %}': 'if' opened at 1:1 already has an '{% else %}'"),
        ("{% if a %}1{% else %}2{% elif b %}3{% endif %}", "page.html:1:23: unexpected '{% elif %}' after '{% else %}' in 'if' opened at 1:1"),
        ("{% for x in y %}{% empty %}{% empty %}{% endfor %}", "page.html:1:28: unexpected '{% empty %}': 'for' opened at 1:1 already has an '{% empty %}'"),
        ("<ul>\n  {% for b in books %}\n    {% if b %}<li>{{ b }}</li>{% endif %}\n", "page.html:4:1: expected '{% endfor %}' before end of file; 'for' opened at 2:3"),
        ("\n\n    {% if x %}yes", "page.html:3:18: expected '{% endif %}' before end of file; 'if' opened at 3:5"),
        ("{% block main %}x", "page.html:1:18: expected '{% endblock %}' before end of file; 'block' opened at 1:1"),
        ("{% if a %}{% else x %}{% endif %}", "page.html:1:19: unexpected 'x'; expected '%}'"),
        ("{% for in books %}{% endfor %}", "page.html:1:8: expected a loop variable name after 'for', found 'in'"),
        ("{% for book of books %}{% endfor %}", "page.html:1:13: expected 'in' after 'for book', found 'of'"),
        ("{% for loop in books %}{% endfor %}", "page.html:1:1: 'loop' is reserved for loop.index, loop.first and friends; choose another loop variable name"),
        ("{% include partials %}", "page.html:1:12: expected the name of the template to include as a quoted string, found 'partials'"),
        (#"{% include "p.html" book %}"#, "page.html:1:21: unexpected 'book'; expected 'with' or '%}'"),
        (#"{% include "p.html" with %}"#, "page.html:1:26: expected name=value after 'with', found '%}'"),
        (#"{% include "p.html" with 1=x %}"#, "page.html:1:26: expected name=value after 'with', found '1'"),
        (#"{% include "p.html" with book item %}"#, "page.html:1:31: expected '=' after 'book', found 'item'"),
        (#"{% include "p.html" with book==item %}"#, "page.html:1:30: expected '=' after 'book', found '=='"),
        (#"{% include "p.html" with book= %}"#, "page.html:1:32: expected a name or a literal before '%}'"),
        (#"{% include "p.html" with a=1, b=2 %}"#, "page.html:1:29: expected another name=value or '%}', found ','"),
        (#"{% include "p.html" with a=1 a=2 %}"#, "page.html:1:30: duplicate name 'a' in 'with'; it is already bound at 1:26"),
        (#"{% include "p.html" with loop=1 %}"#, "page.html:1:26: 'loop' is reserved for loop.index, loop.first and friends; choose another name to bind"),
        ("{% block a %}{% block a %}{% endblock %}{% endblock %}", "page.html:1:14: duplicate block 'a'; it is already defined at 1:1"),
        ("{% block a %}{% endblock %}\n{% block a %}{% endblock %}", "page.html:2:1: duplicate block 'a'; it is already defined at 1:1"),
        ("{% block a %}x{% endblock b %}", "page.html:1:27: '{% endblock b %}' does not match '{% block a %}' opened at 1:1"),
    ]

    static let expressionErrors: [(page: String, error: String)] = [
        ("{{ }}", "page.html:1:4: expected a name or a literal before '}}'"),
        ("{{ a b }}", "page.html:1:6: unexpected 'b'; expected '|' or '}}'"),
        ("{{ a. }}", "page.html:1:7: expected a name after '.', found '}}'"),
        ("{{ \"abc }}", "page.html:1:4: unterminated string literal: expected a closing '\"'"),
        ("{{ 'abc }}", "page.html:1:4: unterminated string literal: expected a closing \"'\""),
        ("{{ a | }}", "page.html:1:8: expected a filter name after '|', found '}}'"),
        ("{{ a @ b }}", "page.html:1:6: unexpected character '@' in expression"),
        ("{{ and }}", "page.html:1:4: expected a name or a literal, found 'and'"),
        ("{{ 99999999999999999999 }}", "page.html:1:4: number '99999999999999999999' is out of range"),
        ("{% if %}{% endif %}", "page.html:1:7: expected a name or a literal before '%}'"),
        ("{% if a == %}{% endif %}", "page.html:1:12: expected a name or a literal before '%}'"),
        ("{% if a b %}{% endif %}", "page.html:1:9: unexpected 'b'; expected 'and', 'or', a comparison or '%}'"),
        ("{% if (a or b %}{% endif %}", "page.html:1:15: expected ')' to close '(' at 1:7, found '%}'"),
        ("{% for b in books %}{{ loop.idx }}{% endfor %}", "page.html:1:24: unknown loop property 'loop.idx'; expected one of loop.index, loop.index0, loop.first, loop.last, loop.length"),
    ]

    static let filterErrors: [(page: String, error: String)] = [
        ("{{ a | shout }}", "page.html:1:8: unknown filter 'shout'; expected one of date, default, length, lower, pluralize, truncate, upper, urlencode"),
        ("{{ a | truncate }}", "page.html:1:8: filter 'truncate' expects 1 integer argument (the maximum number of characters), found 0"),
        (#"{{ a | truncate: "80" }}"#, #"page.html:1:8: filter 'truncate' expects a non-negative integer, found string "80""#),
        ("{{ a | truncate: -1 }}", "page.html:1:8: filter 'truncate' expects a non-negative integer, found integer -1"),
        ("{{ a | upper: 1 }}", "page.html:1:8: filter 'upper' takes no arguments, found 1"),
        (#"{{ a | pluralize: "a", "b", "c" }}"#, #"page.html:1:8: filter 'pluralize' expects 1 or 2 string arguments (the singular and optionally the plural, e.g. "person", "people"), found 3"#),
        ("{{ a | pluralize: 2 }}", "page.html:1:8: filter 'pluralize' expects a string, found integer 2"),
        ("{{ a | date }}", #"page.html:1:8: filter 'date' expects 1 string argument (the format, e.g. "MMMM d, yyyy", or a language's style: "long"), found 0"#),
        (#"{{ a | date: "YYYY-MM-dd" }}"#, #"page.html:1:8: unsupported date field 'YYYY' in "YYYY-MM-dd"; supported letters are y, M, L, d, E, H, h, m, s, S, a, Z, X; quote literal text like 'at'"#),
        (#"{{ a | date: "'at" }}"#, #"page.html:1:8: unterminated quoted text in date format "'at""#),
        ("{{ a | default }}", "page.html:1:8: filter 'default' expects 1 argument (the value to use when the input is empty), found 0"),
        ("{{ a | default: b }}", "page.html:1:17: expected a literal argument for filter 'default', found 'b'"),
    ]

    @Test(arguments: delimiterErrors + tagErrors + expressionErrors + filterErrors)
    func syntaxErrorsPointAtTheProblem(page: String, error: String) {
        #expect(compileError(page) == error)
    }

    static let templateErrors: [(files: [String: String], error: String)] = [
        (["page.html": #"<p>{% include "missing.html" %}</p>"#], "page.html:1:15: included template 'missing.html' not found"),
        (["page.html": #"{% extends "nope.html" %}"#], "page.html:1:12: parent template 'nope.html' not found"),
        (["a.html": #"A{% include "b.html" %}"#, "b.html": #"B{% include "a.html" %}"#], "b.html:1:13: include cycle: a.html → b.html → a.html"),
        (["x.html": #"{% include "x.html" %}"#], "x.html:1:12: include cycle: x.html → x.html"),
        (["a.html": #"{% extends "b.html" %}"#, "b.html": #"{% extends "a.html" %}"#], "b.html:1:12: extends cycle: a.html → b.html → a.html"),
        (["base.html": "", "page.html": #"<p>hi</p>{% extends "base.html" %}"#], "page.html:1:10: '{% extends %}' must come first in the template, before any text or other tag"),
        (["base.html": "", "page.html": #"{% block a %}{% endblock %}{% extends "base.html" %}"#], "page.html:1:28: '{% extends %}' must come first in the template, before any text or other tag"),
        (["base.html": "", "page.html": #"{% extends "base.html" %}{% extends "base.html" %}"#], "page.html:1:26: '{% extends %}' must come first in the template, before any text or other tag"),
        (["base.html": "", "page.html": "{% extends \"base.html\" %}\n<p>stray</p>\n{% block a %}{% endblock %}"], "page.html:2:1: text outside a '{% block %}' in a template that extends 'base.html'; only blocks may appear at its top level"),
        (["base.html": "", "page.html": "{% extends \"base.html\" %}\n  {{ title }}"], "page.html:2:3: '{{ }}' outside a '{% block %}' in a template that extends 'base.html'; only blocks may appear at its top level"),
        (["base.html": "", "page.html": #"{% extends "base.html" %}{% if a %}{% endif %}"#], "page.html:1:26: '{% if %}' outside a '{% block %}' in a template that extends 'base.html'; only blocks may appear at its top level"),
        (["page.html": #"{% include "missing.html" with book=item %}"#], "page.html:1:12: included template 'missing.html' not found"),
        (["p.html": "{{ n }}", "page.html": #"{% for b in c %}{% include "p.html" with n=loop.idx %}{% endfor %}"#], "page.html:1:44: unknown loop property 'loop.idx'; expected one of loop.index, loop.index0, loop.first, loop.last, loop.length"),
        (["p.html": "\n{{ t.x }}", "page.html": #"{% include "p.html" with t=a | upper %}"#], "p.html:2:4: 't' is bound to a value with filters, so 't.x' cannot look inside it; bind the value without filters and apply them here"),
        (["bad.html": "\n  {{ a | nope }}", "page.html": #"{% include "bad.html" %}"#], "bad.html:2:10: unknown filter 'nope'; expected one of date, default, length, lower, pluralize, truncate, upper, urlencode"),
        // Loops nest at most six deep, counted through includes (docs/fuzzing.md, finding 7).
        (["page.html": nestedLoops(7, around: "x")], "page.html:1:121: this 'for' is inside 6 others; loops nest at most 6 deep"),
        (["part.html": "\n" + nestedLoops(1, around: "x"), "page.html": nestedLoops(6, around: #"{% include "part.html" %}"#)],
         "part.html:2:1: this 'for' is inside 6 others; loops nest at most 6 deep"),
    ]

    /// `count` loops over `items`, each inside the one before, around `body`.
    static func nestedLoops(_ count: Int, around body: String) -> String {
        String(repeating: "{% for a in items %}", count: count) + body + String(repeating: "{% endfor %}", count: count)
    }

    @Test func sixLoopsDeepCompileAndRenderEveryCombination() throws {
        let page = Self.nestedLoops(6, around: "x")
        #expect(try render(page, ["items": [1, 2]]) == String(repeating: "x", count: 64))
    }

    @Test(arguments: templateErrors)
    func templateReferenceErrorsPointAtTheReference(files: [String: String], error: String) {
        #expect(compileError(files) == error)
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(compileError("👍🏽 é {{ }}") == "page.html:1:8: expected a name or a literal before '}}'")
    }
}
