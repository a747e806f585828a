import Foundation

/// Every shipped language's catalog, read from `Languages/<code>.po` once at start; English needs
/// none (its text is the catalogs' keys).
package struct LanguageCatalogs: Sendable {
    /// Why the catalogs could not be read: the file and, for a refused one, its line.
    package struct LoadError: Error, Equatable, CustomStringConvertible {
        package let file: String
        package let problem: String

        package var description: String { "\(file): \(problem)" }
    }

    private let byCode: [String: Translations]
    /// Every language's translations, in the order they were loaded: English first.
    package let all: [Translations]

    /// The catalogs in `directory`; one missing or refused stops the start, with its file and line.
    package static func load(from directory: URL, languages: [LanguageData] = LanguageData.shipped) throws(LoadError) -> LanguageCatalogs {
        // Each catalog on a thread of its own: reading them was a fifth of a start.
        let translated = try languages.filter { $0.code != "en" }.mapOnThreads { language throws(LoadError) in
            try read(language, from: directory)
        }
        return LanguageCatalogs(all: [Translations()] + translated)
    }

    private static func read(_ language: LanguageData, from directory: URL) throws(LoadError) -> Translations {
        let file = directory.appendingPathComponent("\(language.code).po")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw LoadError(file: file.path, problem: "missing or not UTF-8")
        }
        do {
            return try Translations(text, for: language)
        } catch {
            throw LoadError(file: file.path, problem: error.description)
        }
    }

    private init(all: [Translations]) {
        self.all = all
        byCode = Dictionary(all.map { ($0.language.code, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The translations of a shipped language's code, English for any other.
    package func translations(for code: String) -> Translations {
        byCode[code] ?? byCode["en"]!
    }
}
