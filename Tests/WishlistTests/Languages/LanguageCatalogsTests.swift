import Foundation
import Testing
@testable import WishlistLanguages

/// The repository's catalogs load as the server reads them, and every key of messages.pot is in
/// every language with the same placeholders.
@Suite struct LanguageCatalogsTests {
    static let folder = repositoryRoot.appendingPathComponent("Languages")

    @Test func theRepositorysCatalogsLoad() throws {
        let catalogs = try LanguageCatalogs.load(from: Self.folder)
        #expect(catalogs.translations(for: "de").language.code == "de")
        #expect(catalogs.translations(for: "it").language.code == "en", "a language we lack is English")
    }

    @Test func everyKeyOfTheTemplateIsInEveryLanguage() throws {
        let template = try POReader.read(String(contentsOf: Self.folder.appendingPathComponent("messages.pot"), encoding: .utf8))
        for code in ["de", "fr", "es"] {
            let catalog = try POReader.read(String(contentsOf: Self.folder.appendingPathComponent("\(code).po"), encoding: .utf8))
            let keys = Set(catalog.entries.filter(\.isTranslated).map { "\($0.context ?? "")|\($0.id)|\($0.pluralID ?? "")" })
            for entry in template.entries where !keys.contains("\(entry.context ?? "")|\(entry.id)|\(entry.pluralID ?? "")") {
                Issue.record("\(code).po has no translation of \"\(entry.id)\" (messages.pot line \(entry.line))")
            }
            #expect(catalog.placeholderMismatches.isEmpty, "\(code).po")
        }
    }

    @Test func aMissingOrBrokenCatalogStopsTheStartWithItsFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalogs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: LanguageCatalogs.LoadError(file: folder.appendingPathComponent("de.po").path, problem: "missing or not UTF-8")) {
            try LanguageCatalogs.load(from: folder, languages: [.english, .german])
        }
        try "msgid \"\"\nmsgstr \"Language: de\\n\"\nmsgid \"a\"\n".write(to: folder.appendingPathComponent("de.po"), atomically: true, encoding: .utf8)
        #expect(throws: LanguageCatalogs.LoadError(file: folder.appendingPathComponent("de.po").path, problem: "line 4: msgid \"a\" has no msgstr")) {
            try LanguageCatalogs.load(from: folder, languages: [.english, .german])
        }
    }
}
