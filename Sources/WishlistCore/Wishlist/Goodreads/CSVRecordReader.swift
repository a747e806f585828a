import Foundation

/// Splits RFC 4180 text into records, remembering the line each starts on.
///
/// Works on UTF-8 bytes: every delimiter is ASCII, so splitting there never cuts a character,
/// and CRLF stays two bytes instead of one Character.
struct CSVRecordReader {
    struct Record {
        let line: Int
        let fields: [String]
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1

    init(_ text: String) {
        bytes = Array(text.utf8)
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if bytes.starts(with: byteOrderMark) { position = byteOrderMark.count }
    }

    /// The next record, passing over blank lines; nil at the end of the text.
    mutating func next() throws(GoodreadsCSVError) -> Record? {
        while consumeLineBreak() {}
        guard position < bytes.count else { return nil }
        let startLine = line
        var fields: [String] = []
        while true {
            fields.append(try readField())
            guard position < bytes.count, bytes[position] == Self.comma else { break }
            position += 1
        }
        _ = consumeLineBreak()
        return Record(line: startLine, fields: fields)
    }

    /// Reads one field, leaving `position` on the comma, line break or end that follows it.
    private mutating func readField() throws(GoodreadsCSVError) -> String {
        if position < bytes.count, bytes[position] == Self.quote {
            return try readQuotedField()
        }
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case Self.comma, Self.cr, Self.lf: return String(decoding: bytes[start..<position], as: UTF8.self)
            case Self.quote: throw .strayQuote(line: line)
            case 0: throw .nulByte(line: line)
            default: position += 1
            }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// Reads a field that opens with a quote. Its bytes are taken as they are, up to the closing
    /// quote, and copied only when a doubled quote must become one.
    private mutating func readQuotedField() throws(GoodreadsCSVError) -> String {
        let openingLine = line
        position += 1
        var unescaped: [UInt8] = []
        var runStart = position
        while position < bytes.count {
            switch bytes[position] {
            case Self.quote where position + 1 < bytes.count && bytes[position + 1] == Self.quote:
                unescaped.append(contentsOf: bytes[runStart...position])
                position += 2
                runStart = position
            case Self.quote:
                let run = bytes[runStart..<position]
                position += 1
                guard position == bytes.count || isFieldEnd(bytes[position]) else { throw .textAfterClosingQuote(line: line) }
                if unescaped.isEmpty { return String(decoding: run, as: UTF8.self) }
                return String(decoding: unescaped + run, as: UTF8.self)
            case 0:
                throw .nulByte(line: line)
            default:
                if !consumeLineBreak() { position += 1 }
            }
        }
        throw .unclosedQuote(line: openingLine)
    }

    private func isFieldEnd(_ byte: UInt8) -> Bool {
        byte == Self.comma || byte == Self.cr || byte == Self.lf
    }

    /// Steps over a CRLF, LF or lone CR and counts the line; false when not at one.
    private mutating func consumeLineBreak() -> Bool {
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case Self.lf:
            position += 1
        case Self.cr:
            position += 1
            if position < bytes.count, bytes[position] == Self.lf { position += 1 }
        default:
            return false
        }
        line += 1
        return true
    }
}
