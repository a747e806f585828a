import NIOCore
import Synchronization
import WishlistLanguages

/// Turns parsed templates into render trees: inlines includes, applies block
/// overrides along `extends` chains, resolves names against enclosing loops and
/// include bindings, picks each output's escaping from its HTML context, and puts
/// each `{% t %}` in one language.
struct Compiler {
    private let templates: [String: ParsedTemplate]
    private let translations: Translations
    private let texts: TextRuns

    /// `texts` may be shared by the compilers of several languages, which then share their equal runs.
    init(templates: [String: ParsedTemplate], translations: Translations = Translations(), texts: TextRuns = TextRuns()) {
        self.templates = templates
        self.translations = translations
        self.texts = texts
    }

    /// Compiles every template, failing on the first problem in name order.
    func compileAll() throws(TemplateError) -> [String: CompiledTemplate] {
        var compiled: [String: CompiledTemplate] = [:]
        for (name, template) in templates.sorted(by: { $0.key < $1.key }) {
            var compilation = Compilation(templates: templates, translations: translations, texts: texts)
            var builder = NodeBuilder(texts: texts)
            try compilation.compileTemplate(template, named: name, into: &builder)
            compiled[name] = CompiledTemplate(nodes: builder.finish(), staticByteCount: compilation.staticByteCount)
        }
        return compiled
    }
}

/// Runs of static text, each kept once: the layout and the shared partials are inlined into every
/// page of every language, and most of their markup is the same bytes each time. The compiled
/// trees live as long as the server, so what they hold is its memory at rest.
final class TextRuns: Sendable {
    private let runs = Mutex<Set<[UInt8]>>([])

    func shared(_ run: [UInt8]) -> [UInt8] {
        runs.withLock { $0.insert(run).memberAfterInsert }
    }
}

/// Collects render nodes, joining adjacent text so rendering copies it in one go.
private struct NodeBuilder {
    private let texts: TextRuns
    private var nodes: [RenderNode] = []
    private var pendingText: [UInt8] = []

    init(texts: TextRuns) {
        self.texts = texts
    }

    mutating func appendText(_ bytes: ArraySlice<UInt8>) {
        pendingText.append(contentsOf: bytes)
    }

    mutating func append(_ node: RenderNode) {
        flushText()
        nodes.append(node)
    }

    /// The nodes in an array of their own size: appending left room for more.
    mutating func finish() -> [RenderNode] {
        flushText()
        return nodes.withUnsafeBufferPointer { Array($0) }
    }

    private mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        nodes.append(.text(texts.shared(pendingText.withUnsafeBufferPointer { Array($0) })))
        pendingText = []
    }
}

/// The state of compiling one top-level template.
private struct Compilation {
    let templates: [String: ParsedTemplate]
    let translations: Translations
    private var html = HTMLContext()
    /// The names that enclosing loops and includes define, outermost first.
    private var scopes: [Scope] = []
    /// How many `{% for %}` loops enclose the node being compiled.
    private var loopDepth = 0
    /// The deepest loops may nest. Nested loops multiply: the innermost body of k loops over n
    /// items renders n^k times, and is compiled up to a few times per enclosing loop, so twenty
    /// loops over three items ran for minutes (docs/fuzzing.md, finding 7). The views nest three
    /// at most.
    static let maximumLoopDepth = 6
    /// Templates being compiled through includes and extends, to detect cycles.
    private var activeTemplates: [String] = []
    private(set) var staticByteCount = 0

    let texts: TextRuns

    init(templates: [String: ParsedTemplate], translations: Translations, texts: TextRuns) {
        self.templates = templates
        self.translations = translations
        self.texts = texts
    }

    private enum ReferenceKind: String {
        case include, extends
    }

    /// What a name can mean besides a key of the context.
    private enum Scope {
        /// A loop variable; `depth` counts the loops around it and indexes the renderer's loop frames.
        case loop(variable: String, depth: Int)
        /// The bindings of `{% include … with … %}`, already resolved at the include site.
        case include(bindings: [String: CompiledExpression])
    }

    // MARK: Templates and inheritance

    /// Compiles `template` where it is used, following its `extends` chain to the root layout.
    mutating func compileTemplate(_ template: ParsedTemplate, named name: String, into builder: inout NodeBuilder) throws(TemplateError) {
        let depthBefore = activeTemplates.count
        activeTemplates.append(name)
        var template = template
        // The most derived template's block wins, so only add blocks not yet overridden.
        var overrides: [String: BlockSyntax] = [:]
        while let parent = template.parent {
            overrides.merge(template.blocks) { derived, _ in derived }
            template = try lookUp(parent, .extends)
            activeTemplates.append(parent.name)
        }
        try compile(template.nodes, overrides: overrides, into: &builder)
        activeTemplates.removeLast(activeTemplates.count - depthBefore)
    }

    private func lookUp(_ reference: TemplateReference, _ kind: ReferenceKind) throws(TemplateError) -> ParsedTemplate {
        guard let template = templates[reference.name] else {
            throw reference.location.error("\(kind == .include ? "included" : "parent") template '\(reference.name)' not found")
        }
        if let cycleStart = activeTemplates.firstIndex(of: reference.name) {
            let cycle = (activeTemplates[cycleStart...] + [reference.name]).joined(separator: " → ")
            throw reference.location.error("\(kind.rawValue) cycle: \(cycle)")
        }
        return template
    }

    // MARK: Nodes

    private mutating func compile(_ nodes: [SyntaxNode], overrides: [String: BlockSyntax], into builder: inout NodeBuilder) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text(let range, let location):
                let bytes = html.consumeDroppingIndentation(location.file.bytes[range])
                staticByteCount += bytes.count
                builder.appendText(bytes[...])
            case .output(let expression, let location):
                builder.append(try compileOutput(expression, at: location))
            case .conditional(let conditional):
                builder.append(.conditional(try compileConditional(conditional, overrides: overrides)))
            case .loop(let loop):
                builder.append(.loop(try compileLoop(loop, overrides: overrides)))
            case .include(let include):
                try compileInclude(include, into: &builder)
            case .block(let block):
                try compile((overrides[block.name] ?? block).body, overrides: overrides, into: &builder)
            case .translation(let translation):
                try compileTranslation(translation, into: &builder)
            }
        }
    }

    /// Bindings are resolved where the include is written, so `book=book.details` means the
    /// include site's `book`; the included template then sees them in place of outer names,
    /// and only while it is compiled, so they never leak back to the include site.
    private mutating func compileInclude(_ include: IncludeSyntax, into builder: inout NodeBuilder) throws(TemplateError) {
        let template = try lookUp(include.template, .include)
        var bindings: [String: CompiledExpression] = [:]
        for binding in include.bindings {
            bindings[binding.name] = try resolve(binding.value)
        }
        scopes.append(.include(bindings: bindings))
        try compileTemplate(template, named: include.template.name, into: &builder)
        scopes.removeLast()
    }

    private mutating func compileBody(_ nodes: [SyntaxNode], overrides: [String: BlockSyntax]) throws(TemplateError) -> [RenderNode] {
        var builder = NodeBuilder(texts: texts)
        try compile(nodes, overrides: overrides, into: &builder)
        return builder.finish()
    }

    private mutating func compileOutput(_ expression: ExpressionSyntax, at location: SourceLocation) throws(TemplateError) -> RenderNode {
        let escaping: OutputEscaping
        do {
            escaping = try html.escapingForOutput()
        } catch {
            throw location.error(error.message)
        }
        html.didWriteOutput()
        return .output(try resolve(expression), escaping)
    }

    /// Every branch starts in the context before `if`; afterwards the context must be
    /// one that all of them (and skipping them all) agree on.
    private mutating func compileConditional(_ conditional: ConditionalSyntax, overrides: [String: BlockSyntax]) throws(TemplateError) -> ConditionalNode {
        let start = html
        var ends: [HTMLContext] = []
        var branches: [ConditionalNode.Branch] = []
        for branch in conditional.branches {
            html = start
            let condition = try branch.condition.map { expression throws(TemplateError) in try resolve(expression) }
            branches.append(.init(condition: condition, body: try compileBody(branch.body, overrides: overrides)))
            ends.append(html)
        }
        html = start
        let otherwise = try compileBody(conditional.otherwise, overrides: overrides)
        for end in ends {
            guard let merged = html.merged(with: end) else {
                throw conditional.location.error("the branches of this 'if' end in different HTML contexts (\(end.description) and \(html.description)); close tags and quotes inside each branch")
            }
            html = merged
        }
        return ConditionalNode(branches: branches, otherwise: otherwise)
    }

    /// The body may run any number of times, so it is compiled from a context that
    /// covers both the start and its own end; that takes at most a few passes.
    private mutating func compileLoop(_ loop: LoopSyntax, overrides: [String: BlockSyntax]) throws(TemplateError) -> LoopNode {
        let sequence = try resolve(loop.sequence)
        let start = html
        var bodyStart = start
        var body: [RenderNode]
        guard loopDepth < Self.maximumLoopDepth else {
            throw loop.location.error("this 'for' is inside \(loopDepth) others; loops nest at most \(Self.maximumLoopDepth) deep")
        }
        while true {
            html = bodyStart
            scopes.append(.loop(variable: loop.variable, depth: loopDepth))
            loopDepth += 1
            body = try compileBody(loop.body, overrides: overrides)
            loopDepth -= 1
            scopes.removeLast()
            guard let merged = bodyStart.merged(with: html) else {
                throw loop.location.error("the body of this 'for' starts in \(bodyStart.description) but ends in \(html.description); close tags and quotes inside the loop")
            }
            if merged == bodyStart { break }
            bodyStart = merged
        }
        html = start
        let empty = try compileBody(loop.empty, overrides: overrides)
        guard let merged = html.merged(with: bodyStart) else {
            throw loop.location.error("the 'empty' branch of this 'for' ends in \(html.description) but the loop body in \(bodyStart.description)")
        }
        html = merged
        return LoopNode(sequence: sequence, body: body, empty: empty)
    }

    // MARK: Translations

    /// `{% t %}` in this compilation's language: the message's text becomes static bytes, escaped
    /// for where it stands, and each placeholder an output of its value; a counted message becomes
    /// one such body per plural form. No catalog is read while a page renders.
    private mutating func compileTranslation(_ translation: TranslationSyntax, into builder: inout NodeBuilder) throws(TemplateError) {
        var values: [String: CompiledExpression] = [:]
        for binding in translation.values {
            values[binding.name] = try resolve(binding.value)
        }
        try checkPlaceholders(of: translation)
        guard let englishPlural = translation.englishPlural else {
            let message = translations.message(translation.english, context: translation.context)
            try appendMessage(message, values: values, at: translation.location, into: &builder)
            return
        }
        let (forms, language) = translations.forms(one: translation.english, other: englishPlural, context: translation.context)
        let count = values["count"]!
        values["count"] = count.appending(filters: [.count(language)])
        let start = html
        var bodies: [[RenderNode]] = []
        for form in forms {
            html = start
            var formBuilder = NodeBuilder(texts: texts)
            try appendMessage(form, values: values, at: translation.location, into: &formBuilder)
            bodies.append(formBuilder.finish())
        }
        builder.append(.plural(PluralNode(count: count, language: language, forms: bodies)))
    }

    /// The values given must be the English text's placeholders, no more, no fewer, and a counted
    /// message needs its `count`: a catalog's translation has the same ones (Translations checks).
    private func checkPlaceholders(of translation: TranslationSyntax) throws(TemplateError) {
        var expected = MessageText(translation.english).placeholders
        if let plural = translation.englishPlural {
            expected.formUnion(MessageText(plural).placeholders)
            expected.insert("count")
        }
        let given = Set(translation.values.map(\.name))
        if let missing = expected.subtracting(given).sorted().first {
            let example = missing == "count" ? "count=books | length" : "\(missing)=…"
            throw translation.location.error("'{% t \"\(translation.english)\" %}' needs a value for {\(missing)}: add \(example)")
        }
        if let unused = translation.values.first(where: { !expected.contains($0.name) }) {
            throw unused.location.error("'\(unused.name)' is not a placeholder of \"\(translation.english)\"; write {\(unused.name)} in the text or leave it out")
        }
    }

    private mutating func appendMessage(
        _ message: MessageText, values: [String: CompiledExpression], at location: SourceLocation, into builder: inout NodeBuilder
    ) throws(TemplateError) {
        let escaping: OutputEscaping
        do {
            escaping = try html.escapingForOutput()
        } catch {
            throw location.error(error.message)
        }
        guard escaping == .text || escaping == .attribute else {
            throw location.error("'{% t %}' cannot stand in a URL attribute; translate the link's text, not its address")
        }
        for part in message.parts {
            switch part {
            case .text(let text):
                var buffer = ByteBufferAllocator().buffer(capacity: text.utf8.count)
                buffer.writeOutput(.string(text), escaping: escaping)
                let bytes = Array(buffer.readableBytesView)
                html.consume(bytes[...])
                staticByteCount += bytes.count
                builder.appendText(bytes[...])
            case .placeholder(let name):
                guard let value = values[name] else {
                    throw location.error("the \(translations.language.code) catalog's text has {\(name)}, which the English has not")
                }
                html.didWriteOutput()
                builder.append(.output(value, escaping))
            }
        }
    }

    /// A binding's `t "English"`: static text, so it takes no placeholders.
    private func translatedLiteral(_ english: String, at location: SourceLocation) throws(TemplateError) -> String {
        guard MessageText(english).placeholders.isEmpty else {
            throw location.error("'t \"\(english)\"' in a binding takes no placeholders; write {% t %} with its values where the text is shown")
        }
        return translations.text(english)
    }

    // MARK: Names

    private func resolve(_ expression: ExpressionSyntax) throws(TemplateError) -> CompiledExpression {
        switch expression.source {
        case .literal(let value):
            CompiledExpression(source: .literal(value), filters: filters(of: expression))
        case .path(let path):
            try resolve(path).appending(filters: filters(of: expression))
        case .translated(let english, let location):
            CompiledExpression(source: .literal(.string(try translatedLiteral(english, at: location))), filters: filters(of: expression))
        }
    }

    /// The expression's filters in this compilation's language (a date style's pattern).
    private func filters(of expression: ExpressionSyntax) -> [Filter] {
        expression.filters.map { $0.inLanguage(translations.language) }
    }

    /// Loop variables and include bindings shadow the context, innermost first; `loop` means the innermost loop.
    private func resolve(_ path: PathSyntax) throws(TemplateError) -> CompiledExpression {
        let name = path.segments[0]
        let rest = Array(path.segments.dropFirst())
        if name == "loop", loopDepth > 0 {
            guard rest.count == 1, let property = LoopProperty(rawValue: rest[0]) else {
                let properties = LoopProperty.allCases.map { "loop.\($0.rawValue)" }.joined(separator: ", ")
                throw path.location.error("unknown loop property '\(path.segments.joined(separator: "."))'; expected one of \(properties)")
            }
            return CompiledExpression(source: .loopProperty(depth: loopDepth - 1, property), filters: [])
        }
        for scope in scopes.reversed() {
            switch scope {
            case .loop(name, let depth):
                return CompiledExpression(source: .loopItem(depth: depth, path: rest), filters: [])
            case .include(let bindings):
                if let bound = bindings[name] { return try follow(bound, rest, in: path) }
            case .loop:
                continue
            }
        }
        return CompiledExpression(source: .context(path.segments), filters: [])
    }

    /// A bound value followed by the rest of a path, such as `book.title` where `book=item`.
    private func follow(_ bound: CompiledExpression, _ rest: [String], in path: PathSyntax) throws(TemplateError) -> CompiledExpression {
        guard !rest.isEmpty else { return bound }
        guard bound.filters.isEmpty else {
            // A path after filters has no compiled form; the filters could move to where the value is used.
            throw path.location.error("'\(path.segments[0])' is bound to a value with filters, so '\(path.segments.joined(separator: "."))' cannot look inside it; bind the value without filters and apply them here")
        }
        return CompiledExpression(source: bound.source.appending(path: rest), filters: [])
    }
}
