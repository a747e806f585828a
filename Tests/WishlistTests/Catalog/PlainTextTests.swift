import Testing
@testable import WishlistCore

/// Descriptions with markup in them read as text: "The third Emberwake novel", not
/// "The third <i>Emberwake</i> novel" spelled out by a screen reader.
@Suite("Plain text from the API's HTML fragments")
struct PlainTextTests {
    @Test("tags go and character references become characters", arguments: [
        ("The third <i>Emberwake</i> novel.", "The third Emberwake novel."),
        ("Salt &amp; Ember", "Salt & Ember"),
        ("It&#39;s &quot;new&quot; &#x2014; again", "It's \"new\" — again"),
        ("One line<br>and the next<br/>and <p>a paragraph</p>", "One line and the next and a paragraph"),
        ("<b class=\"x\">Bold</b>   spaced\n\nout", "Bold spaced out"),
    ])
    func markupBecomesText(html: String, text: String) {
        #expect(PlainText.fromHTMLFragment(html) == text)
    }

    @Test("what is not markup stays as written", arguments: [
        "a < b and c > d", "AT&T", "Fish & chips", "&unknown; stays", "&#0; stays", "< i>not a tag", "<unclosed",
        "Plain text, accents: Zoë, Ærø",
    ])
    func textStays(text: String) {
        #expect(PlainText.fromHTMLFragment(text) == text)
    }

    @Test func theSampleDescriptionReadsAsText() async throws {
        let overview = try await SampleCatalogSource().overview()
        let emberwake = overview.results.lists.flatMap(\.books).compactMap(CatalogBook.init)
            .first { $0.description.contains("Emberwake") }
        #expect(emberwake?.description.hasPrefix("The third Emberwake novel.") == true)
    }
}
