import Foundation
import WishlistCore
import WishlistLanguages

extension GoodreadsCSVError {
    /// The sentence beside the upload field, in the reader's language: the line and counts are
    /// values, and a column keeps the name the file's header gives it.
    func sentence(in translations: Translations) -> String {
        let number = { (value: Int) in translations.language.formatted(value) }
        switch self {
        case .emptyFile:
            return translations.text("This file is empty; export your books from Goodreads (My Books → Import and export) and upload that file.")
        case .noTitleColumn:
            return translations.text("This file has no Title column; export your books from Goodreads (My Books → Import and export) and upload that file.")
        case .tooManyRows(let maximum):
            return translations.text("This file has more than {maximum} rows; split it and upload the parts.", values: ["maximum": number(maximum)])
        case .tooManyFields(let line, let found, let expected):
            return translations.text(
                "Line {line}: this row has {found} fields but the header has {expected}; a value with a comma in it may be missing its quotation marks.",
                values: ["line": String(line), "found": number(found), "expected": number(expected)]
            )
        case .unclosedQuote(let line):
            return translations.text("Line {line}: a quoted field is never closed.", values: ["line": String(line)])
        case .strayQuote(let line):
            return translations.text("Line {line}: a quotation mark appears in the middle of a field that does not start with one.", values: ["line": String(line)])
        case .textAfterClosingQuote(let line):
            return translations.text("Line {line}: a quoted field has more text after its closing quotation mark.", values: ["line": String(line)])
        case .nulByte(let line):
            return translations.text(
                "Line {line}: the file contains a NUL byte, so it is not a CSV text file; export your books from Goodreads (My Books → Import and export) and upload that file.",
                values: ["line": String(line)]
            )
        case .controlCharacter(let line, let column, let scalar):
            return translations.text(
                "Line {line}: the {column} field contains a control character ({code}), which can’t be stored; remove it and upload the file again.",
                values: ["line": String(line), "column": column, "code": String(format: "U+%04X", scalar.value)]
            )
        case .tooLong(let line, let column, let length, let maximum):
            return translations.text(
                "Line {line}: the {column} field has {length} characters, more than the {maximum} allowed; shorten it and upload the file again.",
                values: ["line": String(line), "column": column, "length": number(length), "maximum": number(maximum)]
            )
        case .readInFuture(let line, let written):
            return translations.text(
                "Line {line}: the Date Read, {date}, is in the future; correct it and upload the file again.", values: ["line": String(line), "date": written]
            )
        case .addedInFuture(let line, let written):
            return translations.text(
                "Line {line}: the Date Added, {date}, is in the future; correct it and upload the file again.", values: ["line": String(line), "date": written]
            )
        }
    }
}

extension GoodreadsImport.Skip.Reason {
    /// The phrase after a left-out row's line and title, in the reader's language.
    func phrase(in translations: Translations) -> String {
        switch self {
        case .noTitle: translations.text("no title")
        case .noShelf: translations.text("on no shelf, neither “to-read” nor “read”")
        case .otherShelf(let shelf): translations.text("on the “{shelf}” shelf, neither “to-read” nor “read”", values: ["shelf": shelf])
        }
    }
}
