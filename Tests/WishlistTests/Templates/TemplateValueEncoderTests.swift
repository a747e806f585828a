import Foundation
import Testing
@testable import WishlistTemplates

@Suite("TemplateValueEncoder")
struct TemplateValueEncoderTests: TemplateTestCase {
    struct ListPage: Encodable {
        struct Owner: Encodable {
            let name: String
            let memberSince: Date?
        }

        struct Book: Encodable {
            enum Status: String, Encodable { case wanted, bought }

            let title: String
            let subtitle: String?
            let rating: Double
            let pages: Int
            let added: Date
            let link: URL
            let blurb: TrustedHTML
            let status: Status
            let tags: [String]
        }

        let name: String
        let owner: Owner?
        let coOwner: Owner?
        let books: [Book]
        let views: UInt8
        let price: Decimal
        let ranking: [[Int]]
    }

    static let added = Date(timeIntervalSince1970: 1_700_000_000)

    static let page = ListPage(
        name: "Summer",
        owner: .init(name: "Ada", memberSince: nil),
        coOwner: nil,
        books: [
            .init(
                title: "Dune", subtitle: nil, rating: 4.5, pages: 412, added: added,
                link: URL(string: "https://example.com/dune?ref=1")!,
                blurb: TrustedHTML(trusted: "<em>Spice</em>"), status: .wanted, tags: ["sci-fi", "classic"]
            ),
        ],
        views: 7,
        price: Decimal(string: "12.5")!,
        ranking: [[1, 2], []]
    )

    @Test func encodesNestedStructsOptionalsDatesAndSpecialTypes() throws {
        let expected: TemplateValue = [
            "name": "Summer",
            "owner": ["name": "Ada", "memberSince": nil],
            "coOwner": nil,
            "books": [[
                "title": "Dune", "subtitle": nil, "rating": 4.5, "pages": 412, "added": .date(Self.added),
                "link": "https://example.com/dune?ref=1", "blurb": .html(TrustedHTML(trusted: "<em>Spice</em>")),
                "status": "wanted", "tags": ["sci-fi", "classic"],
            ]],
            "views": 7,
            "price": 12.5,
            "ranking": [[1, 2], []],
        ]
        #expect(try TemplateValueEncoder().encode(Self.page) == expected)
    }

    @Test func encodesTopLevelScalarsAndCollections() throws {
        let encoder = TemplateValueEncoder()
        #expect(try encoder.encode(Optional<Int>.none) == .null)
        #expect(try encoder.encode(["b": 2, "a": 1]) == ["a": 1, "b": 2])
        #expect(try encoder.encode([true, false]) == [true, false])
        #expect(try encoder.encode(UInt64.max) == .double(Double(UInt64.max)))
    }

    @Test func encodedViewModelsRender() throws {
        let context = try TemplateValueEncoder().encode(Self.page)
        let page = """
        {{ name }} by {{ owner.name }}{% if not coOwner %} alone{% endif %}: \
        {% for book in books %}<a href="{{ book.link }}">{{ book.title }}</a> {{ book.subtitle | default: "-" }} \
        {{ book.added | date: "MMM d, yyyy" }} {{ book.blurb }} {{ book.tags | length }} {{ book.status }}{% endfor %}
        """
        #expect(try render(page, context) == #"Summer by Ada alone: <a href="https://example.com/dune?ref=1">Dune</a> - Nov 14, 2023 <em>Spice</em> 2 wanted"#)
    }
}
