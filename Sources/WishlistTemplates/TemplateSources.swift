import NIOCore

/// Templates given as texts rather than files, compiled and rendered exactly as a views
/// directory's are: the template fuzz target's way in (Fuzz/, docs/fuzzing.md), which must not
/// write files for every input.
package enum TemplateSources {
    /// Compiles `sources` (name → text, as a file's name relative to the views directory) and
    /// renders every template with `context`, by name.
    /// - Throws: ``TemplateError`` for the first problem found, in name order like a directory.
    package static func renderAll(_ sources: [String: String], context: TemplateValue) throws(TemplateError) -> [String: ByteBuffer] {
        var parsed: [String: ParsedTemplate] = [:]
        for (name, text) in sources.sorted(by: { $0.key < $1.key }) {
            parsed[name] = try Parser.parse(SourceFile(name: name, bytes: Array(text.utf8)))
        }
        var pages: [String: ByteBuffer] = [:]
        for (name, template) in try Compiler(templates: parsed).compileAll() {
            var buffer = ByteBufferAllocator().buffer(capacity: template.expectedSize)
            template.render(context, into: &buffer)
            pages[name] = buffer
        }
        return pages
    }
}
