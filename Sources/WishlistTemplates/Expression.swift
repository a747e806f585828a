/// A value followed by filters, e.g. `book.title | truncate: 80`.
///
/// `Source` is ``OperandSyntax`` after parsing and ``ValueSource`` once the compiler
/// has resolved names against the loops in scope.
struct Expression<Source: Sendable>: Sendable {
    let source: Source
    let filters: [Filter]
}

/// A dotted name as written, e.g. `book.author.name`, split at parse time.
struct PathSyntax: Sendable {
    let segments: [String]
    let location: SourceLocation
}

/// What an expression starts with, before names are resolved.
enum OperandSyntax: Sendable {
    case path(PathSyntax)
    case literal(TemplateValue)
    /// `t "English"` as a binding's value: the text in the language being compiled.
    case translated(String, SourceLocation)
}

typealias ExpressionSyntax = Expression<OperandSyntax>
typealias CompiledExpression = Expression<ValueSource>

/// Where a compiled expression's value comes from at render time.
enum ValueSource: Sendable {
    case literal(TemplateValue)
    /// A path into the root context dictionary.
    case context([String])
    /// The item of the loop at `depth` (0 = outermost), then a path into it.
    case loopItem(depth: Int, path: [String])
    case loopProperty(depth: Int, LoopProperty)
}

extension CompiledExpression {
    /// The same value with `more` filters applied after its own.
    func appending(filters more: [Filter]) -> CompiledExpression {
        more.isEmpty ? self : CompiledExpression(source: source, filters: filters + more)
    }
}

extension ValueSource {
    /// The source of the value at `path` inside this one's value, resolved at compile time.
    func appending(path more: [String]) -> ValueSource {
        switch self {
        case .literal(let value): .literal(value.lookup(more))
        case .context(let path): .context(path + more)
        case .loopItem(let depth, let path): .loopItem(depth: depth, path: path + more)
        // Loop properties are numbers and booleans, and a path through those is null.
        case .loopProperty: .literal(.null)
        }
    }
}

/// The properties of `loop` inside `{% for %}`.
enum LoopProperty: String, Sendable, CaseIterable {
    case index, index0, first, last, length
}

/// A condition of `{% if %}` / `{% elif %}`, generic over its operands so the parsed
/// and the compiled form share one shape.
indirect enum Condition<Operand: Sendable>: Sendable {
    case value(Operand)
    case not(Condition)
    case and(Condition, Condition)
    case or(Condition, Condition)
    case comparison(Operand, ComparisonOperator, Operand)

    func map<Result>(_ transform: (Operand) throws(TemplateError) -> Result) throws(TemplateError) -> Condition<Result> {
        switch self {
        case .value(let operand): .value(try transform(operand))
        case .not(let condition): .not(try condition.map(transform))
        case .and(let left, let right): .and(try left.map(transform), try right.map(transform))
        case .or(let left, let right): .or(try left.map(transform), try right.map(transform))
        case .comparison(let left, let comparison, let right): .comparison(try transform(left), comparison, try transform(right))
        }
    }
}

enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", lessThan = "<", lessThanOrEqual = "<=", greaterThan = ">", greaterThanOrEqual = ">="

    /// Numbers compare numerically (an int equals the same double), strings and dates by
    /// their natural order, other values only by equality. Values that cannot be
    /// ordered make every ordering comparison false.
    func evaluate(_ left: TemplateValue, _ right: TemplateValue) -> Bool {
        switch self {
        case .equal: Self.areEqual(left, right)
        case .notEqual: !Self.areEqual(left, right)
        case .lessThan: Self.order(left, right).map { $0 < 0 } ?? false
        case .lessThanOrEqual: Self.order(left, right).map { $0 <= 0 } ?? false
        case .greaterThan: Self.order(left, right).map { $0 > 0 } ?? false
        case .greaterThanOrEqual: Self.order(left, right).map { $0 >= 0 } ?? false
        }
    }

    private static func areEqual(_ left: TemplateValue, _ right: TemplateValue) -> Bool {
        if let order = numericOrder(left, right) { return order == 0 }
        return left == right
    }

    /// Negative, zero or positive like a three-way comparison; nil when the values have no order.
    private static func order(_ left: TemplateValue, _ right: TemplateValue) -> Int? {
        if let order = numericOrder(left, right) { return order }
        switch (left, right) {
        case (.string(let a), .string(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.date(let a), .date(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        default: return nil
        }
    }

    private static func numericOrder(_ left: TemplateValue, _ right: TemplateValue) -> Int? {
        switch (left, right) {
        case (.int(let a), .int(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.int(let a), .double(let b)): return threeWay(Double(a), b)
        case (.double(let a), .int(let b)): return threeWay(a, Double(b))
        case (.double(let a), .double(let b)): return threeWay(a, b)
        default: return nil
        }
    }

    private static func threeWay(_ a: Double, _ b: Double) -> Int? {
        if a < b { return -1 }
        if a > b { return 1 }
        return a == b ? 0 : nil
    }
}
