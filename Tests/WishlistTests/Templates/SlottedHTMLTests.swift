import NIOCore
import Testing
@testable import WishlistTemplates

@Suite("Slotted rendering: a page rendered once, filled per request")
struct SlottedHTMLTests {
    static let page = #"<p title="{{ who }}">Hi {{ who }}</p><a href="{{ link }}">go</a>{{ extra }}<b>{{ fixed }}</b>"#

    static func library() throws -> (TemporaryViews, TemplateLibrary) {
        let views = try TemporaryViews(["page.html": page, "mark.html": "<i>{{ mark }}</i>"])
        return (views, try views.library())
    }

    static func fill(_ page: SlottedHTML, _ values: [String: SlottedHTML.Fill]) -> String {
        var buffer = ByteBuffer()
        page.write(into: &buffer) { values[$0] ?? .value(.null) }
        return String(buffer: buffer)
    }

    @Test func filledSlotsAreEscapedExactlyAsAFullRenderWouldEscapeThem() throws {
        let (views, library) = try Self.library()
        let who = #"<Ann & "Bo">"#
        let context: [String: TemplateValue] = ["who": .string(who), "link": "/lists?a=1&b=2", "extra": "x<y", "fixed": "same"]
        let slotted = try library.renderSlotted("page.html", ["who": .slot("who"), "link": .slot("link"), "extra": .slot("extra"), "fixed": "same"])
        #expect(slotted.slotNames == ["who", "who", "link", "extra"])
        let filled = Self.fill(slotted, ["who": .value(.string(who)), "link": .value("/lists?a=1&b=2"), "extra": .value("x<y")])
        #expect(filled == String(buffer: try library.render("page.html", .dictionary(context))))
        #expect(!filled.contains("<Ann"))
        withExtendedLifetime(views) {}
    }

    @Test func aURLSlotRefusesAScriptURLLikeAnyURLOutput() throws {
        let (views, library) = try Self.library()
        let slotted = try library.renderSlotted("page.html", ["link": .slot("link")])
        #expect(!Self.fill(slotted, ["link": .value("javascript:alert(1)")]).contains("javascript:"))
        withExtendedLifetime(views) {}
    }

    @Test func aFragmentFillsATextSlotButNeverAnAttribute() throws {
        let (views, library) = try Self.library()
        let mark = try library.renderSlotted("mark.html", ["mark": .slot("inner")])
        let slotted = try library.renderSlotted("page.html", ["who": .slot("who"), "extra": .slot("extra")])
        let filled = Self.fill(slotted, ["who": .fragment(mark), "extra": .fragment(mark), "inner": .value("<ok>")])
        #expect(filled.hasPrefix(#"<p title="">Hi <i>&lt;ok&gt;</i></p>"#), "the fragment's own slot is filled too")
        #expect(filled.contains("go</a><i>&lt;ok&gt;</i><b>"))
        withExtendedLifetime(views) {}
    }

    @Test func anOrdinaryRenderWritesNothingForASlot() throws {
        let (views, library) = try Self.library()
        let text = String(buffer: try library.render("page.html", ["who": .slot("who"), "fixed": "f"]))
        #expect(text == #"<p title="">Hi </p><a href="">go</a><b>f</b>"#)
        withExtendedLifetime(views) {}
    }
}
