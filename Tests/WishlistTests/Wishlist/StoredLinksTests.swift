import Foundation
import Testing
@testable import WishlistCore

/// A wishlist item's stored links are read without `JSONDecoder` when they are in the encoder's
/// form, and always as `JSONDecoder` would read them (issue 58).
@Suite("A wishlist item's stored links")
struct StoredLinksTests {
    /// What `JSONDecoder` makes of `json`: the reading before issue 58.
    private static func decoderReading(_ json: String) -> [CatalogBook.Link] {
        let pairs = (try? JSONDecoder().decode([[String]].self, from: Data(json.utf8))) ?? []
        return pairs.compactMap { $0.count == 2 ? CatalogBook.Link(name: $0[0], url: $0[1]) : nil }
    }

    private static let stored: [[CatalogBook.Link]] = [
        [],
        [CatalogBook.Link(name: "Amazon", url: "https://www.amazon.com/s?k=9798008268836")],
        [
            CatalogBook.Link(name: "Barnes & Noble", url: "https://www.barnesandnoble.com/w/?ean=9798008268836&x=\"<y>\""),
            CatalogBook.Link(name: "Back\\slash \"quoted\" tab\there\nand line", url: "https://example.com/a\\b"),
            CatalogBook.Link(name: "Librería Ünïcödé 📚", url: "https://example.com/ü?q=é"),
        ],
    ]

    @Test func theEncodersFormIsReadByteByByteAsTheDecoderReadsIt() {
        for links in Self.stored {
            let json = StoredLinks.encode(links)
            #expect(StoredLinks.encoderForm(json) == links, "\(json)")
            #expect(StoredLinks.decode(json) == links)
            #expect(Self.decoderReading(json) == links)
        }
        #expect(StoredLinks.encode(Self.stored[1]).contains(#"https:\/\/"#), "the encoder escapes slashes: the fast reading must undo it")
    }

    /// A `\u` escape (the encoder's for a control character), spaces, or a pair that is not two
    /// strings: `JSONDecoder` reads it, as before; what is not JSON is no links.
    @Test func anythingElseIsReadByTheDecoder() {
        let control = [CatalogBook.Link(name: "bell\u{07}", url: "https://example.com/\u{01}")]
        let json = StoredLinks.encode(control)
        #expect(StoredLinks.encoderForm(json) == nil && StoredLinks.decode(json) == control, "\(json)")
        let others = [
            #" [ ["A", "https://a.example"] ] "#, #"[["A","https://a.example","extra"],["B","https://b.example"]]"#, #"[["A",1]]"#,
            #"[["A"]]"#, #"[["\u0041","x"]]"#, "", "[", "[[\"A\",\"x\"]]]", "[[\"A\",\"x\"]] x", "[[\"A\",\"x\"],]", "[[\"A\",\"x\tunescaped\"]]",
            #"[["A","x\q"]]"#, "{}", "null",
        ]
        for json in others {
            #expect(StoredLinks.decode(json) == Self.decoderReading(json), "\(json)")
        }
        #expect(StoredLinks.decode(others[0]) == [CatalogBook.Link(name: "A", url: "https://a.example")])
        #expect(StoredLinks.decode(others[1]) == [CatalogBook.Link(name: "B", url: "https://b.example")])
    }
}
