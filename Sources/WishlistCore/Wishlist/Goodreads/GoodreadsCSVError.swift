import Foundation

/// Why a file could not be read as a Goodreads export, as a sentence for the person who uploaded it.
public struct GoodreadsCSVError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public var description: String { message }
}

package extension GoodreadsCSVError {
    private static let exportHint = "export your books from Goodreads (My Books → Import and export) and upload that file."

    static let emptyFile = GoodreadsCSVError(message: "This file is empty; " + exportHint)
    static let noTitleColumn = GoodreadsCSVError(message: "This file has no Title column; " + exportHint)

    static func tooManyRows(_ maximum: Int) -> GoodreadsCSVError {
        GoodreadsCSVError(message: "This file has more than \(maximum.grouped) rows; split it and upload the parts.")
    }

    static func tooManyFields(line: Int, found: Int, expected: Int) -> GoodreadsCSVError {
        GoodreadsCSVError(message: "Line \(line): this row has \(found) fields but the header has \(expected); a value with a comma in it may be missing its quotation marks.")
    }

    static func unclosedQuote(line: Int) -> GoodreadsCSVError {
        GoodreadsCSVError(message: "Line \(line): a quoted field is never closed.")
    }

    static func strayQuote(line: Int) -> GoodreadsCSVError {
        GoodreadsCSVError(message: "Line \(line): a quotation mark appears in the middle of a field that does not start with one.")
    }

    static func textAfterClosingQuote(line: Int) -> GoodreadsCSVError {
        GoodreadsCSVError(message: "Line \(line): a quoted field has more text after its closing quotation mark.")
    }

    static func nulByte(line: Int) -> GoodreadsCSVError {
        GoodreadsCSVError(message: "Line \(line): the file contains a NUL byte, so it is not a CSV text file; " + exportHint)
    }

    static func controlCharacter(line: Int, column: String, _ scalar: Unicode.Scalar) -> GoodreadsCSVError {
        let code = String(format: "U+%04X", scalar.value)
        return GoodreadsCSVError(message: "Line \(line): the \(column) field contains a control character (\(code)), which can’t be stored; remove it and upload the file again.")
    }

    static func tooLong(line: Int, column: String, length: Int, maximum: Int) -> GoodreadsCSVError {
        GoodreadsCSVError(message: "Line \(line): the \(column) field has \(length.grouped) characters, more than the \(maximum.grouped) allowed; shorten it and upload the file again.")
    }

    static func readInFuture(line: Int, _ date: FinishedDate) -> GoodreadsCSVError {
        GoodreadsCSVError(message: "Line \(line): the Date Read, \(GoodreadsDate.format(date)), is in the future; correct it and upload the file again.")
    }

    static func addedInFuture(line: Int, _ date: Date) -> GoodreadsCSVError {
        GoodreadsCSVError(message: "Line \(line): the Date Added, \(GoodreadsDate.format(date)), is in the future; correct it and upload the file again.")
    }
}
