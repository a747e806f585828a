import Foundation
import Stencil

/// What our engine's filters and escaping do, written the way a Stencil or Mustache user would:
/// Foundation's DateFormatter (cached per format), and plain loops over UTF-8.
enum Formats {
    nonisolated(unsafe) private static var formatters: [String: DateFormatter] = [:]
    private static let dayParser: DateFormatter = formatter("yyyy-MM-dd")

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    /// A date, or a `yyyy-MM-dd` string, formatted in UTC; nil for anything else.
    static func date(_ value: Any?, _ format: String) -> String? {
        let date: Date
        switch value {
        case let value as Date: date = value
        case let value as String:
            guard let parsed = dayParser.date(from: value) else { return nil }
            date = parsed
        default: return nil
        }
        if let cached = formatters[format] { return cached.string(from: date) }
        let made = formatter(format)
        formatters[format] = made
        return made.string(from: date)
    }

    static func pluralize(_ count: Int, _ noun: String) -> String {
        "\(count) \(count == 1 ? noun : noun + "s")"
    }

    /// Percent-encodes everything but `A-Z a-z 0-9 - . _ ~`, as our `urlencode` filter does.
    static func urlencode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `& < > " '` as entities, the same five and the same entities as our engine and swift-mustache.
    static func escapeHTML(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 <= UInt8(ascii: ">") && needsEscape($0) }) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): bytes.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): bytes.append(contentsOf: "&#39;".utf8)
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    /// Text of a scalar as the templates print it.
    static func text(_ value: Any?) -> String {
        switch value {
        case nil: ""
        case let value as String: value
        case let value as Int: String(value)
        case let value as Bool: value ? "true" : "false"
        case let value as CustomStringConvertible: value.description
        default: ""
        }
    }
}

/// Stencil with our filters (`e` escapes: Stencil 0.15 has no auto-escaping) and a loader that
/// lexes every template once, up front. Stencil still parses the tokens on every render and every
/// include; that is how its `Template.render` works and cannot be changed from outside.
enum StencilSetup {
    static func environment(directory: URL) throws -> Environment {
        let ext = Extension()
        ext.registerFilter("e") { value in Formats.escapeHTML(Formats.text(value)) }
        ext.registerFilter("urlencode") { value in Formats.urlencode(Formats.text(value)) }
        ext.registerFilter("date") { (value: Any?, arguments: [Any?]) in
            guard let format = arguments.first as? String else { throw TemplateSyntaxError("date needs a format") }
            return Formats.date(value, format)
        }
        ext.registerFilter("pluralize") { (value: Any?, arguments: [Any?]) in
            guard let noun = arguments.first as? String else { throw TemplateSyntaxError("pluralize needs a noun") }
            let count = switch value {
            case let items as [Any]: items.count
            case let number as Int: number
            default: 0
            }
            return Formats.pluralize(count, noun)
        }
        let loader = try PreloadedLoader(directory: directory, extension: "html")
        return Environment(loader: loader, extensions: [ext])
    }
}

/// Keeps every template of a folder lexed in memory, named by relative path as our engine does.
final class PreloadedLoader: Loader {
    private let sources: [String: String]
    private var cache: [String: Template] = [:]

    init(directory: URL, extension fileExtension: String) throws {
        sources = try TemplateFiles.read(directory: directory, extension: fileExtension)
    }

    func loadTemplate(name: String, environment: Environment) throws -> Template {
        if let template = cache[name] { return template }
        guard let source = sources[name] else { throw TemplateDoesNotExist(templateNames: [name], loader: self) }
        let template = environment.templateClass.init(templateString: source, environment: environment, name: name)
        cache[name] = template
        return template
    }

    func loadTemplate(names: [String], environment: Environment) throws -> Template {
        for name in names where sources[name] != nil { return try loadTemplate(name: name, environment: environment) }
        throw TemplateDoesNotExist(templateNames: names, loader: self)
    }
}

enum TemplateFiles {
    /// Relative path → text of every `*.EXT` file under `directory`.
    static func read(directory: URL, extension fileExtension: String) throws -> [String: String] {
        let root = directory.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { throw BenchError("cannot read \(root)") }
        var files: [String: String] = [:]
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix("." + fileExtension) else { continue }
            files[relative] = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
        }
        guard !files.isEmpty else { throw BenchError("no .\(fileExtension) files under \(root)") }
        return files
    }
}
