/// Builds the syntax tree of one template file and checks its structure:
/// matching end tags, `extends` placement, block names.
struct Parser {
    private static let tagNames = ["if", "elif", "else", "endif", "for", "empty", "endfor", "block", "endblock", "include", "extends", "t"]

    private let file: SourceFile
    private let tokens: [TemplateToken]
    private var index = 0
    private var parent: TemplateReference?
    private var blocks: [String: BlockSyntax] = [:]
    private var blockLocations: [String: SourceLocation] = [:]

    static func parse(_ file: SourceFile) throws(TemplateError) -> ParsedTemplate {
        var parser = Parser(file: file, tokens: try Lexer(file: file).tokenize())
        return try parser.parseTemplate()
    }

    private init(file: SourceFile, tokens: [TemplateToken]) {
        self.file = file
        self.tokens = tokens
    }

    private mutating func parseTemplate() throws(TemplateError) -> ParsedTemplate {
        let (nodes, _) = try parseNodes(inside: nil)
        if let parent {
            try checkOnlyBlocks(in: nodes, extending: parent)
        }
        return ParsedTemplate(parent: parent, nodes: nodes, blocks: blocks)
    }

    // MARK: Node sequences

    /// A tag being parsed that ends with one of `endings`, such as `if` ending in `elif`, `else` or `endif`.
    private struct OpenTag {
        let name: String
        let endings: [String]
        let location: SourceLocation

        var closing: String { endings.last ?? "" }
    }

    /// A `{% … %}` whose name has been read; `arguments` continues after the name.
    private struct Tag {
        let name: String
        var arguments: ExpressionParser
        let location: SourceLocation
    }

    /// Parses nodes until one of `open`'s endings (returned) or the end of the file (nil).
    private mutating func parseNodes(inside open: OpenTag?) throws(TemplateError) -> ([SyntaxNode], Tag?) {
        var nodes: [SyntaxNode] = []
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .text(let range, let location):
                nodes.append(.text(range, location))
            case .output(let range, let location):
                var parser = try ExpressionParser(file: file, range: range, closing: "'}}'")
                let expression = try parser.parseExpression()
                try parser.expectEnd("'|'")
                nodes.append(.output(expression, location))
            case .tag(let range, let location):
                let tag = try readTag(range, location)
                if let open, open.endings.contains(tag.name) { return (nodes, tag) }
                try parseTag(tag, inside: open, into: &nodes)
            }
        }
        return (nodes, nil)
    }

    /// Like `parseNodes`, but the end of the file is an error because `open` must be closed.
    private mutating func parseBody(inside open: OpenTag) throws(TemplateError) -> ([SyntaxNode], Tag) {
        let (nodes, ending) = try parseNodes(inside: open)
        guard let ending else {
            throw endOfFileLocation.error("expected '{% \(open.closing) %}' before end of file; '\(open.name)' opened at \(open.location.lineAndColumn)")
        }
        return (nodes, ending)
    }

    private var endOfFileLocation: SourceLocation {
        SourceLocation(file: file, offset: file.bytes.count)
    }

    private func readTag(_ range: Range<Int>, _ location: SourceLocation) throws(TemplateError) -> Tag {
        var arguments = try ExpressionParser(file: file, range: range, closing: "'%}'")
        guard !arguments.isAtEnd else { throw location.error("expected a tag name after '{%'") }
        let name = try arguments.parseName("a tag name")
        return Tag(name: name, arguments: arguments, location: location)
    }

    private mutating func parseTag(_ tag: Tag, inside open: OpenTag?, into nodes: inout [SyntaxNode]) throws(TemplateError) {
        switch tag.name {
        case "if": nodes.append(.conditional(try parseConditional(tag)))
        case "for": nodes.append(.loop(try parseLoop(tag)))
        case "block": nodes.append(.block(try parseBlock(tag)))
        case "include": nodes.append(.include(try parseInclude(tag)))
        case "t": nodes.append(.translation(try parseTranslation(tag)))
        case "extends": try parseExtends(tag, isFirst: open == nil && nodes.allSatisfy(isWhitespaceText))
        case "elif", "else", "endif", "empty", "endfor", "endblock": throw misplaced(tag, inside: open)
        default:
            throw tag.location.error("unknown tag '\(tag.name)'; expected one of \(Self.tagNames.joined(separator: ", "))")
        }
    }

    private func misplaced(_ tag: Tag, inside open: OpenTag?) -> TemplateError {
        guard let open else {
            let opener = switch tag.name {
            case "empty", "endfor": "for"
            case "endblock": "block"
            default: "if"
            }
            return tag.location.error("unexpected '{% \(tag.name) %}': no '\(opener)' is open")
        }
        let expected = open.endings.map { "'{% \($0) %}'" }
        let list = expected.dropLast().joined(separator: ", ") + (expected.count > 1 ? " or " : "") + (expected.last ?? "")
        return tag.location.error("unexpected '{% \(tag.name) %}' inside '\(open.name)' opened at \(open.location.lineAndColumn); expected \(list)")
    }

    // MARK: Tags

    private mutating func parseConditional(_ tag: Tag) throws(TemplateError) -> ConditionalSyntax {
        let open = OpenTag(name: "if", endings: ["elif", "else", "endif"], location: tag.location)
        var branchTag = tag
        var branches: [ConditionalSyntax.Branch] = []
        var otherwise: [SyntaxNode]?
        while true {
            let condition = try branchTag.arguments.parseCondition()
            try branchTag.arguments.expectEnd("'and', 'or', a comparison")
            let (body, ending) = try parseBody(inside: open)
            branches.append(.init(condition: condition, body: body))
            branchTag = ending
            while branchTag.name == "else" {
                guard otherwise == nil else {
                    throw branchTag.location.error("unexpected '{% else %}': 'if' opened at \(open.location.lineAndColumn) already has an '{% else %}'")
                }
                try branchTag.arguments.expectEnd()
                (otherwise, branchTag) = try parseBody(inside: open)
            }
            if branchTag.name == "endif" {
                try branchTag.arguments.expectEnd()
                return ConditionalSyntax(branches: branches, otherwise: otherwise ?? [], location: tag.location)
            }
            guard otherwise == nil else {
                throw branchTag.location.error("unexpected '{% elif %}' after '{% else %}' in 'if' opened at \(open.location.lineAndColumn)")
            }
        }
    }

    private mutating func parseLoop(_ tag: Tag) throws(TemplateError) -> LoopSyntax {
        var arguments = tag.arguments
        let variable = try arguments.parseName("a loop variable name after 'for'")
        guard variable != "loop" else {
            throw tag.location.error("'loop' is reserved for loop.index, loop.first and friends; choose another loop variable name")
        }
        try arguments.expectKeyword("in", after: "'for \(variable)'")
        let sequence = try arguments.parseExpression()
        try arguments.expectEnd("'|'")

        let open = OpenTag(name: "for", endings: ["empty", "endfor"], location: tag.location)
        var (body, ending) = try parseBody(inside: open)
        var empty: [SyntaxNode] = []
        if ending.name == "empty" {
            try ending.arguments.expectEnd()
            (empty, ending) = try parseBody(inside: open)
            if ending.name == "empty" {
                throw ending.location.error("unexpected '{% empty %}': 'for' opened at \(open.location.lineAndColumn) already has an '{% empty %}'")
            }
        }
        try ending.arguments.expectEnd()
        return LoopSyntax(variable: variable, sequence: sequence, body: body, empty: empty, location: tag.location)
    }

    private mutating func parseBlock(_ tag: Tag) throws(TemplateError) -> BlockSyntax {
        var arguments = tag.arguments
        let name = try arguments.parseName("a block name")
        try arguments.expectEnd()
        if let first = blockLocations[name] {
            throw tag.location.error("duplicate block '\(name)'; it is already defined at \(first.lineAndColumn)")
        }
        blockLocations[name] = tag.location

        let open = OpenTag(name: "block", endings: ["endblock"], location: tag.location)
        var (body, ending) = try parseBody(inside: open)
        if !ending.arguments.isAtEnd {
            let nameLocation = ending.arguments.location
            let closingName = try ending.arguments.parseName("the block name")
            guard closingName == name else {
                throw nameLocation.error("'{% endblock \(closingName) %}' does not match '{% block \(name) %}' opened at \(tag.location.lineAndColumn)")
            }
        }
        try ending.arguments.expectEnd()
        let block = BlockSyntax(name: name, body: body, location: tag.location)
        blocks[name] = block
        return block
    }

    private func parseReference(_ arguments: inout ExpressionParser, _ purpose: String) throws(TemplateError) -> TemplateReference {
        let location = arguments.location
        return TemplateReference(name: try arguments.parseStringLiteral(purpose), location: location)
    }

    private func parseInclude(_ tag: Tag) throws(TemplateError) -> IncludeSyntax {
        var arguments = tag.arguments
        let template = try parseReference(&arguments, "the name of the template to include")
        guard arguments.skipKeyword("with") else {
            try arguments.expectEnd("'with'")
            return IncludeSyntax(template: template, bindings: [])
        }
        var bindings: [IncludeSyntax.Binding] = []
        repeat {
            let binding = try arguments.parseBinding(bindings.isEmpty ? "name=value after 'with'" : "another name=value or '%}'")
            try checkBindingName(binding, after: bindings)
            bindings.append(binding)
        } while !arguments.isAtEnd
        return IncludeSyntax(template: template, bindings: bindings)
    }

    private func checkBindingName(_ binding: IncludeSyntax.Binding, after earlier: [IncludeSyntax.Binding]) throws(TemplateError) {
        guard binding.name != "loop" else {
            throw binding.location.error("'loop' is reserved for loop.index, loop.first and friends; choose another name to bind")
        }
        if let first = earlier.first(where: { $0.name == binding.name }) {
            throw binding.location.error("duplicate name '\(binding.name)' in 'with'; it is already bound at \(first.location.lineAndColumn)")
        }
    }

    /// `{% t "English" [plural "English plural"] [context "context"] [name=value …] %}`.
    private func parseTranslation(_ tag: Tag) throws(TemplateError) -> TranslationSyntax {
        var arguments = tag.arguments
        let english = try arguments.parseStringLiteral("the English text, e.g. {% t \"Sign in\" %},")
        var plural: String?
        if arguments.skipKeyword("plural") {
            plural = try arguments.parseStringLiteral("the English plural after 'plural'")
        }
        var context: String?
        if arguments.skipKeyword("context") {
            context = try arguments.parseStringLiteral("the context after 'context'")
        }
        var values: [IncludeSyntax.Binding] = []
        while !arguments.isAtEnd {
            let binding = try arguments.parseBinding(values.isEmpty ? "a placeholder's name=value, 'plural', 'context' or '%}'" : "another name=value or '%}'")
            if let first = values.first(where: { $0.name == binding.name }) {
                throw binding.location.error("duplicate placeholder '\(binding.name)'; it is already given at \(first.location.lineAndColumn)")
            }
            values.append(binding)
        }
        return TranslationSyntax(english: english, englishPlural: plural, context: context, values: values, location: tag.location)
    }

    private mutating func parseExtends(_ tag: Tag, isFirst: Bool) throws(TemplateError) {
        guard isFirst, parent == nil else {
            throw tag.location.error("'{% extends %}' must come first in the template, before any text or other tag")
        }
        var arguments = tag.arguments
        parent = try parseReference(&arguments, "the name of the parent template")
        try arguments.expectEnd()
    }

    // MARK: Child templates

    /// A child template is nothing but block overrides: anything else would silently vanish.
    private func checkOnlyBlocks(in nodes: [SyntaxNode], extending parent: TemplateReference) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .block: continue
            case .text(let range, _) where isWhitespace(range): continue
            case .text(let range, _):
                let offset = range.first { !file.bytes[$0].isASCIIWhitespace } ?? range.lowerBound
                throw SourceLocation(file: file, offset: offset).error(outsideBlockMessage("text", parent))
            case .output: throw node.location.error(outsideBlockMessage("'{{ }}'", parent))
            case .conditional: throw node.location.error(outsideBlockMessage("'{% if %}'", parent))
            case .loop: throw node.location.error(outsideBlockMessage("'{% for %}'", parent))
            case .include: throw node.location.error(outsideBlockMessage("'{% include %}'", parent))
            case .translation: throw node.location.error(outsideBlockMessage("'{% t %}'", parent))
            }
        }
    }

    private func outsideBlockMessage(_ found: String, _ parent: TemplateReference) -> String {
        "\(found) outside a '{% block %}' in a template that extends '\(parent.name)'; only blocks may appear at its top level"
    }

    private func isWhitespaceText(_ node: SyntaxNode) -> Bool {
        if case .text(let range, _) = node { return isWhitespace(range) }
        return false
    }

    private func isWhitespace(_ range: Range<Int>) -> Bool {
        file.bytes[range].allSatisfy(\.isASCIIWhitespace)
    }
}
