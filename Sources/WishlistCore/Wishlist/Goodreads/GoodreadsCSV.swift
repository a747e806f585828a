import Foundation

/// Writes the wishlist as a Goodreads library export and reads such exports back (RFC 4180, UTF-8):
/// reading here, writing in `GoodreadsCSV+Export.swift`, the pieces beside them in this folder.
public enum GoodreadsCSV {
    /// Longest title, author, publisher and notes an import accepts. Notes have the note form's
    /// limit and the publisher that of a form field; title and author, which no form edits, are
    /// generous. A longer value refuses the file rather than being cut short, so nothing is lost
    /// without the user seeing it.
    static let maximumTitleLength = 500
    static let maximumAuthorLength = 300
    static let maximumPublisherLength = 200
    static let maximumNotesLength = WishlistStore.noteMaximumLength
    static let maximumReviewLength = ReadingInput.reviewMaximumLength

    /// Parses a Goodreads export (or one of ours) uploaded at `now`. Rows on the "to-read" and
    /// "read" shelves (every row is to-read when there is no Exclusive Shelf column) become
    /// `books`; rows on other shelves or without a title go to `skipped`.
    ///
    /// Columns are found by header name (case-insensitive, trimmed); only Title is required.
    /// Values are trimmed, except notes; ISBNs come back as bare digits (and X) or "". Rows
    /// shorter than the header are padded with empty fields. Throws `GoodreadsCSVError` when the
    /// file as a whole cannot be read: not valid CSV, empty, no Title column, a NUL byte, a row
    /// longer than the header, or more than `maxRows` data rows (blank lines do not count); and
    /// when a row breaks the rules of form input: a control character in a column the import
    /// reads, or a to-read book whose title, author, publisher or notes is over 500, 300, 200 or
    /// 2,000 characters, or whose Date Added is after tomorrow.
    public static func parse(_ text: String, now: Date, maxRows: Int = 50_000) throws -> GoodreadsImport {
        var reader = CSVRecordReader(text)
        guard let headerRecord = try reader.next() else { throw GoodreadsCSVError.emptyFile }
        let columns = try ImportColumns(header: headerRecord.fields)
        var result = GoodreadsImport(books: [], skipped: [])
        var rowCount = 0
        while let record = try reader.next() {
            rowCount += 1
            guard rowCount <= maxRows else { throw GoodreadsCSVError.tooManyRows(maxRows) }
            guard record.fields.count <= headerRecord.fields.count else {
                throw GoodreadsCSVError.tooManyFields(line: record.line, found: record.fields.count, expected: headerRecord.fields.count)
            }
            switch try columns.read(record, now: now) {
            case .book(let book): result.books.append(book)
            case .skip(let skip): result.skipped.append(skip)
            }
        }
        return result
    }
}
