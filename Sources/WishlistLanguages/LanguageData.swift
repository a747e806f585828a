import CivilTime

/// What CLDR says about one language that pages need without ICU: which plural form a count takes,
/// month and day names, date patterns and the digits' separators. The values are generated at
/// development time (scripts/make-cldr.py, CLDRData.swift), never looked up while serving.
///
/// A class: compiled templates carry their language in every plural node and date filter, and a
/// struct of this size inline in those enums made every node of every tree as wide as it (about
/// 250 bytes a node, 18 MB of the server's 30 MB of templates for four languages).
package final class LanguageData: Sendable {
    /// The BCP 47 tag a page's `<html lang>` and a catalog's file name use ("de").
    package let code: String
    /// The categories this language uses, in CLDR's order, `other` last: `msgstr[k]` of a catalog's
    /// plural entry is the k-th of them.
    package let pluralCategories: [PluralCategory]
    /// The category of a whole count, CLDR's rule folded to integers (n = i, v = f = t = e = 0).
    private let pluralCategory: @Sendable (UInt) -> PluralCategory
    /// The gettext header a catalog for this language must carry, the same rule in the same order.
    package let gettextPluralForms: String
    /// January first, the forms used inside a date ("28 de noviembre de 2026").
    package let monthNames: [String]
    package let abbreviatedMonthNames: [String]
    /// Sunday first, as `CivilDateTime.weekday` counts.
    package let weekdayNames: [String]
    package let abbreviatedWeekdayNames: [String]
    package let datePatterns: DatePatterns
    package let groupSeparator: String
    package let decimalSeparator: String

    init(
        code: String, pluralCategories: [PluralCategory], pluralCategory: @escaping @Sendable (UInt) -> PluralCategory,
        gettextPluralForms: String, monthNames: [String], abbreviatedMonthNames: [String], weekdayNames: [String],
        abbreviatedWeekdayNames: [String], datePatterns: DatePatterns, groupSeparator: String, decimalSeparator: String
    ) {
        self.code = code
        self.pluralCategories = pluralCategories
        self.pluralCategory = pluralCategory
        self.gettextPluralForms = gettextPluralForms
        self.monthNames = monthNames
        self.abbreviatedMonthNames = abbreviatedMonthNames
        self.weekdayNames = weekdayNames
        self.abbreviatedWeekdayNames = abbreviatedWeekdayNames
        self.datePatterns = datePatterns
        self.groupSeparator = groupSeparator
        self.decimalSeparator = decimalSeparator
    }

    /// The languages the app ships, English first (the catalogs' source language).
    package static let shipped: [LanguageData] = [.english, .german, .french, .spanish]

    package static func shipped(code: String) -> LanguageData? {
        shipped.first { $0.code == code }
    }

    /// The plural category of a count; CLDR's operands are the count's absolute value.
    package func pluralCategory(of count: Int) -> PluralCategory {
        pluralCategory(count.magnitude)
    }

    /// Which `msgstr[k]` of a plural catalog entry a count takes.
    package func pluralIndex(of count: Int) -> Int {
        pluralCategories.firstIndex(of: pluralCategory(of: count)) ?? pluralCategories.count - 1
    }

    /// A whole number with the language's group separator every three digits ("1 234" in French,
    /// with a narrow no-break space).
    package func formatted(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = number < 0 ? "-" : ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 {
                text += groupSeparator
            }
            text.append(digit)
        }
        return text
    }

    /// A date (no time of day) in one of the language's CLDR patterns: "28. November 2026".
    package func formatted(_ date: CivilDateTime, style: DatePatterns.Style) -> String {
        datePatterns[style].format(date, in: self)
    }
}
