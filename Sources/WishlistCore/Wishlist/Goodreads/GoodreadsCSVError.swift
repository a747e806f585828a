import Foundation

/// Why a file could not be read as a Goodreads export, with the values its sentence names (the
/// line, the column as the file's header names it, the numbers): the web layer words it for the
/// person who uploaded the file, in her language (issue 53).
public enum GoodreadsCSVError: Error, Equatable, Sendable {
    case emptyFile
    case noTitleColumn
    /// More rows than the import takes (`maximum`).
    case tooManyRows(Int)
    case tooManyFields(line: Int, found: Int, expected: Int)
    case unclosedQuote(line: Int)
    case strayQuote(line: Int)
    case textAfterClosingQuote(line: Int)
    case nulByte(line: Int)
    case controlCharacter(line: Int, column: String, Unicode.Scalar)
    case tooLong(line: Int, column: String, length: Int, maximum: Int)
    /// A Date Read after today, as the file writes it (`2099/01/01`).
    case readInFuture(line: Int, written: String)
    /// A Date Added after today, as the file writes it.
    case addedInFuture(line: Int, written: String)
}
