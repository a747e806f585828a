import Foundation
import Testing

/// `docs/architecture.md` is the map a newcomer reads first (issue 55), so it must stay true and
/// short: its folder tree names every folder of `Sources/`, `Tests/` and `Views/` and no folder that
/// is gone, the first level of the other folders it names, and the page stays under 300 lines.
/// Every file of `docs/decisions/` is listed in that folder's index. Whoever adds, moves or removes
/// a folder is told which line of the map to change.
@Suite("The architecture map")
struct ArchitectureMapTests {
    static let map = "docs/architecture.md"
    /// Every folder below these is on the map, at any depth.
    static let mappedInFull = ["Sources", "Tests", "Views"]
    /// Folders whose insides are data, not code: the map names the folder, not what it holds.
    static let dataFolders: Set<String> = ["Sources/WishlistCore/Catalog/SampleCatalog"]

    @Test func theMapNamesEveryFolderOfSourcesTestsAndViews() throws {
        let named = try Self.foldersOnTheMap()
        for root in Self.mappedInFull {
            let present = try Self.folders(under: root, depth: .max)
            for folder in present.subtracting(named).sorted() {
                Issue.record("\(folder)/ is a folder that \(Self.map) does not name: add a line for it to the tree under \"## Folders\" (one line: what it holds)")
            }
        }
    }

    @Test func everyFolderTheMapNamesIsThere() throws {
        for folder in try Self.foldersOnTheMap().sorted() where !Self.isDirectory(folder) {
            Issue.record("\(Self.map) names \(folder)/, which is not there: remove or rename its line in the tree")
        }
    }

    /// The other top folders (Benchmarks, Fuzz, docs…) are mapped one level deep.
    @Test func theOtherFoldersOnTheMapNameTheirFirstLevel() throws {
        let named = try Self.foldersOnTheMap()
        let others = named.filter { !$0.contains("/") && !Self.mappedInFull.contains($0) }
        #expect(others.count >= 5, "the tree names Public, scripts, Benchmarks, Fuzz, deploy and docs")
        for root in others.sorted() {
            for folder in try Self.folders(under: root, depth: 1).subtracting(named).sorted() {
                Issue.record("\(folder)/ is a folder that \(Self.map) does not name: add a line for it under \(root)/ in the tree")
            }
        }
    }

    @Test func theMapStaysUnder300Lines() throws {
        let lines = try Self.read(Self.map).filter { $0 == "\n" }.count
        #expect(lines < 300, "\(Self.map) has \(lines) lines: a map a newcomer reads in ten minutes stays under 300; move history and long explanations to docs/decisions/ or a topic document")
    }

    @Test func everyDecisionIsInTheIndex() throws {
        let index = try Self.read("docs/decisions/README.md")
        let files = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("docs/decisions").path)
            .filter { $0.hasSuffix(".md") && $0 != "README.md" }
        #expect(files.count > 50, "the decisions were not found")
        for file in files.sorted() where !index.contains("](\(file))") {
            Issue.record("docs/decisions/\(file) is not in docs/decisions/README.md: add a line for it under its area")
        }
        for linked in index.matches(of: /\]\(([^)\/]+\.md)\)/).map({ String($0.1) }) where !files.contains(linked) {
            Issue.record("docs/decisions/README.md links \(linked), which is not there")
        }
    }

    @Test func theTreeIsReadByItsIndentation() throws {
        let tree = """
            ## Folders

            ```
            Sources/                 the code
              WishlistCore/          the domain
                Mail/                mail
                  Digest/            the digest
                                     a second line of its description
              wishlist/              the executable
            Views/                   templates: layout.html, partials/
            ```
            """
        #expect(try Self.folders(inTreeOf: tree) == ["Sources", "Sources/WishlistCore", "Sources/WishlistCore/Mail", "Sources/WishlistCore/Mail/Digest", "Sources/wishlist", "Views"])
        #expect(throws: MapError.self) { try Self.folders(inTreeOf: "## Folders\n\n```\nSources/\n      Lost/\n```\n") }
        #expect(throws: MapError.self) { try Self.folders(inTreeOf: "## Layout\n") }
    }

    struct MapError: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    static func foldersOnTheMap() throws -> Set<String> {
        try folders(inTreeOf: read(map))
    }

    /// The folders the first code block after "## Folders" names: a line whose first word ends in
    /// "/" is a folder, two spaces of indentation a level; other lines continue a description.
    static func folders(inTreeOf markdown: String) throws -> Set<String> {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("## Folders") }),
              let open = lines[heading...].firstIndex(where: { $0.hasPrefix("```") }),
              let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else { throw MapError(description: "\(map) has no \"## Folders\" section with the tree in a code block") }
        var path: [Substring] = []
        var folders: Set<String> = []
        for (offset, line) in lines[(open + 1)..<close].enumerated() {
            guard let word = line.split(separator: " ").first, word.hasSuffix("/") else { continue }
            let indent = line.prefix { $0 == " " }.count
            guard indent % 2 == 0, indent / 2 <= path.count else {
                throw MapError(description: "line \(offset + 1) of the tree in \(map) (\(word)) is indented \(indent) spaces, not two a level below its folder")
            }
            path = Array(path.prefix(indent / 2)) + [word.dropLast()]
            folders.insert(path.joined(separator: "/"))
        }
        return folders
    }

    /// The folders below `root` (relative to the repository) down to `depth` levels: hidden ones,
    /// `__pycache__` and what data folders hold left out.
    static func folders(under root: String, depth: Int) throws -> Set<String> {
        let base = repositoryRoot.appendingPathComponent(root)
        let entries = try FileManager.default.contentsOfDirectory(atPath: base.path)
        var found: Set<String> = []
        for name in entries where !name.hasPrefix(".") && name != "__pycache__" {
            let folder = root + "/" + name
            guard isDirectory(folder) else { continue }
            found.insert(folder)
            if depth > 1 && !dataFolders.contains(folder) {
                found.formUnion(try folders(under: folder, depth: depth - 1))
            }
        }
        return found
    }

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(path).path, isDirectory: &directory) && directory.boolValue
    }
}
