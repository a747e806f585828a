/// A catalog message cut into literal text and named placeholders: "{count} books for {name}".
/// A placeholder is `{` a name (a letter or `_`, then letters, digits or `_`) `}`; any other brace
/// is text, so a message needs no escaping.
package struct MessageText: Sendable, Equatable {
    package enum Part: Sendable, Equatable {
        case text(String)
        case placeholder(String)
    }

    package let parts: [Part]

    init(parts: [Part]) {
        self.parts = parts
    }

    package init(_ message: String) {
        var parts: [Part] = []
        var text = ""
        var rest = message[...]
        while let brace = rest.firstIndex(of: "{") {
            text += rest[..<brace]
            let afterBrace = rest[rest.index(after: brace)...]
            let name = afterBrace.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            if let first = name.first, !first.isNumber, afterBrace.dropFirst(name.count).first == "}" {
                if !text.isEmpty {
                    parts.append(.text(text))
                    text = ""
                }
                parts.append(.placeholder(String(name)))
                rest = afterBrace.dropFirst(name.count + 1)
            } else {
                text += "{"
                rest = afterBrace
            }
        }
        text += rest
        if !text.isEmpty {
            parts.append(.text(text))
        }
        self.parts = parts
    }

    /// The names of its placeholders.
    package var placeholders: Set<String> {
        Set(parts.compactMap { if case .placeholder(let name) = $0 { name } else { nil } })
    }
}

extension POCatalog {
    /// Translations whose placeholders differ from their English text's (`msgid_plural`'s for the
    /// forms of a plural entry): each would print a value the English does not, or lose one.
    package var placeholderMismatches: [POReadError] {
        entries.flatMap { entry in
            let expected = MessageText(entry.pluralID ?? entry.id).placeholders
            return entry.translations.enumerated().compactMap { index, translation -> POReadError? in
                let found = MessageText(translation).placeholders
                guard !translation.isEmpty, found != expected else {
                    return nil
                }
                let form = entry.pluralID == nil ? "msgstr" : "msgstr[\(index)]"
                return POReadError(line: entry.line, message: "\(form) of \"\(entry.id)\" has {\(found.sorted().joined(separator: "}, {"))} where the English has {\(expected.sorted().joined(separator: "}, {"))}")
            }
        }
    }
}
