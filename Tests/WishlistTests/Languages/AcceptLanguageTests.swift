import Testing
@testable import WishlistLanguages

/// A signed-out page follows the browser: RFC 9110's q-values, RFC 4647's lookup ("de-AT" is "de").
@Suite struct AcceptLanguageTests {
    static let shipped = ["en", "de", "fr", "es"]

    static func preferred(_ header: String, among available: [String] = shipped) -> String? {
        AcceptLanguage(header).preferred(among: available)
    }

    @Test func theHighestQValueWins() {
        #expect(Self.preferred("en;q=0.5, fr;q=0.9, de;q=0.7") == "fr")
        #expect(Self.preferred("es") == "es")
        #expect(Self.preferred("it, es;q=0.1") == "es", "a language we lack is passed over")
    }

    @Test func equalWeightsKeepTheHeadersOrder() {
        #expect(Self.preferred("fr;q=0.8, de;q=0.8") == "fr")
        #expect(Self.preferred("de;q=1.000, fr") == "de")
    }

    @Test func aRegionalRangeFindsItsLanguage() {
        #expect(Self.preferred("de-AT,de;q=0.9,en;q=0.8") == "de")
        #expect(Self.preferred("ES-mx") == "es", "tags compare without case")
        #expect(Self.preferred("en-XA", among: ["en", "en-XA"]) == "en-XA")
        #expect(Self.preferred("en-GB", among: ["en", "en-XA"]) == "en")
        #expect(Self.preferred("fr-CA-x-quebec;q=0.9, en;q=0.5") == "fr")
    }

    @Test func zeroMeansNotAcceptable() {
        #expect(Self.preferred("fr;q=0, es;q=0.2") == "es")
        #expect(Self.preferred("fr;q=0.") == nil)
    }

    @Test func nothingMatchingOrAStarLeavesTheDefault() {
        #expect(Self.preferred("") == nil)
        #expect(Self.preferred("it, pt-BR") == nil)
        #expect(Self.preferred("*") == nil)
        #expect(Self.preferred("it, *;q=0.5, de;q=0.1") == nil)
    }

    @Test func unreadableElementsAreSkipped() {
        for header in ["fr;q=2, de", "fr;q=0.1234, de", "fr;level=1, de", "f_r, de", "fr;q=, de", "toolongtag, de", "1de, de", ";q=1, de"] {
            #expect(Self.preferred(header) == "de", "\(header)")
        }
        #expect(AcceptLanguage("de;q=0.5 , fr ; q=0.7").ranges == [.init(tag: "fr", weight: 700), .init(tag: "de", weight: 500)])
    }
}
