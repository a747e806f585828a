import CivilTime
import Foundation
import Testing
@testable import WishlistLanguages

/// The generated CLDR data gives CLDR's own examples: plural forms, dates and numbers per language.
@Suite struct LanguageDataTests {
    static let german = LanguageData.german, french = LanguageData.french, spanish = LanguageData.spanish

    /// "{count} book" in each language's forms, `msgstr[k]` chosen by the count's category.
    static func books(_ count: Int, in language: LanguageData, forms: [String]) -> String {
        "\(language.formatted(count)) \(forms[language.pluralIndex(of: count)])"
    }

    @Test func germanCountsOneBuchAndTwoBücher() {
        let forms = ["Buch", "Bücher"]
        #expect([0, 1, 2, 1_000_000].map { Self.books($0, in: Self.german, forms: forms) }
            == ["0 Bücher", "1 Buch", "2 Bücher", "1.000.000 Bücher"])
    }

    @Test func frenchCountsZeroAsOneAndMillionsAsMany() {
        let forms = ["livre", "de livres", "livres"]
        #expect([0, 1, 2, 1_000_000, 2_000_000, 1_000_001].map { Self.french.pluralCategory(of: $0) }
            == [.one, .one, .other, .many, .many, .other])
        #expect(Self.books(0, in: Self.french, forms: forms) == "0 livre")
        #expect(Self.books(1_000_000, in: Self.french, forms: forms) == "1\u{202F}000\u{202F}000 de livres")
    }

    @Test func spanishAndEnglishForms() {
        #expect([0, 1, 2, 1_000_000].map { Self.spanish.pluralCategory(of: $0) } == [.other, .one, .other, .many])
        #expect([0, 1, 2, -1].map { LanguageData.english.pluralCategory(of: $0) } == [.other, .one, .other, .one])
    }

    @Test func everyLanguageEndsOnOtherAndItsHeaderCountsItsForms() {
        for language in LanguageData.shipped {
            #expect(language.pluralCategories.last == .other)
            #expect(language.gettextPluralForms.hasPrefix("nplurals=\(language.pluralCategories.count);"))
            #expect(language.monthNames.count == 12 && language.weekdayNames.count == 7, "\(language.code)")
        }
        #expect(LanguageData.shipped.map(\.code) == ["en", "de", "fr", "es"])
        #expect(LanguageData.shipped(code: "fr")?.code == "fr" && LanguageData.shipped(code: "it") == nil)
    }

    static let saturday = CivilDateTime(CivilDateTime.date(year: 2026, month: 11, day: 28))

    @Test func longDatesAsCLDRWritesThem() {
        #expect(LanguageData.shipped.map { $0.formatted(Self.saturday, style: .long) }
            == ["November 28, 2026", "28. November 2026", "28 novembre 2026", "28 de noviembre de 2026"])
    }

    @Test func fullMediumAndShortDates() {
        #expect(Self.german.formatted(Self.saturday, style: .full) == "Samstag, 28. November 2026")
        #expect(Self.french.formatted(Self.saturday, style: .full) == "samedi 28 novembre 2026")
        #expect(Self.spanish.formatted(Self.saturday, style: .full) == "sábado, 28 de noviembre de 2026")
        #expect(LanguageData.english.formatted(Self.saturday, style: .medium) == "Nov 28, 2026")
        #expect(Self.german.formatted(Self.saturday, style: .medium) == "28.11.2026")
        #expect(Self.french.formatted(Self.saturday, style: .short) == "28/11/2026")
        #expect(Self.spanish.formatted(Self.saturday, style: .short) == "28/11/26")
    }

    /// Babel's own formatting of these numbers (format_decimal), the group separator every 3 digits.
    @Test func numbersWithTheLanguagesSeparators() {
        #expect(LanguageData.shipped.map { $0.formatted(1234) } == ["1,234", "1.234", "1\u{202F}234", "1.234"])
        #expect(Self.german.formatted(-1_234_567) == "-1.234.567")
        #expect(Self.french.formatted(999) == "999")
        #expect(Self.french.decimalSeparator == "," && LanguageData.english.decimalSeparator == ".")
    }
}
