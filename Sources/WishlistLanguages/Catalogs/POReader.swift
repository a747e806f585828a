/// A strict reader of gettext PO files (the catalogs under Languages/): what it accepts, msgfmt
/// accepts too, and anything doubtful (an unknown keyword or escape, a missing form, a duplicate)
/// stops the server's start with the line, instead of showing a page half in English.
///
/// Read once at start; obsolete (`#~`) entries and comments other than `#,` flags are skipped.
package struct POReader {
    private enum Field {
        case context, id, pluralID, translation(Int)
    }

    private var catalogHeader: [String: String]?
    private var entries: [POEntry] = []
    private var seen: Set<String> = []

    private var flags: Set<String> = []
    private var context: String?
    private var id: String?
    private var idLine = 0
    private var pluralID: String?
    private var translations: [String] = []
    private var lastField: Field?

    private init() {}

    /// The catalog in `text`; throws the first problem, with its line.
    package static func read(_ text: String) throws(POReadError) -> POCatalog {
        var reader = POReader()
        var number = 0
        // "\r\n" is one Character in Swift, so a file saved on Windows splits on it as well.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            try reader.take(line.drop { $0 == " " || $0 == "\t" }, number: number)
        }
        try reader.finishEntry(number: number)
        return try reader.catalog(lastLine: number)
    }

    private mutating func take(_ line: Substring, number: Int) throws(POReadError) {
        if line.isEmpty {
            return try finishEntry(number: number)
        }
        if line.hasPrefix("#") {
            try finishCompleteEntry(number: number)
            if line.hasPrefix("#,") {
                flags.formUnion(line.dropFirst(2).split(separator: ",").map { String($0.trimmingBlanks) })
            }
            return
        }
        if line.hasPrefix("\"") {
            guard let field = lastField else {
                throw POReadError(line: number, message: "a string with no msgid, msgstr or msgctxt before it")
            }
            return append(try Self.quoted(line, number: number), to: field)
        }
        let keyword = line.prefix { $0 != " " && $0 != "\t" && $0 != "\"" }
        guard Self.keywords.contains(keyword) || (keyword.hasPrefix("msgstr[") && keyword.hasSuffix("]")) else {
            throw POReadError(line: number, message: "unknown keyword \"\(keyword)\"")
        }
        let value = try Self.quoted(line.dropFirst(keyword.count).drop { $0 == " " || $0 == "\t" }, number: number)
        try take(keyword: keyword, value: value, number: number)
    }

    private mutating func take(keyword: Substring, value: String, number: Int) throws(POReadError) {
        switch keyword {
        case "msgctxt":
            try finishCompleteEntry(number: number)
            guard context == nil, id == nil else {
                throw POReadError(line: number, message: "msgctxt must come before its msgid")
            }
            context = value
            lastField = .context
        case "msgid":
            try finishCompleteEntry(number: number)
            guard id == nil else {
                throw POReadError(line: number, message: "a second msgid before the first one's msgstr")
            }
            id = value
            idLine = number
            lastField = .id
        case "msgid_plural":
            guard id != nil, pluralID == nil, translations.isEmpty else {
                throw POReadError(line: number, message: "msgid_plural must follow a msgid")
            }
            pluralID = value
            lastField = .pluralID
        case "msgstr":
            guard id != nil, translations.isEmpty else {
                throw POReadError(line: number, message: "msgstr must follow a msgid")
            }
            guard pluralID == nil else {
                throw POReadError(line: number, message: "an entry with msgid_plural needs msgstr[0], msgstr[1]…")
            }
            appendTranslation(value, index: 0)
        default:
            guard let index = Int(keyword.dropFirst(7).dropLast()) else {
                throw POReadError(line: number, message: "\(keyword) has no plural form number")
            }
            guard pluralID != nil else {
                throw POReadError(line: number, message: "msgstr[\(index)] without a msgid_plural")
            }
            guard index == translations.count else {
                throw POReadError(line: number, message: "msgstr[\(index)] where msgstr[\(translations.count)] was expected")
            }
            appendTranslation(value, index: index)
        }
    }

    private mutating func appendTranslation(_ value: String, index: Int) {
        translations.append(value)
        lastField = .translation(index)
    }

    private mutating func append(_ text: String, to field: Field) {
        switch field {
        case .context: context? += text
        case .id: id? += text
        case .pluralID: pluralID? += text
        case .translation(let index): translations[index] += text
        }
    }

    /// Ends the entry being read if it has its msgstr: a comment or keyword after one starts the next.
    private mutating func finishCompleteEntry(number: Int) throws(POReadError) {
        if !translations.isEmpty {
            try finishEntry(number: number)
        }
    }

    private mutating func finishEntry(number: Int) throws(POReadError) {
        guard let id else {
            if context != nil {
                throw POReadError(line: number, message: "msgctxt without a msgid")
            }
            return
        }
        guard !translations.isEmpty else {
            throw POReadError(line: number, message: "msgid \"\(id)\" has no msgstr")
        }
        try add(POEntry(context: context, id: id, pluralID: pluralID, translations: translations, flags: flags, line: idLine))
        (flags, context, self.id, pluralID, translations, lastField) = ([], nil, nil, nil, [], nil)
    }

    private mutating func add(_ entry: POEntry) throws(POReadError) {
        if entry.id.isEmpty, entry.context == nil {
            guard catalogHeader == nil, entries.isEmpty else {
                throw POReadError(line: entry.line, message: "the header (msgid \"\") must be the first entry, and only once")
            }
            catalogHeader = try Self.header(entry)
            return
        }
        guard seen.insert((entry.context ?? "") + "\u{4}" + entry.id).inserted else {
            throw POReadError(line: entry.line, message: "msgid \"\(entry.id)\" appears twice" + (entry.context.map { " in context \"\($0)\"" } ?? ""))
        }
        entries.append(entry)
    }

    private func catalog(lastLine: Int) throws(POReadError) -> POCatalog {
        guard let header = catalogHeader else {
            throw POReadError(line: 1, message: "no header (an entry with msgid \"\" first)")
        }
        let catalog = POCatalog(header: header, entries: entries)
        for entry in entries where entry.pluralID != nil {
            guard let count = catalog.pluralFormCount else {
                throw POReadError(line: entry.line, message: "a plural entry, but the header has no Plural-Forms with nplurals")
            }
            guard entry.translations.count == count else {
                throw POReadError(line: entry.line, message: "msgid \"\(entry.id)\" has \(entry.translations.count) plural forms; Plural-Forms says \(count)")
            }
        }
        return catalog
    }

    /// The header's "Name: value" lines; a catalog must be UTF-8, the only charset the server reads.
    private static func header(_ entry: POEntry) throws(POReadError) -> [String: String] {
        var fields: [String: String] = [:]
        for line in entry.translations[0].split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else {
                throw POReadError(line: entry.line, message: "header line \"\(line)\" is not \"Name: value\"")
            }
            fields[String(line[..<colon].trimmingBlanks)] = String(line[line.index(after: colon)...].trimmingBlanks)
        }
        if let type = fields["Content-Type"], !type.lowercased().contains("charset=utf-8") {
            throw POReadError(line: entry.line, message: "Content-Type \"\(type)\": catalogs must be charset=UTF-8")
        }
        return fields
    }

    /// A C-style quoted string with PO's escapes, alone on what is left of its line.
    private static func quoted(_ text: Substring, number: Int) throws(POReadError) -> String {
        guard text.first == "\"" else {
            throw POReadError(line: number, message: "expected a quoted string")
        }
        var value = ""
        var rest = text.dropFirst()
        while let character = rest.popFirst() {
            switch character {
            case "\"":
                guard rest.trimmingBlanks.isEmpty else {
                    throw POReadError(line: number, message: "text after the closing quote")
                }
                return value
            case "\\":
                let escaped = rest.popFirst()
                guard let escaped, let meaning = escapes[escaped] else {
                    throw POReadError(line: number, message: "unknown escape \\\(escaped.map { String($0) } ?? "")")
                }
                value.append(meaning)
            default:
                value.append(character)
            }
        }
        throw POReadError(line: number, message: "a string without its closing quote")
    }

    private static let keywords: Set<Substring> = ["msgctxt", "msgid", "msgid_plural", "msgstr"]
    private static let escapes: [Character: Character] = ["n": "\n", "t": "\t", "r": "\r", "\"": "\"", "\\": "\\"]
}

extension Substring {
    fileprivate var trimmingBlanks: Substring {
        let start = drop { $0 == " " || $0 == "\t" }
        var end = start.endIndex
        while end > start.startIndex, [" ", "\t"].contains(start[start.index(before: end)]) {
            end = start.index(before: end)
        }
        return start[..<end]
    }
}
