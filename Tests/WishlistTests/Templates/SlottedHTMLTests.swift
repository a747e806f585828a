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

    static func fill(_ page: SlottedHTML<String>, _ values: [String: SlottedHTML<String>.Fill]) -> String {
        var buffer = ByteBuffer()
        page.write(into: &buffer) { values[$0] ?? .value(.null) }
        return String(buffer: buffer)
    }

    @Test func filledSlotsAreEscapedExactlyAsAFullRenderWouldEscapeThem() throws {
        let (views, library) = try Self.library()
        let who = #"<Ann & "Bo">"#
        let context: [String: TemplateValue] = ["who": .string(who), "link": "/lists?a=1&b=2", "extra": "x<y", "fixed": "same"]
        let slotted = try library.renderSlotted("page.html", ["who": .slot("who"), "link": .slot("link"), "extra": .slot("extra"), "fixed": "same"])
        #expect(slotted.slots == ["who", "who", "link", "extra"])
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

    /// A kept page's slots resolved once to keys of its own fill the same text as by name.
    @Test func slotsMappedToKeysFillAsTheirNamesDid() throws {
        enum Key: Equatable { case person(Int), link, unknown }
        let (views, library) = try Self.library()
        let mark = try library.renderSlotted("mark.html", ["mark": .slot("who")])
        let slotted = try library.renderSlotted("page.html", ["who": .slot("who"), "link": .slot("link"), "extra": .slot("extra")])
        let byName = Self.fill(slotted, ["who": .value("Ann & Bo"), "link": .value("/a?b=1&c=2"), "extra": .fragment(mark)])
        let resolve = { (name: String) -> Key in name == "who" ? .person(7) : name == "link" ? .link : .unknown }
        let (keyed, keyedMark) = (slotted.mapSlots(resolve), mark.mapSlots(resolve))
        #expect(keyed.slots == [.person(7), .person(7), .link, .unknown])
        #expect(keyed.byteCount == slotted.byteCount)
        var buffer = ByteBuffer()
        keyed.write(into: &buffer) { key in
            switch key {
            case .person(let number): .value(number == 7 ? "Ann & Bo" : "someone else")
            case .link: .value("/a?b=1&c=2")
            case .unknown: .fragment(keyedMark)
            }
        }
        #expect(String(buffer: buffer) == byName)
        #expect(byName.contains("<i>Ann &amp; Bo</i>"), "the fragment's hole is filled by its key too")
        withExtendedLifetime(views) {}
    }

    /// A value escaped once writes what the value itself would have, in every kind of hole.
    @Test func anEscapedValueFillsEveryHoleAsTheValueWould() throws {
        let (views, library) = try Self.library()
        let slotted = try library.renderSlotted("page.html", ["who": .slot("v"), "link": .slot("v"), "extra": .slot("v"), "fixed": "same"])
        let values: [TemplateValue] = [
            .string(#"<Ann & "Bo">"#), .string("/lists?a=1&b=2"), .string("javascript:alert(1)"), .int(42),
            .html(TrustedHTML(trusted: "<em>trusted</em>")),
        ]
        for value in values {
            #expect(Self.fill(slotted, ["v": .escaped(EscapedValue(value))]) == Self.fill(slotted, ["v": .value(value)]), "\(value)")
        }
        withExtendedLifetime(views) {}
    }

    @Test func anOrdinaryRenderWritesNothingForASlot() throws {
        let (views, library) = try Self.library()
        let text = String(buffer: try library.render("page.html", ["who": .slot("who"), "fixed": "f"]))
        #expect(text == #"<p title="">Hi </p><a href="">go</a><b>f</b>"#)
        withExtendedLifetime(views) {}
    }
}
