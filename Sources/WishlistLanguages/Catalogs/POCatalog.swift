/// One message of a gettext PO file: its English text (`msgid`, with `msgid_plural` when it counts
/// something), the context that tells apart two uses of the same words, and its translations.
package struct POEntry: Sendable, Equatable {
    package let context: String?
    package let id: String
    package let pluralID: String?
    /// `msgstr`, or `msgstr[0]`, `msgstr[1]`… of a plural entry, in the header's Plural-Forms order.
    package let translations: [String]
    /// The `#,` flags: "fuzzy" marks a guess a translator has not confirmed.
    package let flags: Set<String>
    /// The line of its `msgid`, for messages about it.
    package let line: Int

    /// Whether the entry gives text to use: gettext ignores a fuzzy or empty translation, and so do we.
    package var isTranslated: Bool {
        !flags.contains("fuzzy") && !translations.contains("")
    }
}

/// A PO file as read: its header's fields and its messages, in file order.
package struct POCatalog: Sendable {
    /// The header entry's "Name: value" lines ("Language", "Plural-Forms", "Content-Type"…).
    package let header: [String: String]
    package let entries: [POEntry]

    package var language: String? { header["Language"] }
    /// The gettext plural expression, e.g. "nplurals=2; plural=(n == 1) ? 0 : 1;".
    package var pluralForms: String? { header["Plural-Forms"] }

    /// The header's `nplurals`: how many `msgstr[k]` each plural entry must have.
    var pluralFormCount: Int? {
        guard let forms = pluralForms, let start = forms.range(of: "nplurals=") else {
            return nil
        }
        return Int(forms[start.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
}

/// Why a PO file was refused, with the line (from 1) where the reader stopped.
package struct POReadError: Error, Equatable, CustomStringConvertible {
    package let line: Int
    package let message: String

    package var description: String { "line \(line): \(message)" }
}
