import NIOCore

/// Walks a compiled template for one context, writing into a buffer.
struct Renderer {
    private let context: TemplateValue
    /// The loops being iterated, outermost first; compiled names index into it by depth.
    private var loops: [LoopFrame] = []
    /// Where slot values stood, in output order.
    private(set) var holes: [SlottedHTML<String>.RenderedHole] = []

    init(context: TemplateValue) {
        self.context = context
        loops.reserveCapacity(4)
    }

    mutating func render(_ nodes: [RenderNode], into buffer: inout ByteBuffer) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                buffer.writeBytes(bytes)
            case .output(let expression, let escaping):
                // Resolved once, for the slot test and the output both: a row's every output is a look-up.
                let value = resolve(expression.source)
                if case .slot(let name) = value {
                    holes.append(.init(offset: buffer.writerIndex, name: name, escaping: escaping))
                } else {
                    buffer.writeOutput(filtered(value, by: expression.filters), escaping: escaping)
                }
            case .conditional(let conditional):
                let branch = conditional.branches.first { isTrue($0.condition) }
                render(branch?.body ?? conditional.otherwise, into: &buffer)
            case .loop(let loop):
                renderLoop(loop, into: &buffer)
            case .plural(let plural):
                // A count that is not a whole number (a slot, nothing) takes the last form, `other`.
                let form = if case .int(let count) = evaluate(plural.count) { plural.language.pluralIndex(of: count) } else { plural.forms.count - 1 }
                render(plural.forms[form], into: &buffer)
            }
        }
    }

    private mutating func renderLoop(_ loop: LoopNode, into buffer: inout ByteBuffer) {
        guard case .array(let items) = evaluate(loop.sequence), !items.isEmpty else {
            render(loop.empty, into: &buffer)
            return
        }
        loops.append(LoopFrame(items: items))
        let depth = loops.count - 1
        for index in items.indices {
            loops[depth].index = index
            render(loop.body, into: &buffer)
        }
        loops.removeLast()
    }

    private func evaluate(_ expression: CompiledExpression) -> TemplateValue {
        filtered(resolve(expression.source), by: expression.filters)
    }

    private func filtered(_ value: TemplateValue, by filters: [Filter]) -> TemplateValue {
        var value = value
        for filter in filters {
            value = filter.apply(to: value)
        }
        return value
    }

    private func resolve(_ source: ValueSource) -> TemplateValue {
        switch source {
        case .literal(let value): value
        case .context(let path): context.lookup(path)
        case .loopItem(let depth, let path): loops[depth].item.lookup(path)
        case .loopProperty(let depth, let property): loops[depth].value(of: property)
        }
    }

    private func isTrue(_ condition: Condition<CompiledExpression>) -> Bool {
        switch condition {
        case .value(let expression): evaluate(expression).isTruthy
        case .not(let condition): !isTrue(condition)
        case .and(let left, let right): isTrue(left) && isTrue(right)
        case .or(let left, let right): isTrue(left) || isTrue(right)
        case .comparison(let left, let comparison, let right): comparison.evaluate(evaluate(left), evaluate(right))
        }
    }
}

/// One loop's position; the item is read from the array rather than copied per iteration.
private struct LoopFrame {
    let items: [TemplateValue]
    var index = 0

    var item: TemplateValue { items[index] }

    func value(of property: LoopProperty) -> TemplateValue {
        switch property {
        case .index: .int(index + 1)
        case .index0: .int(index)
        case .first: .bool(index == 0)
        case .last: .bool(index == items.count - 1)
        case .length: .int(items.count)
        }
    }
}
