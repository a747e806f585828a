import Foundation
import Testing

/// `docs/promises.md` pairs each promise with the test that fails without it and the code that
/// keeps it (issue 56). A row that names a test or a symbol that was renamed or moved away reads as
/// guarded while nothing guards it, so every name a row gives is looked up here: a Swift test file
/// and its test functions, a pytest file and its test, a source file and the symbol it is said to
/// hold. A failure names the line of the table to change.
@Suite("The promises table")
struct PromisesTableTests {
    static let table = "docs/promises.md"

    @Test func everyNamedTestExists() throws {
        let testFiles = try Self.byName(Self.files(under: "Tests/WishlistTests", suffix: ".swift"))
        let pythonFiles = try Self.byName(Self.files(under: "Tests", suffix: ".py"))
        var checked = 0
        for row in try Self.rows() {
            for reference in Self.swiftTests(in: row.tests) {
                guard let file = testFiles[reference.file] else {
                    Issue.record("\(Self.table):\(row.line) names \(reference.file), which is not under Tests/WishlistTests")
                    continue
                }
                let body = try String(contentsOf: file, encoding: .utf8)
                for name in reference.tests where body.firstMatch(of: Self.declaration("func", name)) == nil {
                    Issue.record("\(Self.table):\(row.line) names \(reference.file) › \(name), which has no such test")
                }
                checked += 1
            }
            for reference in Self.pytestNodes(in: row.tests) {
                guard let file = pythonFiles[reference.file] else {
                    Issue.record("\(Self.table):\(row.line) names \(reference.file), which is not under Tests/")
                    continue
                }
                if try String(contentsOf: file, encoding: .utf8).firstMatch(of: Self.declaration("def", reference.test)) == nil {
                    Issue.record("\(Self.table):\(row.line) names \(reference.file)::\(reference.test), which has no such test")
                }
                checked += 1
            }
        }
        #expect(checked > 200, "the table's tests were not found: is \(Self.table) still a table of `File.swift` › `test` cells?")
    }

    @Test func everyNamedSourceHoldsItsSymbol() throws {
        let sources = try Self.files(under: "Sources", suffix: "")
        var checked = 0
        for row in try Self.rows() {
            for reference in Self.keptBy(in: row.keptBy) {
                let candidates = reference.path.hasPrefix("Tests/")
                    ? [repositoryRoot.appendingPathComponent(reference.path)].filter { FileManager.default.fileExists(atPath: $0.path) }
                    : sources.filter { $0.path.hasSuffix("/" + reference.path) }
                guard let file = candidates.first else {
                    Issue.record("\(Self.table):\(row.line) names \(reference.path), which is not under Sources/")
                    continue
                }
                let body = try String(contentsOf: file, encoding: .utf8)
                for identifier in reference.identifiers where !body.contains(identifier) {
                    Issue.record("\(Self.table):\(row.line) says \(reference.path) keeps `\(identifier)`, which it does not hold")
                }
                checked += 1
            }
        }
        #expect(checked > 50, "the table's sources were not found: is \(Self.table)'s last column still `Path/File.swift`: `symbol`?")
    }

    @Test func theCellsAreReadAsTheTableWritesThem() {
        let tests = "`A.swift` › `one`, `two` (`file://` and others)<br>`B.swift`<br>`test_x.py::test_y`"
        #expect(Self.swiftTests(in: tests).map(\.file) == ["A.swift", "B.swift"])
        #expect(Self.swiftTests(in: tests).first?.tests == ["one", "two"])
        #expect(Self.pytestNodes(in: tests).map(\.test) == ["test_y"])
        let kept = "`WishlistCore/Catalog/NYT/CatalogSource.swift`: `NYTAPISource.withoutKey(…)`; `Views/layout.html`"
        #expect(Self.keptBy(in: kept).first?.path == "WishlistCore/Catalog/NYT/CatalogSource.swift")
        #expect(Self.keptBy(in: kept).first?.identifiers == ["NYTAPISource", "withoutKey"])
    }

    // MARK: - Reading the table

    struct Row {
        let line: Int
        let tests: String
        let keptBy: String
    }

    /// The table rows: the last two cells are the tests and what keeps the promise.
    static func rows() throws -> [Row] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(table), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { offset, line in
            guard line.hasPrefix("| "), !line.hasPrefix("| Promise") else { return nil }
            let cells = line.trimmingCharacters(in: .whitespaces).dropFirst().dropLast().components(separatedBy: " | ")
            guard cells.count >= 3 else { return nil }
            return Row(line: offset + 1, tests: cells[cells.count - 2], keptBy: cells[cells.count - 1])
        }
    }

    /// `File.swift` › `test`, `test`: the remarks in parentheses left out, so a backticked word in
    /// one (`file://`) is not read as a test.
    static func swiftTests(in cell: String) -> [(file: String, tests: [String])] {
        withoutParentheses(cell).matches(of: /`([A-Za-z0-9+]+\.swift)`(?: › ((?:`[A-Za-z_][A-Za-z0-9_]*`(?:, )?)+))?/)
            .filter { $0.1 != "File.swift" }
            .map { match in
                let names = match.2.map { String($0).matches(of: /`([A-Za-z_][A-Za-z0-9_]*)`/).map { String($0.1) } } ?? []
                return (String(match.1), names)
            }
    }

    static func pytestNodes(in cell: String) -> [(file: String, test: String)] {
        cell.matches(of: /(test_[a-z0-9_]+\.py)::([a-z0-9_]+)/).map { (String($0.1), String($0.2)) }
    }

    /// `Folder/File.swift`: `Type.member(…)`: the path, and the identifiers of the symbol that
    /// follows it (its leading dotted name).
    static func keptBy(in cell: String) -> [(path: String, identifiers: [String])] {
        cell.matches(of: /`((?:[A-Za-z0-9+]+\/)+[A-Za-z0-9+_]+\.(?:swift|h|c))`(?:: `([^`]*)`)?/).map { match in
            let symbol = match.2.map(String.init) ?? ""
            let lead = symbol.prefixMatch(of: /[A-Za-z_][A-Za-z0-9_.]*/).map { String($0.0) } ?? ""
            return (String(match.1), lead.split(separator: ".").map(String.init))
        }
    }

    static func withoutParentheses(_ text: String) -> String {
        var depth = 0
        return String(text.filter { character in
            switch character {
            case "(": depth += 1; return false
            case ")": depth = max(0, depth - 1); return false
            default: return depth == 0
            }
        })
    }

    static func declaration(_ keyword: String, _ name: String) -> Regex<Substring> {
        try! Regex("\(keyword)\\s+\(name)\\b")
    }

    /// Files below `root` (relative to the repository) whose names end in `suffix`.
    static func files(under root: String, suffix: String) throws -> [URL] {
        let base = repositoryRoot.appendingPathComponent(root)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix(suffix) && !$0.path.contains("/.") }
    }

    /// The table names test files by name alone: each name is one file.
    static func byName(_ files: [URL]) -> [String: URL] {
        Dictionary(files.map { ($0.lastPathComponent, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
