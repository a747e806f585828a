/// One language's catalog, checked and cut into parts once at start, for Swift code that words a
/// message: `translations.text("Signed in as {name}", values: ["name": name])`. The English text is
/// the key (gettext's msgid), so a string no catalog has yet still reads well, in English.
package struct Translations: Sendable {
    private struct Key: Hashable {
        let context: String?
        let english: String
    }

    package let language: LanguageData
    private let messages: [Key: [MessageText]]
    /// en-XA: every message wrapped (PseudoLanguage), for the tests that look for text left out.
    private let isPseudo: Bool

    /// English: no catalog, every message as its key says.
    package init() {
        language = .english
        messages = [:]
        isPseudo = false
    }

    /// en-XA, the tests' pseudo-language: every message, counted or not, accented and wrapped.
    package static let pseudo = Translations(pseudo: ())

    private init(pseudo: Void) {
        language = PseudoLanguage.data
        messages = [:]
        isPseudo = true
    }

    /// The catalog `po` for `language`, refused with its line when its header names another language
    /// or plural rule than CLDR's, or a translation prints other values than its English text.
    package init(_ po: String, for language: LanguageData) throws(POReadError) {
        let catalog = try POReader.read(po)
        guard catalog.language == language.code else {
            throw POReadError(line: 1, message: "the header's Language is \(catalog.language ?? "missing"), not \(language.code)")
        }
        guard catalog.pluralForms == language.gettextPluralForms else {
            throw POReadError(line: 1, message: "the header's Plural-Forms must be \"\(language.gettextPluralForms)\" (scripts/make-cldr.py)")
        }
        if let mismatch = catalog.placeholderMismatches.first {
            throw mismatch
        }
        self.language = language
        isPseudo = false
        messages = Dictionary(catalog.entries.filter(\.isTranslated).map {
            (Key(context: $0.context, english: $0.id), $0.translations.map(MessageText.init))
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The message in this language, or in English when the catalog lacks it (that string only).
    package func text(_ english: String, context: String? = nil, values: [String: String] = [:]) -> String {
        message(english, context: context).filled(with: values)
    }

    /// Marks English text as a catalog key where it is written (gettext's `N_`), for a message
    /// worded later through `text(_:)` (a form's error, a confirmation): the extraction script
    /// finds it here.
    package static func marked(_ english: String) -> String {
        english
    }

    /// The message `text(_:context:values:)` fills, for a template compiled once per language.
    package func message(_ english: String, context: String? = nil) -> MessageText {
        messages[Key(context: context, english: english)]?.first ?? fallback(english)
    }

    /// A counted message's forms in the order `language.pluralIndex(of:)` picks them, with the
    /// language that picks: English, with its forms and digits, when the catalog lacks the message.
    package func forms(one: String, other: String, context: String? = nil) -> (forms: [MessageText], language: LanguageData) {
        if let forms = messages[Key(context: context, english: one)] {
            return (forms, language)
        }
        return ([fallback(one), fallback(other)], .english)
    }

    /// A counted message: the form CLDR gives `count` in this language, `{count}` written with the
    /// language's separators. English forms are `one` and `other`, as gettext's msgid and msgid_plural.
    package func text(one: String, other: String, count: Int, context: String? = nil, values: [String: String] = [:]) -> String {
        var values = values
        values["count"] = language.formatted(count)
        if let forms = messages[Key(context: context, english: one)] {
            return forms[language.pluralIndex(of: count)].filled(with: values)
        }
        // The English sentence with English's form and digits: French's "one" would make "0 gift".
        let english = LanguageData.english
        values["count"] = english.formatted(count)
        return fallback(english.pluralCategory(of: count) == .one ? one : other).filled(with: values)
    }

    private func fallback(_ english: String) -> MessageText {
        isPseudo ? PseudoLanguage.wrapped(MessageText(english)) : MessageText(english)
    }
}

extension MessageText {
    /// The text with each placeholder's value; a placeholder without one stays as written, so a
    /// forgotten value shows on the page and in tests instead of vanishing.
    func filled(with values: [String: String]) -> String {
        parts.reduce(into: "") { text, part in
            switch part {
            case .text(let literal): text += literal
            case .placeholder(let name): text += values[name] ?? "{\(name)}"
            }
        }
    }
}
