import Foundation
import Testing
@testable import WishlistLanguages

/// The catalogs under Languages/ (issue 53): `messages.pot` holds every string the templates and
/// the Swift code mark (scripts/extract-messages.py), and every shipped language translates each
/// of them, with the English text's placeholders; a string one lacks would show in English.
@Suite struct MessageCatalogTests {
    static let folder = repositoryRoot.appendingPathComponent("Languages")

    @Test func thePotHoldsEveryMarkedStringAsTheScriptWritesIt() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [repositoryRoot.appendingPathComponent("scripts/extract-messages.py").path, "--check"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(complaint)")
    }

    @Test(arguments: LanguageData.shipped.filter { $0.code != "en" }.map(\.code))
    func everyLanguageTranslatesEveryStringWithItsPlaceholders(code: String) throws {
        let pot = try POReader.read(String(contentsOf: Self.folder.appendingPathComponent("messages.pot"), encoding: .utf8))
        #expect(!pot.entries.isEmpty)
        let text = try String(contentsOf: Self.folder.appendingPathComponent("\(code).po"), encoding: .utf8)
        // Refuses a translation whose placeholders differ from its English text's.
        _ = try Translations(text, for: try #require(LanguageData.shipped(code: code)))
        let catalog = try POReader.read(text)
        for english in pot.entries {
            let translated = catalog.entries.first { $0.id == english.id && $0.context == english.context }
            #expect(translated?.isTranslated == true, "\(code).po lacks \"\(english.id)\"\(english.context.map { " (\($0))" } ?? "")")
            #expect(translated?.pluralID == english.pluralID, "\(code).po: \"\(english.id)\" counts differently from the English")
        }
        for extra in catalog.entries where !pot.entries.contains(where: { $0.id == extra.id && $0.context == extra.context }) {
            Issue.record("\(code).po:\(extra.line) translates \"\(extra.id)\", which nothing marks any more")
        }
    }
}
