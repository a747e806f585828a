import Foundation
import NIOCore
import Testing
@testable import WishlistTemplates

@Suite("Unicode")
struct UnicodeTests: TemplateTestCase {
    static let samples = [
        "family 👩‍👩‍👧‍👦, flag 🇯🇵, skin tone 👍🏽",
        "combining: e\u{301} a\u{308}\u{304} n\u{303}",
        "RTL: שלום עולם · مرحبا بالعالم · \u{202B}embedded\u{202C}",
        "CJK: 本の一覧 · 책 목록",
        "invisible: a\u{200D}b\u{FEFF}c\u{200B}d",
    ]

    /// Compares bytes, because String equality would accept a differently normalized result.
    @Test(arguments: samples)
    func unicodeRoundTripsByteForByte(text: String) throws {
        let views = try TemporaryViews(["page.html": "\(text)<p title=\"{{ t }}\">{{ t }}</p>"])
        let buffer = try views.library().render("page.html", ["t": .string(text)])
        let expected = "\(text)<p title=\"\(text)\">\(text)</p>"
        #expect(Array(buffer.readableBytesView) == Array(expected.utf8))
    }

    @Test func truncateNeverSplitsGraphemeClusters() throws {
        let text = "👩‍👩‍👧‍👦👍🏽🇯🇵e\u{301}x"
        let context: TemplateValue = ["t": .string(text)]
        let rendered = try render("{{ t | truncate: 1 }}|{{ t | truncate: 4 }}|{{ t | truncate: 5 }}", context)
        let expected = "👩‍👩‍👧‍👦…|👩‍👩‍👧‍👦👍🏽🇯🇵e\u{301}…|\(text)"
        #expect(Array(rendered.utf8) == Array(expected.utf8))
    }

    @Test func lengthCountsGraphemeClusters() throws {
        #expect(try render("{{ t | length }}", ["t": "👩‍👩‍👧‍👦e\u{301}שלום"]) == "6")
    }

    @Test func urlencodePercentEncodesUTF8() throws {
        #expect(try render("{{ t | urlencode }}", ["t": "👍 é"]) == "%F0%9F%91%8D%20%C3%A9")
    }

    @Test func escapingLeavesMultiByteCharactersIntact() throws {
        let rendered = try render("{{ t }}", ["t": "<é>&\u{202E}👍"])
        #expect(Array(rendered.utf8) == Array("&lt;é&gt;&amp;\u{202E}👍".utf8))
    }
}
