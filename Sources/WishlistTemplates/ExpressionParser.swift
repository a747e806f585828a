/// Parses expressions and conditions from the tokens of one `{{ }}` or `{% %}`.
///
/// Grammar, loosest binding first:
///
///     condition  := and ("or" and)*
///     and        := not ("and" not)*
///     not        := "not" not | "(" condition ")" | comparison
///     comparison := expression (("==" | "!=" | "<" | "<=" | ">" | ">=") expression)?
///     expression := operand ("|" name (":" literal ("," literal)*)?)*
///     operand    := name ("." name)* | literal
///     binding    := name "=" expression        (the `with` of `{% include %}`)
struct ExpressionParser {
    private static let keywords: Set<String> = ["and", "or", "not", "in", "true", "false"]

    private let file: SourceFile
    private let tokens: [ExpressionToken]
    private var index = 0
    /// How the enclosing delimiter closes, e.g. `'}}'`, for messages.
    private let closing: String

    init(file: SourceFile, range: Range<Int>, closing: String) throws(TemplateError) {
        var tokenizer = ExpressionTokenizer(file: file, range: range)
        self.file = file
        self.tokens = try tokenizer.tokenize()
        self.closing = closing
    }

    var isAtEnd: Bool { current.kind == .end }

    /// Location of the next unread token.
    var location: SourceLocation { SourceLocation(file: file, offset: current.offset) }

    private var current: ExpressionToken { tokens[index] }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    // MARK: Expressions

    mutating func parseExpression() throws(TemplateError) -> ExpressionSyntax {
        let operand = try parseOperand()
        var filters: [Filter] = []
        while current.kind == .pipe {
            advance()
            filters.append(try parseFilter())
        }
        return ExpressionSyntax(source: operand, filters: filters)
    }

    private mutating func parseOperand() throws(TemplateError) -> OperandSyntax {
        if let literal = literalValue(current.kind) {
            advance()
            return .literal(literal)
        }
        guard case .identifier(let name) = current.kind, !Self.keywords.contains(name) else {
            if isAtEnd { throw location.error("expected a name or a literal before \(closing)") }
            throw location.error("expected a name or a literal, found \(describe(current))")
        }
        let pathLocation = location
        var segments = [name]
        advance()
        while current.kind == .dot {
            advance()
            guard case .identifier(let segment) = current.kind else {
                throw location.error("expected a name after '.', found \(describe(current))")
            }
            segments.append(segment)
            advance()
        }
        return .path(PathSyntax(segments: segments, location: pathLocation))
    }

    private mutating func parseFilter() throws(TemplateError) -> Filter {
        guard case .identifier(let name) = current.kind else {
            throw location.error("expected a filter name after '|', found \(describe(current))")
        }
        let filterLocation = location
        advance()
        var arguments: [TemplateValue] = []
        if current.kind == .colon {
            repeat {
                advance()
                guard let argument = literalValue(current.kind) else {
                    throw location.error("expected a literal argument for filter '\(name)', found \(describe(current))")
                }
                arguments.append(argument)
                advance()
            } while current.kind == .comma
        }
        return try Filter(name: name, arguments: arguments, location: filterLocation)
    }

    private func literalValue(_ kind: ExpressionToken.Kind) -> TemplateValue? {
        switch kind {
        case .string(let text): .string(text)
        case .integer(let number): .int(number)
        case .double(let number): .double(number)
        case .identifier("true"): .bool(true)
        case .identifier("false"): .bool(false)
        default: nil
        }
    }

    // MARK: Conditions

    mutating func parseCondition() throws(TemplateError) -> Condition<ExpressionSyntax> {
        var condition = try parseConjunction()
        while current.kind == .identifier("or") {
            advance()
            condition = .or(condition, try parseConjunction())
        }
        return condition
    }

    private mutating func parseConjunction() throws(TemplateError) -> Condition<ExpressionSyntax> {
        var condition = try parseNegation()
        while current.kind == .identifier("and") {
            advance()
            condition = .and(condition, try parseNegation())
        }
        return condition
    }

    private mutating func parseNegation() throws(TemplateError) -> Condition<ExpressionSyntax> {
        if current.kind == .identifier("not") {
            advance()
            return .not(try parseNegation())
        }
        if current.kind == .leftParenthesis {
            let opening = location
            advance()
            let condition = try parseCondition()
            guard current.kind == .rightParenthesis else {
                throw location.error("expected ')' to close '(' at \(opening.lineAndColumn), found \(describe(current))")
            }
            advance()
            return condition
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(TemplateError) -> Condition<ExpressionSyntax> {
        let left = try parseExpression()
        guard case .comparison(let comparison) = current.kind else { return .value(left) }
        advance()
        return .comparison(left, comparison, try parseExpression())
    }

    // MARK: Tag arguments

    /// Reads a bare name such as a tag name, a loop variable or a block name.
    mutating func parseName(_ purpose: String) throws(TemplateError) -> String {
        guard case .identifier(let name) = current.kind, !Self.keywords.contains(name) else {
            throw location.error("expected \(purpose), found \(describe(current))")
        }
        advance()
        return name
    }

    mutating func parseStringLiteral(_ purpose: String) throws(TemplateError) -> String {
        guard case .string(let text) = current.kind else {
            throw location.error("expected \(purpose) as a quoted string, found \(describe(current))")
        }
        advance()
        return text
    }

    /// Reads `keyword` if it comes next.
    mutating func skipKeyword(_ keyword: String) -> Bool {
        guard current.kind == .identifier(keyword) else { return false }
        advance()
        return true
    }

    /// Reads one `name=expression` of `{% include … with … %}`; `expected` says what belongs here, for messages.
    mutating func parseBinding(_ expected: String) throws(TemplateError) -> IncludeSyntax.Binding {
        let nameLocation = location
        let name = try parseName(expected)
        guard current.kind == .equals else {
            throw location.error("expected '=' after '\(name)', found \(describe(current))")
        }
        advance()
        return IncludeSyntax.Binding(name: name, value: try parseBindingValue(), location: nameLocation)
    }

    /// A value, or `t "English"`: a text in the page's language, as `{% t %}` writes it, for an
    /// include's label (`{% include "partials/password-field.html" with label=t "Password" %}`).
    private mutating func parseBindingValue() throws(TemplateError) -> ExpressionSyntax {
        if current.kind == .identifier("t"), case .string(let english) = tokens[index + 1].kind {
            let textLocation = location
            advance()
            advance()
            return ExpressionSyntax(source: .translated(english, textLocation), filters: [])
        }
        return try parseExpression()
    }

    mutating func expectKeyword(_ keyword: String, after what: String) throws(TemplateError) {
        guard current.kind == .identifier(keyword) else {
            throw location.error("expected '\(keyword)' after \(what), found \(describe(current))")
        }
        advance()
    }

    /// Fails unless everything has been read; `expected` lists what could have continued instead.
    mutating func expectEnd(_ expected: String? = nil) throws(TemplateError) {
        guard isAtEnd else {
            let alternatives = expected.map { "\($0) or \(closing)" } ?? closing
            throw location.error("unexpected \(describe(current)); expected \(alternatives)")
        }
    }

    private func describe(_ token: ExpressionToken) -> String {
        switch token.kind {
        case .identifier(let name): "'\(name)'"
        case .string(let text): "string \"\(text)\""
        case .integer(let number): "'\(number)'"
        case .double(let number): "'\(number)'"
        case .dot: "'.'"
        case .pipe: "'|'"
        case .colon: "':'"
        case .comma: "','"
        case .equals: "'='"
        case .leftParenthesis: "'('"
        case .rightParenthesis: "')'"
        case .comparison(let comparison): "'\(comparison.rawValue)'"
        case .end: closing
        }
    }
}
