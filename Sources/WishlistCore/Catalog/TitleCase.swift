/// Titles arrive in capitals ("THE HOUSE OF FLAME AND SHADOW"); people read them in title case.
enum TitleCase {
    private static let minorWords: Set<String> = [
        "a", "an", "and", "as", "at", "but", "by", "for", "from", "in", "into", "nor", "of", "on", "or", "the", "to", "with",
    ]

    /// Title case for text that is entirely upper case; anything else is already cased by a person.
    static func from(_ title: String) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard trimmed == trimmed.uppercased(), trimmed != trimmed.lowercased() else { return trimmed }
        let words = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        var previousEndedPhrase = true
        return words.enumerated().map { index, word in
            let lower = word.lowercased()
            let isEdge = index == 0 || index == words.count - 1 || previousEndedPhrase
            previousEndedPhrase = word.hasSuffix(":") || word.hasSuffix("—") || word.hasSuffix("-")
            if !isEdge && minorWords.contains(lower) { return lower }
            return capitalizeParts(lower)
        }.joined(separator: " ")
    }

    /// "self-help" → "Self-Help"; "o'brien" → "O'Brien" is not guessed, but "don't" stays "Don't".
    private static func capitalizeParts(_ word: String) -> String {
        word.split(separator: "-", omittingEmptySubsequences: false).map { part -> String in
            guard let first = part.firstIndex(where: { $0.isLetter || $0.isNumber }) else { return String(part) }
            return part[..<first] + part[first].uppercased() + part[part.index(after: first)...]
        }.joined(separator: "-")
    }
}
