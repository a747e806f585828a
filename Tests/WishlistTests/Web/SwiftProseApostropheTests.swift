import Foundation
import Testing

/// The sentences written in Swift (flashes, error pages, form errors, the API's problems and the
/// mail) use the curly apostrophe (’) as the views do (issue 57, defect 3): "can’t" reads the same
/// in a confirmation as on the page around it. Code keeps its straight quotes: comments, log lines
/// (for the operator, not a page) and SQL are not prose.
@Suite("Swift: curly apostrophes in the sentences it words")
struct SwiftProseApostropheTests {
    /// An apostrophe in a word ("isn't", "list's") or after a plural's s ("members' lists").
    static func hasProseApostrophe(_ text: String) -> Bool {
        text.contains(#/[A-Za-z]'[A-Za-z]|[sS]'[\s.,;:)!?]/#)
    }

    /// The string literals of a Swift file's lines that may be prose: one-line and multi-line
    /// literals, less those on comment or logging lines and those of SQL.
    static func proseLiterals(of source: String) -> [(line: Int, text: String)] {
        var found: [(Int, String)] = []
        for match in source.matches(of: #/"""(?s:(.*?))"""|"((?:[^"\\\n]|\\.)*)"/#) {
            let text = String(match.output.1 ?? match.output.2 ?? "")
            let lineStart = source[..<match.range.lowerBound].lastIndex(of: "\n").map(source.index(after:)) ?? source.startIndex
            let lineEnd = source[match.range.lowerBound...].firstIndex(of: "\n") ?? source.endIndex
            let line = source[lineStart..<lineEnd]
            guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//"), !line.contains("logger."),
                  text.firstMatch(of: #/\b(SELECT|INSERT|UPDATE|DELETE|WHERE|CREATE)\b/#) == nil
            else { continue }
            found.append((source[..<match.range.lowerBound].filter { $0 == "\n" }.count + 1, text))
        }
        return found
    }

    @Test func noSentenceWordedInSwiftHasAStraightApostrophe() throws {
        let web = repositoryRoot.appendingPathComponent("Sources/WishlistWeb")
        var files = try #require(FileManager.default.enumerator(atPath: web.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.map { web.appendingPathComponent($0) }
        files.append(repositoryRoot.appendingPathComponent("Sources/WishlistCore/Mail/MailTexts.swift"))
        #expect(files.count > 50, "the sources were not found")
        #expect(files.contains { $0.lastPathComponent == "FlashMiddleware.swift" } && files.contains { $0.lastPathComponent == "PageError.swift" })
        var straight: [String] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let source = try String(contentsOf: file, encoding: .utf8)
            straight += Self.proseLiterals(of: source).filter { Self.hasProseApostrophe($0.text) }
                .map { "\(file.lastPathComponent):\($0.line): \($0.text.prefix(80))" }
        }
        #expect(straight.isEmpty, "straight apostrophes in sentences (write ’): \(straight)")
    }

    /// The core words sentences for a person (form errors, refusals, passkey failures) with a
    /// capital, and messages for the operator (errors logged, the command line) without one.
    @Test func noSentenceTheCoreWordsForAPersonHasAStraightApostrophe() throws {
        let core = repositoryRoot.appendingPathComponent("Sources/WishlistCore")
        let files = try #require(FileManager.default.enumerator(atPath: core.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.map { core.appendingPathComponent($0) }
        #expect(files.contains { $0.lastPathComponent == "AccountService.swift" }, "the sources were not found")
        var straight: [String] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let source = try String(contentsOf: file, encoding: .utf8)
            straight += Self.proseLiterals(of: source).filter { $0.text.first?.isUppercase == true && Self.hasProseApostrophe($0.text) }
                .map { "\(file.lastPathComponent):\($0.line): \($0.text.prefix(80))" }
        }
        #expect(straight.isEmpty, "straight apostrophes in the core's sentences (write ’): \(straight)")
    }

    @Test func codeIsNotProse() {
        let source = #"""
            // The member's page
            let a = "That book isn't on your wishlist."
            logger.notice("the server's answer")
            let b = "SELECT 1 FROM user WHERE sharing = 'household' AND name = 'x'"
            let c = "Books I’ve read, the members’ lists"
            let d = """
                It can't be.
                """
            """#
        let prose = Self.proseLiterals(of: source).filter { Self.hasProseApostrophe($0.text) }
        #expect(prose.map(\.line) == [2, 6], "\(prose)")
    }
}
