/// One piece of a template file: literal text, a `{{ }}` output or a `{% %}` tag.
/// Comments (`{# #}`) are dropped by the lexer.
enum TemplateToken {
    case text(Range<Int>, SourceLocation)
    /// The byte range between `{{` and `}}`; the location is that of `{{`.
    case output(Range<Int>, SourceLocation)
    /// The byte range between `{%` and `%}`; the location is that of `{%`.
    case tag(Range<Int>, SourceLocation)
}

/// Splits a template file into text, outputs and tags.
///
/// A delimiter must close before the next `{{` or `{%` opens, so a forgotten `}}`
/// is reported where it was forgotten rather than at the next tag. As a consequence,
/// string literals inside delimiters cannot contain `{{`, `{%`, `}}` or `%}`.
struct Lexer {
    private let file: SourceFile
    private var bytes: [UInt8] { file.bytes }

    init(file: SourceFile) {
        self.file = file
    }

    func tokenize() throws(TemplateError) -> [TemplateToken] {
        var tokens: [TemplateToken] = []
        var textStart = 0
        while let opener = nextOpener(from: textStart) {
            if opener.offset > textStart {
                tokens.append(.text(textStart..<opener.offset, location(textStart)))
            }
            let contentStart = opener.offset + 2
            let contentEnd = try closingOffset(of: opener.delimiter, at: opener.offset)
            switch opener.delimiter {
            case .output: tokens.append(.output(contentStart..<contentEnd, location(opener.offset)))
            case .tag: tokens.append(.tag(contentStart..<contentEnd, location(opener.offset)))
            case .comment: break
            }
            textStart = contentEnd + 2
        }
        if textStart < bytes.count {
            tokens.append(.text(textStart..<bytes.count, location(textStart)))
        }
        return tokens
    }

    private enum Delimiter {
        case output, tag, comment

        var opening: String {
            switch self {
            case .output: "{{"
            case .tag: "{%"
            case .comment: "{#"
            }
        }

        var closingByte: UInt8 {
            switch self {
            case .output: UInt8(ascii: "}")
            case .tag: UInt8(ascii: "%")
            case .comment: UInt8(ascii: "#")
            }
        }
    }

    private func location(_ offset: Int) -> SourceLocation {
        SourceLocation(file: file, offset: offset)
    }

    private func delimiter(at offset: Int) -> Delimiter? {
        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "{") else { return nil }
        switch bytes[offset + 1] {
        case UInt8(ascii: "{"): return .output
        case UInt8(ascii: "%"): return .tag
        case UInt8(ascii: "#"): return .comment
        default: return nil
        }
    }

    private func nextOpener(from start: Int) -> (offset: Int, delimiter: Delimiter)? {
        var offset = start
        while offset < bytes.count {
            if let delimiter = delimiter(at: offset) { return (offset, delimiter) }
            offset += 1
        }
        return nil
    }

    /// The offset of the closing delimiter's first byte.
    private func closingOffset(of delimiter: Delimiter, at openerOffset: Int) throws(TemplateError) -> Int {
        var offset = openerOffset + 2
        while offset + 1 < bytes.count {
            if bytes[offset] == delimiter.closingByte, bytes[offset + 1] == UInt8(ascii: "}") {
                return offset
            }
            // Comments may contain anything; outputs and tags must close before the next one opens.
            if delimiter != .comment, let nested = self.delimiter(at: offset), nested != .comment {
                break
            }
            offset += 1
        }
        throw unclosedError(delimiter, at: openerOffset)
    }

    private func unclosedError(_ delimiter: Delimiter, at openerOffset: Int) -> TemplateError {
        let closing = String(decoding: [delimiter.closingByte, UInt8(ascii: "}")], as: UTF8.self)
        var opened = "'\(delimiter.opening)'"
        if delimiter == .tag, let name = firstWord(after: openerOffset + 2) {
            opened = "'\(name)'"
        }
        return location(openerOffset).error("expected '\(closing)' to close \(opened)")
    }

    private func firstWord(after start: Int) -> String? {
        var offset = start
        while offset < bytes.count, bytes[offset].isASCIIWhitespace { offset += 1 }
        let wordStart = offset
        while offset < bytes.count, bytes[offset].isIdentifierByte { offset += 1 }
        return offset > wordStart ? String(decoding: bytes[wordStart..<offset], as: UTF8.self) : nil
    }
}
