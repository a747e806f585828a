import NIOCore
import Synchronization
import WishlistLanguages

/// A node of a compiled template: everything static is resolved, so rendering only
/// evaluates expressions and copies bytes.
enum RenderNode: Sendable {
    /// Literal markup, already UTF-8 and written as is.
    case text([UInt8])
    case output(CompiledExpression, OutputEscaping)
    case conditional(ConditionalNode)
    case loop(LoopNode)
    /// A counted `{% t %}`: the form its language's plural rule gives the count.
    case plural(PluralNode)
}

struct PluralNode: Sendable {
    let count: CompiledExpression
    /// Whose plural rule picks the form: the page's language, or English for a message its
    /// catalog lacks.
    let language: LanguageData
    /// In the order `LanguageData.pluralIndex(of:)` counts.
    let forms: [[RenderNode]]
}

struct ConditionalNode: Sendable {
    struct Branch: Sendable {
        let condition: Condition<CompiledExpression>
        let body: [RenderNode]
    }

    let branches: [Branch]
    let otherwise: [RenderNode]
}

struct LoopNode: Sendable {
    let sequence: CompiledExpression
    let body: [RenderNode]
    let empty: [RenderNode]
}

/// A template with its includes and inheritance resolved, ready to render.
final class CompiledTemplate: Sendable {
    let nodes: [RenderNode]
    /// The size of the latest rendering, so the next buffer is allocated once at the right size.
    private let lastRenderedSize: Atomic<Int>

    init(nodes: [RenderNode], staticByteCount: Int) {
        self.nodes = nodes
        self.lastRenderedSize = Atomic(staticByteCount)
    }

    var expectedSize: Int {
        lastRenderedSize.load(ordering: .relaxed)
    }

    /// Returns where the context's slot values stood.
    @discardableResult
    func render(_ context: TemplateValue, into buffer: inout ByteBuffer) -> [SlottedHTML<String>.RenderedHole] {
        let start = buffer.writerIndex
        var renderer = Renderer(context: context)
        renderer.render(nodes, into: &buffer)
        lastRenderedSize.store(buffer.writerIndex - start, ordering: .relaxed)
        return renderer.holes
    }
}
