/// A token inside `{{ }}` or `{% %}`.
struct ExpressionToken {
    enum Kind: Equatable {
        case identifier(String)
        case string(String)
        case integer(Int)
        case double(Double)
        case dot, pipe, colon, comma, leftParenthesis, rightParenthesis
        /// A single `=`, as in `{% include "…" with book=item %}`; `==` is a comparison.
        case equals
        case comparison(ComparisonOperator)
        /// The closing `}}` or `%}`.
        case end
    }

    let kind: Kind
    let offset: Int
}

/// Splits the inside of a `{{ }}` or `{% %}` into tokens.
struct ExpressionTokenizer {
    private let file: SourceFile
    private let range: Range<Int>
    private var offset: Int
    private var bytes: [UInt8] { file.bytes }

    init(file: SourceFile, range: Range<Int>) {
        self.file = file
        self.range = range
        self.offset = range.lowerBound
    }

    mutating func tokenize() throws(TemplateError) -> [ExpressionToken] {
        var tokens: [ExpressionToken] = []
        while true {
            skipWhitespace()
            guard offset < range.upperBound else { break }
            tokens.append(try nextToken())
        }
        tokens.append(ExpressionToken(kind: .end, offset: range.upperBound))
        return tokens
    }

    private mutating func skipWhitespace() {
        while offset < range.upperBound, bytes[offset].isASCIIWhitespace { offset += 1 }
    }

    private func peek(_ distance: Int = 0) -> UInt8? {
        offset + distance < range.upperBound ? bytes[offset + distance] : nil
    }

    private mutating func nextToken() throws(TemplateError) -> ExpressionToken {
        let start = offset
        let byte = bytes[offset]
        if byte.isASCIILetter || byte == UInt8(ascii: "_") {
            return ExpressionToken(kind: .identifier(readIdentifier()), offset: start)
        }
        if byte.isASCIIDigit || (byte == UInt8(ascii: "-") && peek(1)?.isASCIIDigit == true) {
            return ExpressionToken(kind: try readNumber(), offset: start)
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            return ExpressionToken(kind: .string(try readString()), offset: start)
        }
        if let symbol = readSymbol() {
            return ExpressionToken(kind: symbol, offset: start)
        }
        let character = String(decoding: bytes[offset..<min(offset + 4, range.upperBound)], as: UTF8.self).first ?? "?"
        throw SourceLocation(file: file, offset: start).error("unexpected character '\(character)' in expression")
    }

    private mutating func readIdentifier() -> String {
        let start = offset
        while let byte = peek(), byte.isIdentifierByte { offset += 1 }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func readNumber() throws(TemplateError) -> ExpressionToken.Kind {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        while let byte = peek(), byte.isASCIIDigit { offset += 1 }
        var isDouble = false
        if peek() == UInt8(ascii: "."), peek(1)?.isASCIIDigit == true {
            isDouble = true
            offset += 1
            while let byte = peek(), byte.isASCIIDigit { offset += 1 }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isDouble, let value = Double(text) { return .double(value) }
        if !isDouble, let value = Int(text) { return .integer(value) }
        throw SourceLocation(file: file, offset: start).error("number '\(text)' is out of range")
    }

    /// Reads a quoted literal; `\"`, `\'` and `\\` stand for the escaped character.
    private mutating func readString() throws(TemplateError) -> String {
        let start = offset
        let quote = bytes[offset]
        offset += 1
        var content: [UInt8] = []
        while let byte = peek() {
            offset += 1
            if byte == quote { return String(decoding: content, as: UTF8.self) }
            if byte == UInt8(ascii: "\\"), let escaped = peek() {
                offset += 1
                content.append(escaped)
            } else {
                content.append(byte)
            }
        }
        throw SourceLocation(file: file, offset: start).error("unterminated string literal: expected a closing \(quote == UInt8(ascii: "\"") ? "'\"'" : "\"'\"")")
    }

    private mutating func readSymbol() -> ExpressionToken.Kind? {
        let twoCharacterOperators: [(String, ComparisonOperator)] = [
            ("==", .equal), ("!=", .notEqual), ("<=", .lessThanOrEqual), (">=", .greaterThanOrEqual),
        ]
        for (text, comparison) in twoCharacterOperators {
            let utf8 = Array(text.utf8)
            if peek() == utf8[0], peek(1) == utf8[1] {
                offset += 2
                return .comparison(comparison)
            }
        }
        let kind: ExpressionToken.Kind? = switch bytes[offset] {
        case UInt8(ascii: "."): .dot
        case UInt8(ascii: "|"): .pipe
        case UInt8(ascii: ":"): .colon
        case UInt8(ascii: ","): .comma
        case UInt8(ascii: "("): .leftParenthesis
        case UInt8(ascii: ")"): .rightParenthesis
        case UInt8(ascii: "<"): .comparison(.lessThan)
        case UInt8(ascii: ">"): .comparison(.greaterThan)
        case UInt8(ascii: "="): .equals
        default: nil
        }
        if kind != nil { offset += 1 }
        return kind
    }
}
