import Foundation
import NIOCore
import Synchronization
import WishlistLanguages

/// The compiled templates of a views directory, rendered by name and language.
///
/// Every `*.html` file is compiled once per language, up front, so template mistakes
/// surface at start-up rather than on the first request, and a page's `{% t %}` text is
/// already in its language when it renders. Rendering never fails for missing data:
/// absent values render as nothing.
public final class TemplateLibrary: Sendable {
    private enum Templates: Sendable {
        case fixed(CompiledTemplates)
        case watched(TemplateWatcher)
    }

    private let templates: Templates

    /// Compiles every `*.html` under `directory`, recursively; a template's name is its
    /// path relative to `directory`, like `"layout.html"` or `"errors/error.html"`.
    ///
    /// With `reloadOnChange` (for development), each render first checks the files'
    /// modification times and recompiles everything when something changed.
    /// - Throws: ``TemplateError`` for the first problem found.
    public convenience init(directory: URL, reloadOnChange: Bool = false) throws(TemplateError) {
        try self.init(directory: directory, languages: [Translations()], reloadOnChange: reloadOnChange)
    }

    /// Compiles every template once for each of `languages`; the first is the one a render
    /// without a language, or with a language not among them, uses.
    package init(directory: URL, languages: [Translations], reloadOnChange: Bool = false) throws(TemplateError) {
        let compiled = try CompiledTemplates(directory: TemplateDirectory(url: directory), languages: languages)
        templates = reloadOnChange ? .watched(TemplateWatcher(compiled)) : .fixed(compiled)
    }

    /// The names of all templates, sorted.
    public var templateNames: [String] {
        current.templates[current.defaultLanguage]?.keys.sorted() ?? []
    }

    /// Renders the template `name` in `language` (a code such as "de") with `context` into a new buffer.
    /// - Throws: ``TemplateError`` for an unknown name or, when reloading, a compile error.
    public func render(_ name: String, _ context: TemplateValue, language: String? = nil) throws(TemplateError) -> ByteBuffer {
        let template = try template(named: name, language: language)
        var buffer = ByteBufferAllocator().buffer(capacity: template.expectedSize)
        template.render(context, into: &buffer)
        return buffer
    }

    /// Renders the template `name` with `context`, appending to `buffer`.
    /// - Throws: ``TemplateError`` for an unknown name or, when reloading, a compile error.
    public func render(_ name: String, _ context: TemplateValue, language: String? = nil, into buffer: inout ByteBuffer) throws(TemplateError) {
        try template(named: name, language: language).render(context, into: &buffer)
    }

    /// Renders the template `name` once for many requests: each ``TemplateValue/slot(_:)`` in
    /// `context` becomes a hole that ``SlottedHTML/write(into:fill:)`` fills per request.
    /// - Throws: ``TemplateError`` for an unknown name or, when reloading, a compile error.
    public func renderSlotted(_ name: String, _ context: TemplateValue, language: String? = nil) throws(TemplateError) -> SlottedHTML<String> {
        let template = try template(named: name, language: language)
        var buffer = ByteBufferAllocator().buffer(capacity: template.expectedSize)
        let holes = template.render(context, into: &buffer)
        return SlottedHTML(rendered: buffer, holes: holes)
    }

    private var current: CompiledTemplates {
        switch templates {
        case .fixed(let compiled): compiled
        case .watched(let watcher): watcher.latest
        }
    }

    private func template(named name: String, language: String?) throws(TemplateError) -> CompiledTemplate {
        let compiled = switch templates {
        case .fixed(let compiled): compiled
        case .watched(let watcher): try watcher.upToDate()
        }
        let inLanguage = language.flatMap { compiled.templates[$0] } ?? compiled.templates[compiled.defaultLanguage]
        guard let template = inLanguage?[name] else {
            throw TemplateError(file: name, line: 0, column: 0, message: "no such template; names are paths relative to the views directory, like \"errors/error.html\"")
        }
        return template
    }
}

/// One compilation of a whole directory in every language, with the file versions it was made from.
private struct CompiledTemplates: Sendable {
    let directory: TemplateDirectory
    let languages: [Translations]
    let stamps: [String: TemplateDirectory.FileStamp]
    /// By language code, then by template name.
    let templates: [String: [String: CompiledTemplate]]

    var defaultLanguage: String { languages.first?.language.code ?? "en" }

    init(directory: TemplateDirectory, languages: [Translations]) throws(TemplateError) {
        try self.init(directory: directory, languages: languages, stamps: directory.stamps())
    }

    init(directory: TemplateDirectory, languages: [Translations], stamps: [String: TemplateDirectory.FileStamp]) throws(TemplateError) {
        self.directory = directory
        self.languages = languages
        self.stamps = stamps
        self.templates = try directory.compile(stamps.keys, in: languages)
    }
}

/// Keeps the templates in step with the files during development.
private final class TemplateWatcher: Sendable {
    private let compiled: Mutex<CompiledTemplates>

    init(_ compiled: CompiledTemplates) {
        self.compiled = Mutex(compiled)
    }

    var latest: CompiledTemplates {
        compiled.withLock { $0 }
    }

    /// Recompiles when any file was added, removed or changed since the last compilation.
    /// On a compile error the previous templates are kept and the next call tries again.
    func upToDate() throws(TemplateError) -> CompiledTemplates {
        try compiled.withLock { compiled throws(TemplateError) -> CompiledTemplates in
            let stamps = try compiled.directory.stamps()
            if stamps != compiled.stamps {
                compiled = try CompiledTemplates(directory: compiled.directory, languages: compiled.languages, stamps: stamps)
            }
            return compiled
        }
    }
}
