import Foundation

/// One person a book's byline names: as written there (for showing), the key that matches the
/// same person however a byline spells them, and what they did for the book.
public struct CreditedName: Sendable, Hashable {
    public enum Role: String, Sendable {
        case author, illustrator, editor, translator
        /// A foreword, an introduction, a reading: named, but not the book's maker.
        case contributor
    }

    public let name: String
    /// `AuthorKey.of(name)`.
    public let key: String
    public let role: Role
}

/// A byline as the NYT writes it, split into the names it credits and the words around them, so
/// that a page can link each name and keep the rest as it was: "by Adam Rubin. Illustrated by
/// Daniel Salmieri", "Colleen Hoover and Tarryn Fisher", "Gabor Maté with Daniel Maté", "edited by
/// Nikole Hannah-Jones, Caitlin Roper, Ilena Silverman and Jake Silverstein", "Martin Luther
/// King, Jr.". Role words ("by", "illustrated by", "written and illustrated by", and the remnants
/// of them the API leaves in its `author` field, "edited" and "and") say what the names after them
/// did; "et al.", "and others" and "various illustrators" name nobody.
public struct Byline: Sendable, Equatable {
    public enum Part: Sendable, Equatable {
        case text(String)
        case name(CreditedName)
    }

    public let parts: [Part]

    public init(_ text: String) {
        parts = BylineParser(text).parts()
    }

    /// The names, in the order written, each person once.
    public var names: [CreditedName] {
        var seen = Set<String>()
        return parts.compactMap { part in
            guard case .name(let credited) = part, seen.insert(credited.key).inserted else { return nil }
            return credited
        }
    }

    /// The byline a book is shown with: the NYT's contributor line ("by A. Illustrated by B") when
    /// it names anyone, else the author field ("A and B"), which is all an added book has. The
    /// contributor line is the better: the API makes its author field by deleting role words from
    /// it, "by" inside a name included ("by Shelby Van Pelt" has the author "Shel Van Pelt").
    public static func of(author: String, contributor: String) -> Byline {
        let full = Byline(contributor)
        return full.names.isEmpty ? Byline(author) : full
    }
}

/// The key that matches one person across bylines: letters and digits only, in lower case,
/// accents and the like dropped, every run of anything else one space ("Brené Brown", "BRENE
/// BROWN" and "Brene  Brown" are all "brene brown"; "C.J. Box" and "C. J. Box" are "c j box").
/// Made without ICU (docs/memory.md).
public enum AuthorKey {
    public static func of(_ name: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in name.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if let letters = undecomposed[scalar] {
                folded.append(contentsOf: letters.unicodeScalars)
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                folded.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            } else {
                folded.append(" ")
            }
        }
        return String(folded).split(separator: " ").joined(separator: " ")
    }

    /// Latin letters that carry their mark inside them, so that decomposing leaves them whole.
    private static let undecomposed: [Unicode.Scalar: String] = [
        "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "ß": "ss", "ẞ": "ss",
        "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th", "ı": "i",
    ]
}

/// The reading of one byline: clauses (each a role and its names), the names of each clause, and
/// the text between them. Positions are indexes into the byline's characters.
private struct BylineParser {
    /// The words a role is written with. A run of them that ends in "by" is a role wherever it
    /// begins a clause; without "by", only in lower case ("edited  Nikole Hannah-Jones", "and
    /// Dav Pilkey": what the API's `author` field keeps of "edited by" and "written and illustrated by").
    static let roleWords: Set<String> = [
        "by", "written", "and", "illustrated", "illustrations", "pictures", "photographs", "art", "edited", "compiled", "selected",
        "translated", "adapted", "retold", "with", "foreword", "introduction", "afterword", "read", "narrated",
    ]
    /// What follows a name after a comma and belongs to it.
    static let suffixes: Set<String> = ["jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "ph.d.", "md", "m.d.", "esq", "esq."]
    /// Words that stand for people without naming them.
    static let nobody: Set<String> = ["et al", "et al.", "others", "and others", "various", "various illustrators", "various authors", "more"]

    let characters: [Character]

    init(_ text: String) {
        characters = Array(text)
    }

    /// Longer than any byline: the text is then shown as it is, naming nobody, since each space
    /// looks ahead over the role words after it.
    static let longest = 1_000

    func parts() -> [Byline.Part] {
        guard characters.count <= Self.longest else { return [.text(String(characters))] }
        var names: [(range: Range<Int>, role: CreditedName.Role)] = []
        for clause in clauses() {
            let (namesStart, role) = rolePrefix(in: clause)
            names += self.names(in: namesStart..<clause.upperBound).map { ($0, role) }
        }
        var parts: [Byline.Part] = []
        var position = 0
        for (range, role) in names {
            if position < range.lowerBound { parts.append(.text(String(characters[position..<range.lowerBound]))) }
            let name = String(characters[range])
            parts.append(.name(CreditedName(name: name, key: AuthorKey.of(name), role: role)))
            position = range.upperBound
        }
        if position < characters.count { parts.append(.text(String(characters[position...]))) }
        return parts
    }

    // MARK: Clauses

    /// The clauses, without the punctuation and spaces between them: a clause ends at a
    /// semicolon, and at a full stop, a comma or a space followed by a role that ends in "by"
    /// ("… Rubin. Illustrated by …", "… Rubin, illustrated by …", "… Rubin with illustrations by …"),
    /// a space only after a word of a name, not inside a role ("written and illustrated by").
    private func clauses() -> [Range<Int>] {
        var clauses: [Range<Int>] = []
        var start = 0
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let next = skippingSpaces(from: index + 1)
            let breaks = character == ";"
                || ((character == "." || character == ",") && next > index + 1 && roleEndingInBy(at: next) != nil)
                || (character.isWhitespace && !followsRoleWord(index) && roleEndingInBy(at: next) != nil)
            guard breaks else {
                index += 1
                continue
            }
            if start < index { clauses.append(start..<index) }
            start = next
            index = next
        }
        if start < characters.count { clauses.append(start..<characters.count) }
        return clauses
    }

    /// Where the names of a clause start, past its role words, and the role they give.
    private func rolePrefix(in clause: Range<Int>) -> (Int, CreditedName.Role) {
        if let (end, words) = roleEndingInBy(at: clause.lowerBound), end <= clause.upperBound {
            return (end, Self.role(of: words))
        }
        var words: [String] = []
        var position = clause.lowerBound
        while let (word, end) = word(at: position), end < clause.upperBound, word != "by", Self.roleWords.contains(word),
              characters[position].isLowercase {
            words.append(word)
            position = skippingSpaces(from: end)
        }
        return (position, Self.role(of: words))
    }

    /// The role words at `position` up to and including their last "by", and the position after it.
    private func roleEndingInBy(at position: Int) -> (Int, [String])? {
        var words: [String] = []
        var found: (Int, [String])?
        var at = position
        while let (word, end) = word(at: at), Self.roleWords.contains(word) {
            words.append(word)
            if word == "by" { found = (skippingSpaces(from: end), words) }
            at = skippingSpaces(from: end)
        }
        // A lone "by" starts a clause only where one starts anyway: "Stand By Me" names no one.
        guard let found, found.1 != ["by"] || position == 0 || isClauseBreak(before: position) else { return nil }
        return found
    }

    /// Whether the word that ends just before the space at `index` is a role's.
    private func followsRoleWord(_ index: Int) -> Bool {
        var start = index
        while start > 0, characters[start - 1].isLetter { start -= 1 }
        return start < index && Self.roleWords.contains(String(characters[start..<index]).lowercased())
    }

    /// Whether punctuation, not only a space, comes before `position`.
    private func isClauseBreak(before position: Int) -> Bool {
        var index = position - 1
        while index >= 0, characters[index].isWhitespace { index -= 1 }
        return index < 0 || [";", ".", ","].contains(characters[index])
    }

    private static func role(of words: [String]) -> CreditedName.Role {
        let set = Set(words)
        if !set.isDisjoint(with: ["edited", "compiled", "selected"]) { return .editor }
        if set.contains("translated") { return .translator }
        if !set.isDisjoint(with: ["foreword", "introduction", "afterword", "read", "narrated"]) { return .contributor }
        if !set.isDisjoint(with: ["illustrated", "illustrations", "pictures", "photographs", "art"]) && !set.contains("written") {
            return .illustrator
        }
        return .author
    }

    // MARK: Names

    /// The names of a clause's name list: split at commas and at "and", "&" and "with" between
    /// spaces; a "Jr." after a comma stays with its name; words that name nobody are dropped; a
    /// name's last full stop is the byline's, unless it ends an initial or a "Jr.".
    private func names(in list: Range<Int>) -> [Range<Int>] {
        var names: [Range<Int>] = []
        var start = list.lowerBound
        var index = list.lowerBound
        var separators: [Range<Int>] = []
        while index < list.upperBound {
            if let end = separator(at: index, within: list) {
                separators.append(index..<end)
                index = end
            } else {
                index += 1
            }
        }
        separators.append(list.upperBound..<list.upperBound)
        for separator in separators {
            defer { start = separator.upperBound }
            guard let piece = trimmed(start..<separator.lowerBound) else { continue }
            let text = String(characters[piece]).lowercased()
            if let last = names.last, Self.suffixes.contains(text), characters[last.upperBound..<piece.lowerBound].contains(",") {
                names[names.count - 1] = last.lowerBound..<piece.upperBound
                continue
            }
            if Self.nobody.contains(text) { continue }
            if let name = withoutNobody(piece), let kept = withoutClosingStop(name), characters[kept].contains(where: \.isLetter) {
                names.append(kept)
            }
        }
        return names
    }

    /// The end of a separator at `index`: a comma (with the spaces and any "and" or "&" after it),
    /// or " and ", " & ", " with ".
    private func separator(at index: Int, within list: Range<Int>) -> Int? {
        if characters[index] == "," {
            let next = skippingSpaces(from: index + 1)
            if let (word, end) = word(at: next), word == "and", end < list.upperBound, characters[end].isWhitespace { return skippingSpaces(from: end) }
            if next < list.upperBound, characters[next] == "&" { return skippingSpaces(from: next + 1) }
            return next
        }
        guard characters[index].isWhitespace else { return nil }
        let next = skippingSpaces(from: index)
        guard next < list.upperBound else { return nil }
        if characters[next] == "&", next + 1 < list.upperBound, characters[next + 1].isWhitespace { return skippingSpaces(from: next + 1) }
        if let (word, end) = word(at: next), word == "and" || word == "with", end < list.upperBound, characters[end].isWhitespace {
            return skippingSpaces(from: end)
        }
        return nil
    }

    /// "Clint McElroy et al." is Clint McElroy.
    private func withoutNobody(_ range: Range<Int>) -> Range<Int>? {
        let text = String(characters[range]).lowercased()
        for ending in [" et al.", " et al"] where text.hasSuffix(ending) {
            return trimmed(range.lowerBound..<range.upperBound - ending.count)
        }
        return range
    }

    /// "Adam Rubin." is Adam Rubin; "Tui T." and "Kurt Vonnegut Jr." keep their stops.
    private func withoutClosingStop(_ range: Range<Int>) -> Range<Int>? {
        guard characters[range].last == "." else { return range }
        let lastWord = characters[range].split(whereSeparator: \.isWhitespace).last.map { String($0).lowercased() } ?? ""
        if lastWord.count <= 2 || Self.suffixes.contains(lastWord) || lastWord.dropLast().contains(".") { return range }
        return trimmed(range.lowerBound..<range.upperBound - 1)
    }

    // MARK: Characters

    private func trimmed(_ range: Range<Int>) -> Range<Int>? {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, characters[lower].isWhitespace { lower += 1 }
        while upper > lower, characters[upper - 1].isWhitespace { upper -= 1 }
        return lower < upper ? lower..<upper : nil
    }

    private func skippingSpaces(from index: Int) -> Int {
        var index = index
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        return index
    }

    /// The lower-cased word of letters starting at `position`, and where it ends.
    private func word(at position: Int) -> (String, Int)? {
        var end = position
        while end < characters.count, characters[end].isLetter { end += 1 }
        guard end > position else { return nil }
        return (String(characters[position..<end]).lowercased(), end)
    }
}
