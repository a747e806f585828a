import Foundation
import WishlistLanguages

/// The `*.html` files under a views directory, and how to compile them.
struct TemplateDirectory: Sendable {
    let url: URL

    /// What identifies a file's version, to notice edits without reading contents.
    struct FileStamp: Equatable, Sendable {
        let modificationDate: Date?
        let size: Int?
    }

    /// Names (paths relative to the directory) and stamps of every template file.
    func stamps() throws(TemplateError) -> [String: FileStamp] {
        let fileManager = FileManager.default
        let root = url.path
        let paths: [String]
        do {
            paths = try fileManager.subpathsOfDirectory(atPath: root)
        } catch {
            throw TemplateError(file: root, line: 0, column: 0, message: "cannot list the views directory: \(error.localizedDescription)")
        }
        var stamps: [String: FileStamp] = [:]
        for name in paths where name.hasSuffix(".html") && !isHidden(name) {
            let attributes = try? fileManager.attributesOfItem(atPath: url.appendingPathComponent(name).path)
            guard attributes?[.type] as? FileAttributeType != .typeDirectory else { continue }
            stamps[name] = FileStamp(
                modificationDate: attributes?[.modificationDate] as? Date,
                size: (attributes?[.size] as? NSNumber)?.intValue
            )
        }
        return stamps
    }

    /// Hidden files include editors' lock and backup files, such as Emacs's `.#page.html`.
    private func isHidden(_ relativePath: String) -> Bool {
        relativePath.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// Reads and parses the named templates once, then compiles them once per language, by the
    /// language's code; fails on the first problem in name order.
    func compile(_ names: some Collection<String>, in languages: [Translations]) throws(TemplateError) -> [String: [String: CompiledTemplate]] {
        var parsed: [String: ParsedTemplate] = [:]
        for name in names.sorted() {
            parsed[name] = try Parser.parse(try read(name))
        }
        // Each language on a thread of its own: compiling is most of a start, and the languages share
        // nothing but the text runs' table.
        let texts = TextRuns()
        let templates = parsed
        let trees = try languages.mapOnThreads { translations throws(TemplateError) in
            try Compiler(templates: templates, translations: translations, texts: texts).compileAll()
        }
        return Dictionary(zip(languages.map(\.language.code), trees), uniquingKeysWith: { first, _ in first })
    }

    private func read(_ name: String) throws(TemplateError) -> SourceFile {
        let data: Data
        do {
            data = try Data(contentsOf: url.appendingPathComponent(name))
        } catch {
            throw TemplateError(file: name, line: 0, column: 0, message: "cannot read the file: \(error.localizedDescription)")
        }
        let bytes = [UInt8](data)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw TemplateError(file: name, line: 0, column: 0, message: "the file is not valid UTF-8")
        }
        return SourceFile(name: name, bytes: bytes)
    }
}
