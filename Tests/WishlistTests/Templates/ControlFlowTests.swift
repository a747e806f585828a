import Foundation
import Testing
@testable import WishlistTemplates

@Suite("Conditions and loops")
struct ControlFlowTests: TemplateTestCase {
    @Test func ifElifElsePicksTheFirstTrueBranch() throws {
        let page = "{% if n == 1 %}one{% elif n == 2 %}two{% elif n > 2 %}many{% else %}none{% endif %}"
        for (n, expected) in [(1, "one"), (2, "two"), (5, "many"), (0, "none")] {
            #expect(try render(page, ["n": .int(n)]) == expected)
        }
        #expect(try render(page) == "none")
    }

    @Test func ifWithoutElseRendersNothingWhenFalse() throws {
        #expect(try render("[{% if flag %}shown{% endif %}]", ["flag": false]) == "[]")
    }

    static let falsyValues: [TemplateValue] = [nil, false, "", 0, 0.0, [], [:]]
    static let truthyValues: [TemplateValue] = [
        true, "x", " ", 1, -1, 0.5, [0], ["a": nil], .date(Date(timeIntervalSince1970: 0)), .html(TrustedHTML(trusted: "<br>")),
    ]

    @Test(arguments: falsyValues)
    func falsyValuesTakeTheElseBranch(value: TemplateValue) throws {
        #expect(try render("{% if v %}yes{% else %}no{% endif %}{% if not v %}!{% endif %}", ["v": value]) == "no!")
    }

    @Test(arguments: truthyValues)
    func truthyValuesTakeTheIfBranch(value: TemplateValue) throws {
        #expect(try render("{% if v %}yes{% else %}no{% endif %}{% if not v %}!{% endif %}", ["v": value]) == "yes")
    }

    @Test func missingValuesAreFalsy() throws {
        let context: TemplateValue = ["user": "not a dictionary"]
        #expect(try render("{% if nobody %}a{% elif user.name %}b{% else %}c{% endif %}", context) == "c")
    }

    @Test func notBindsTighterThanAndWhichBindsTighterThanOr() throws {
        let page = "{% if not a or b and c %}1{% else %}0{% endif %}{% if a or b and c %}1{% else %}0{% endif %}{% if (a or b) and c %}1{% else %}0{% endif %}{% if not (a and b) %}1{% else %}0{% endif %}"
        for a in [false, true] {
            for b in [false, true] {
                for c in [false, true] {
                    let expected = [(!a) || (b && c), a || (b && c), (a || b) && c, !(a && b)].map { $0 ? "1" : "0" }.joined()
                    #expect(try render(page, ["a": .bool(a), "b": .bool(b), "c": .bool(c)]) == expected, "a=\(a) b=\(b) c=\(c)")
                }
            }
        }
    }

    @Test func comparisonsAreNumericForNumbersAndOrderedForStrings() throws {
        let cases: [(String, Bool)] = [
            ("3 < 10", true), ("10 > 3", true), ("2 == 2.0", true), ("2.5 >= 2", true), ("1 <= 1", true), ("1 != 1.0", false),
            (#""apple" < "banana""#, true), (#""10" < "9""#, true), (#""a" == 'a'"#, true), (#""a" != "b""#, true),
            (#""3" == 3"#, false), (#""a" < 1"#, false), (#""a" >= 1"#, false),
            ("count == 3", true), ("count > limit", false), ("missing == other", true), ("missing < 1", false),
            ("early < late", true), ("late <= early", false), ("flag == true", true), ("title == 'Dune'", true),
        ]
        let context: TemplateValue = [
            "count": 3, "limit": 5, "flag": true, "title": "Dune",
            "early": .date(utcDate(2020, 1, 1)), "late": .date(utcDate(2024, 1, 1)),
        ]
        for (condition, expected) in cases {
            #expect(try render("{% if \(condition) %}true{% else %}false{% endif %}", context) == "\(expected)", "\(condition)")
        }
    }

    @Test func comparisonOperandsCanUseFilters() throws {
        let page = #"{% if books | length >= 3 and title | upper == "DUNE" %}yes{% endif %}"#
        #expect(try render(page, ["books": [1, 2, 3], "title": "Dune"]) == "yes")
    }

    @Test func forExposesLoopProperties() throws {
        let page = "{% for b in books %}{{ loop.index }}/{{ loop.index0 }}/{{ loop.length }} {{ b }}{% if loop.first %} first{% endif %}{% if loop.last %} last{% endif %}\n{% endfor %}"
        #expect(try render(page, ["books": ["Dune", "Emma", "Ulysses"]]) == "1/0/3 Dune first\n2/1/3 Emma\n3/2/3 Ulysses last\n")
    }

    @Test func aSingleItemIsBothFirstAndLast() throws {
        #expect(try render("{% for b in books %}{{ loop.first }} {{ loop.last }}{% endfor %}", ["books": ["Dune"]]) == "true true")
    }

    @Test(arguments: [TemplateValue.array([]), nil, "a string", ["key": "value"], 3])
    func emptyBranchRunsWithoutItems(books: TemplateValue) throws {
        #expect(try render("{% for b in books %}{{ b }}{% empty %}No books yet{% endfor %}", ["books": books]) == "No books yet")
        #expect(try render("[{% for b in books %}{{ b }}{% endfor %}]", ["books": books]) == "[]")
    }

    @Test func loopItemsAreDictionariesWithFields() throws {
        let context: TemplateValue = ["books": [["title": "Dune", "author": ["name": "Herbert"]], ["title": "Emma"]]]
        let page = "{% for book in books %}<li>{{ book.title }} by {{ book.author.name | default: \"unknown\" }}</li>{% endfor %}"
        #expect(try render(page, context) == "<li>Dune by Herbert</li><li>Emma by unknown</li>")
    }

    @Test func innerLoopShadowsLoopButOuterVariablesStayVisible() throws {
        let page = """
        {% for shelf in shelves %}{{ shelf.name }}:{% for book in shelf.books %} \
        {{ loop.index }}/{{ loop.length }} {{ book }} on {{ shelf.name }}{% if loop.first %} (first){% endif %}{% if loop.last %} (last){% endif %}\
        {% endfor %} | outer {{ loop.index }}{% if loop.last %} (last shelf){% endif %}
        {% endfor %}
        """
        let context: TemplateValue = ["shelves": [
            ["name": "Sci-fi", "books": ["Dune", "Solaris"]],
            ["name": "Classics", "books": ["Emma"]],
        ]]
        let expected = """
        Sci-fi: 1/2 Dune on Sci-fi (first) 2/2 Solaris on Sci-fi (last) | outer 1
        Classics: 1/1 Emma on Classics (first) (last) | outer 2 (last shelf)

        """
        #expect(try render(page, context) == expected)
    }

    @Test func loopVariablesShadowTheContextInnermostFirst() throws {
        let page = "{{ item }}{% for item in items %}[{% for item in item.children %}({{ item }}){% endfor %}{{ item.name }}]{% endfor %}{{ item }}"
        let context: TemplateValue = ["item": "ctx", "items": [["name": "a", "children": ["x", "y"]], ["name": "b"]]]
        #expect(try render(page, context) == "ctx[(x)(y)a][b]ctx")
    }

    @Test func loopOutsideAnyLoopIsAnOrdinaryName() throws {
        #expect(try render("{{ loop.index }}", ["loop": ["index": "from context"]]) == "from context")
    }
}
