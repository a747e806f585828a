/// The text of one template file, kept so errors can report line and column.
final class SourceFile: Sendable {
    let name: String
    let bytes: [UInt8]
    private let lineStarts: [Int]

    init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        self.lineStarts = starts
    }

    /// 1-based line and column of a byte offset; columns count characters, as editors do.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        let lineIndex = (lineStarts.lastIndex { $0 <= offset }) ?? 0
        let lineStart = lineStarts[lineIndex]
        let prefix = String(decoding: bytes[lineStart..<offset], as: UTF8.self)
        return (lineIndex + 1, prefix.count + 1)
    }
}

/// A position in a template file.
struct SourceLocation: Sendable {
    let file: SourceFile
    let offset: Int

    /// `"3:5"`, for messages that point at a second place such as where a tag was opened.
    var lineAndColumn: String {
        let position = file.lineAndColumn(of: offset)
        return "\(position.line):\(position.column)"
    }

    func error(_ message: String) -> TemplateError {
        let position = file.lineAndColumn(of: offset)
        return TemplateError(file: file.name, line: position.line, column: position.column, message: message)
    }
}
