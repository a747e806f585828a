/// en-XA, the pseudo-language of the tests (issue 53): every catalog string accented, wrapped in
/// brackets and padded to 40% longer, so a browser walk finds any text that did not come through
/// the catalogs (it reads plainly) and any layout that breaks on longer languages. English
/// otherwise: its plural rule, date patterns and separators, with pseudo month and day names.
package enum PseudoLanguage {
    package static let code = "en-XA"

    package static let data: LanguageData = {
        let english = LanguageData.english
        return LanguageData(
            code: code, pluralCategories: english.pluralCategories, pluralCategory: { english.pluralCategory(of: Int($0)) },
            gettextPluralForms: english.gettextPluralForms,
            monthNames: english.monthNames.map(wrapped), abbreviatedMonthNames: english.abbreviatedMonthNames.map(wrapped),
            weekdayNames: english.weekdayNames.map(wrapped), abbreviatedWeekdayNames: english.abbreviatedWeekdayNames.map(wrapped),
            datePatterns: english.datePatterns,
            groupSeparator: english.groupSeparator, decimalSeparator: english.decimalSeparator
        )
    }()

    /// "[Ŵîšĥļîšţ ~~~~]": letters accented, then one `~` for each 2.5 characters (rounded up), in brackets.
    package static func wrapped(_ text: String) -> String {
        "[" + accented(text) + " " + String(repeating: "~", count: (text.count * 2 + 4) / 5) + "]"
    }

    /// A message's text parts accented, its placeholders kept, the whole wrapped once.
    static func wrapped(_ message: MessageText) -> MessageText {
        let accentedParts = message.parts.map { part -> MessageText.Part in
            if case .text(let text) = part { .text(accented(text)) } else { part }
        }
        let length = message.parts.reduce(0) { total, part in
            if case .text(let text) = part { total + text.count } else { total + 4 }
        }
        return MessageText(parts: [.text("[")] + accentedParts + [.text(" " + String(repeating: "~", count: (length * 2 + 4) / 5) + "]")])
    }

    private static func accented(_ text: String) -> String {
        String(text.map { accents[$0] ?? $0 })
    }

    private static let accents: [Character: Character] = Dictionary(uniqueKeysWithValues: zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "áƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÁƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"
    ))
}
