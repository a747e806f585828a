import CivilTime
import Foundation
import Testing
@testable import WishlistLanguages

/// en-XA wraps every catalog string, so text that bypassed the catalogs reads plainly beside it.
@Suite struct PseudoLanguageTests {
    @Test func wrapsAccentsAndLengthens() {
        #expect(PseudoLanguage.wrapped("Wishlist") == "[Ŵîšĥļîšţ ~~~~]")
        for text in ["Sign in", "Gifts I'm giving", "A much longer sentence for the page's footer"] {
            #expect(PseudoLanguage.wrapped(text).count >= text.count * 14 / 10, "\(text)")
        }
    }

    @Test func messagesKeepTheirValuesInsideTheWrapping() {
        #expect(Translations.pseudo.text("Signed in as {name}", values: ["name": "Oma"]) == "[Šîĝñéđ îñ áš Oma ~~~~~~~]")
        #expect(Translations.pseudo.text(one: "{count} book", other: "{count} books", count: 2) == "[2 ƀööķš ~~~~]")
    }

    @Test func datesHavePseudoNamesAndEnglishPatterns() {
        let saturday = CivilDateTime(CivilDateTime.date(year: 2026, month: 11, day: 28))
        #expect(PseudoLanguage.data.formatted(saturday, style: .long) == "[Ñöṽéɱƀéŕ ~~~~] 28, 2026")
        #expect(PseudoLanguage.data.code == "en-XA" && LanguageData.shipped(code: "en-XA") == nil, "not offered to members")
        #expect(PseudoLanguage.data.formatted(1234) == "1,234")
    }
}
