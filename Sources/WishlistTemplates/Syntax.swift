/// One template file as parsed, before includes, inheritance and names are resolved.
struct ParsedTemplate: Sendable {
    /// The `{% extends %}` target, if the file has one.
    let parent: TemplateReference?
    let nodes: [SyntaxNode]
    /// Every block in the file, at any depth, by name.
    let blocks: [String: BlockSyntax]
}

/// The name of another template as written in `{% include %}` or `{% extends %}`.
struct TemplateReference: Sendable {
    let name: String
    let location: SourceLocation
}

indirect enum SyntaxNode: Sendable {
    /// Literal text: a byte range of the file.
    case text(Range<Int>, SourceLocation)
    case output(ExpressionSyntax, SourceLocation)
    case conditional(ConditionalSyntax)
    case loop(LoopSyntax)
    case include(IncludeSyntax)
    case block(BlockSyntax)
    case translation(TranslationSyntax)

    var location: SourceLocation {
        switch self {
        case .text(_, let location), .output(_, let location): location
        case .conditional(let conditional): conditional.location
        case .loop(let loop): loop.location
        case .include(let include): include.template.location
        case .block(let block): block.location
        case .translation(let translation): translation.location
        }
    }
}

/// `{% include "name" %}`, optionally `with` bindings: `{% include "partials/cover.html" with book=item lazy=true %}`.
struct IncludeSyntax: Sendable {
    /// One `name=value`: inside the included template, `name` stands for `value` as the include site sees it.
    struct Binding: Sendable {
        let name: String
        let value: ExpressionSyntax
        let location: SourceLocation
    }

    let template: TemplateReference
    let bindings: [Binding]
}

struct ConditionalSyntax: Sendable {
    struct Branch: Sendable {
        let condition: Condition<ExpressionSyntax>
        let body: [SyntaxNode]
    }

    let branches: [Branch]
    let otherwise: [SyntaxNode]
    let location: SourceLocation
}

struct LoopSyntax: Sendable {
    let variable: String
    let sequence: ExpressionSyntax
    let body: [SyntaxNode]
    let empty: [SyntaxNode]
    let location: SourceLocation
}

struct BlockSyntax: Sendable {
    let name: String
    let body: [SyntaxNode]
    let location: SourceLocation
}

/// `{% t "Signed in as {name}" name=user.name %}`: English text to translate, its named placeholders'
/// values and, for a count, its English plural (`plural "{count} books" count=n`) or a context
/// that tells two uses of the same words apart (`context "nav"`), as gettext's msgctxt.
struct TranslationSyntax: Sendable {
    let english: String
    let englishPlural: String?
    let context: String?
    let values: [IncludeSyntax.Binding]
    let location: SourceLocation
}
