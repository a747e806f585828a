/// A problem found while compiling templates or looking one up, with its position in the source.
public struct TemplateError: Error, CustomStringConvertible, Equatable {
    /// The template's path relative to the views directory, e.g. `"errors/error.html"`.
    public let file: String
    /// 1-based line, or 0 when the problem concerns the whole file.
    public let line: Int
    /// 1-based column counted in characters, or 0 when the problem concerns the whole file.
    public let column: Int
    /// What was expected and what was found.
    public let message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `"layout.html:12:5: message"`, or `"layout.html: message"` without a position.
    public var description: String {
        line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
    }
}
