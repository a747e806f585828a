import CivilTime
import Foundation

/// The two Goodreads shelves the app reads and writes: the wishlist is "to-read", the books
/// read are "read".
public enum GoodreadsShelf: String, Sendable {
    case toRead = "to-read"
    case read
}

/// One wishlist item, or one book read, as exported.
public struct GoodreadsExportRow: Sendable, Equatable {
    public var title: String
    public var author: String
    public var isbn10: String
    public var isbn13: String
    public var publisher: String
    public var dateAdded: Date
    public var notes: String
    public var shelf: GoodreadsShelf
    /// 1 to 5, or nil (written as Goodreads' 0).
    public var rating: Int?
    public var dateRead: FinishedDate?
    public var review: String

    public init(
        title: String, author: String, isbn10: String, isbn13: String, publisher: String, dateAdded: Date, notes: String,
        shelf: GoodreadsShelf = .toRead, rating: Int? = nil, dateRead: FinishedDate? = nil, review: String = ""
    ) {
        self.title = title
        self.author = author
        self.isbn10 = isbn10
        self.isbn13 = isbn13
        self.publisher = publisher
        self.dateAdded = dateAdded
        self.notes = notes
        self.shelf = shelf
        self.rating = rating
        self.dateRead = dateRead
        self.review = review
    }
}

/// One book of the "to-read" or "read" shelf, from a Goodreads export.
public struct GoodreadsImportedBook: Sendable, Equatable {
    public var shelf: GoodreadsShelf = .toRead
    public var title: String
    public var author: String
    /// Ten characters, or "" when the file had no usable ISBN.
    public var isbn10: String
    /// Thirteen digits, or "" when the file had no usable ISBN13.
    public var isbn13: String
    public var publisher: String
    /// Midnight UTC of the day added; nil when the file had no readable date.
    public var dateAdded: Date?
    public var notes: String
    /// My Rating, 1 to 5; nil for Goodreads' 0 (not rated).
    public var rating: Int? = nil
    public var dateRead: FinishedDate? = nil
    /// My Review, as plain text (Goodreads' `<br/>` line breaks become line breaks).
    public var review: String = ""
    /// The 1-based line of the file on which the book's record starts.
    public var line: Int
}

/// What an import found: the books to add and the rows left out.
public struct GoodreadsImport: Sendable, Equatable {
    public var books: [GoodreadsImportedBook]
    /// Rows not imported, with why.
    public var skipped: [Skip]

    public init(books: [GoodreadsImportedBook], skipped: [Skip]) {
        self.books = books
        self.skipped = skipped
    }

    /// A row left out of an import.
    public struct Skip: Sendable, Equatable {
        /// The 1-based line on which the row starts.
        public var line: Int
        /// The row's title, shortened to 100 characters for display.
        public var title: String
        /// A phrase to show after the title, such as "no title".
        public var reason: String

        public init(line: Int, title: String, reason: String) {
            self.line = line
            self.title = title
            self.reason = reason
        }
    }
}

/// Why a file could not be read as a Goodreads export, as a sentence for the person who uploaded it.
public struct GoodreadsCSVError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public var description: String { message }
}

/// Writes the wishlist as a Goodreads library export and reads such exports back (RFC 4180, UTF-8).
public enum GoodreadsCSV {
    /// The Goodreads export columns, in Goodreads' order.
    public static let header: [String] = exportColumns.map(\.name)

    /// Longest title, author, publisher and notes an import accepts. Notes have the note form's
    /// limit and the publisher that of a form field; title and author, which no form edits, are
    /// generous. A longer value refuses the file rather than being cut short, so nothing is lost
    /// without the user seeing it.
    static let maximumTitleLength = 500
    static let maximumAuthorLength = 300
    static let maximumPublisherLength = 200
    static let maximumNotesLength = WishlistStore.noteMaximumLength
    static let maximumReviewLength = ReadingInput.reviewMaximumLength

    /// Header + one row per item or book read; CRLF line ends; fields quoted when they contain ,
    /// " CR or LF (quotes doubled); "to-read" or "read" in Bookshelves and Exclusive Shelf; Date
    /// Added and Date Read as yyyy/MM/dd (UTC); My Rating 0 to 5; Read Count 1 for a book read,
    /// else 0; Owned Copies 0; other columns empty.
    ///
    /// Any cell whose first character is =, +, -, @, tab or CR gets a leading apostrophe so
    /// spreadsheets show it as text. ISBN cells are plain digits, never Goodreads' `="…"` form,
    /// which is itself a formula.
    public static func export(_ rows: [GoodreadsExportRow]) -> String {
        var output = ""
        appendRecord(header, to: &output)
        for row in rows {
            appendRecord(exportColumns.map { $0.value(row) }, to: &output)
        }
        return output
    }

    /// The wishlist on the "to-read" shelf, then the books read on the "read" shelf with their
    /// ratings, dates and reviews, in the orders given.
    public static func export(wishes: [WishlistItem], readings: [Reading]) -> String {
        let wished = wishes.map {
            GoodreadsExportRow(
                title: $0.title, author: $0.author, isbn10: $0.isbn10, isbn13: $0.isbn13,
                publisher: $0.publisher, dateAdded: $0.addedAt, notes: $0.note
            )
        }
        let read = readings.map {
            GoodreadsExportRow(
                title: $0.title, author: $0.author, isbn10: "", isbn13: $0.isbn13, publisher: "", dateAdded: $0.updatedAt, notes: "",
                shelf: .read, rating: $0.rating, dateRead: $0.finished, review: $0.review
            )
        }
        return export(wished + read)
    }

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

    private static func appendRecord(_ fields: [String], to output: inout String) {
        for (index, field) in fields.enumerated() {
            if index > 0 { output.append(",") }
            appendField(FormulaGuard.guarded(field), to: &output)
        }
        output.append("\r\n")
    }

    /// Works on scalars, not Characters: "\r\n" is one Character, and a quote followed by a
    /// combining mark would be too, so Character tests would miss them.
    private static func appendField(_ field: String, to output: inout String) {
        let needsQuotes = field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else {
            output.append(field)
            return
        }
        output.unicodeScalars.append("\"")
        for scalar in field.unicodeScalars {
            if scalar == "\"" { output.unicodeScalars.append("\"") }
            output.unicodeScalars.append(scalar)
        }
        output.unicodeScalars.append("\"")
    }

    private static let exportColumns: [ExportColumn] = [
        ExportColumn("Book Id"),
        ExportColumn("Title") { $0.title },
        ExportColumn("Author") { $0.author },
        ExportColumn("Author l-f"),
        ExportColumn("Additional Authors"),
        ExportColumn("ISBN") { $0.isbn10 },
        ExportColumn("ISBN13") { $0.isbn13 },
        ExportColumn("My Rating") { String($0.rating ?? 0) },
        ExportColumn("Average Rating"),
        ExportColumn("Publisher") { $0.publisher },
        ExportColumn("Binding"),
        ExportColumn("Number of Pages"),
        ExportColumn("Year Published"),
        ExportColumn("Original Publication Year"),
        ExportColumn("Date Read") { $0.dateRead.map(GoodreadsDate.format) ?? "" },
        ExportColumn("Date Added") { GoodreadsDate.format($0.dateAdded) },
        ExportColumn("Bookshelves") { $0.shelf.rawValue },
        ExportColumn("Bookshelves with positions"),
        ExportColumn("Exclusive Shelf") { $0.shelf.rawValue },
        ExportColumn("My Review") { $0.review },
        ExportColumn("Spoiler"),
        ExportColumn("Private Notes") { $0.notes },
        ExportColumn("Read Count") { $0.shelf == .read ? "1" : "0" },
        ExportColumn("Owned Copies", constant: "0"),
    ]
}

/// A column of the export and how a wishlist item fills it.
private struct ExportColumn: Sendable {
    let name: String
    let value: @Sendable (GoodreadsExportRow) -> String

    init(_ name: String, constant: String = "") {
        self.name = name
        self.value = { _ in constant }
    }

    init(_ name: String, value: @escaping @Sendable (GoodreadsExportRow) -> String) {
        self.name = name
        self.value = value
    }
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
        return GoodreadsCSVError(message: "Line \(line): the \(column) field contains a control character (\(code)), which can't be stored; remove it and upload the file again.")
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

/// Splits RFC 4180 text into records, remembering the line each starts on.
///
/// Works on UTF-8 bytes: every delimiter is ASCII, so splitting there never cuts a character,
/// and CRLF stays two bytes instead of one Character.
private struct CSVRecordReader {
    struct Record {
        let line: Int
        let fields: [String]
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1

    init(_ text: String) {
        let bytes = Array(text.utf8)
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        self.bytes = bytes.starts(with: byteOrderMark) ? Array(bytes.dropFirst(byteOrderMark.count)) : bytes
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

    private mutating func readQuotedField() throws(GoodreadsCSVError) -> String {
        let openingLine = line
        position += 1
        var value: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == Self.quote {
                position += 1
                if position < bytes.count, bytes[position] == Self.quote {
                    value.append(Self.quote)
                    position += 1
                    continue
                }
                guard position == bytes.count || [Self.comma, Self.cr, Self.lf].contains(bytes[position]) else {
                    throw .textAfterClosingQuote(line: line)
                }
                return String(decoding: value, as: UTF8.self)
            }
            guard byte != 0 else { throw .nulByte(line: line) }
            let breakStart = position
            if consumeLineBreak() {
                value.append(contentsOf: bytes[breakStart..<position])
            } else {
                value.append(byte)
                position += 1
            }
        }
        throw .unclosedQuote(line: openingLine)
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

/// Where the columns an import uses sit in a file's header, and how a row becomes a book.
private struct ImportColumns {
    private let title: Int
    private let author: Int?
    private let isbn10: Int?
    private let isbn13: Int?
    private let publisher: Int?
    private let dateAdded: Int?
    private let notes: Int?
    private let shelf: Int?
    private let rating: Int?
    private let dateRead: Int?
    private let review: Int?

    enum Outcome {
        case book(GoodreadsImportedBook)
        case skip(GoodreadsImport.Skip)
    }

    init(header: [String]) throws(GoodreadsCSVError) {
        var indices: [String: Int] = [:]
        for (index, name) in header.enumerated() {
            let key = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if indices[key] == nil { indices[key] = index }
        }
        guard let title = indices["title"] else { throw .noTitleColumn }
        self.title = title
        author = indices["author"]
        isbn10 = indices["isbn"]
        isbn13 = indices["isbn13"]
        publisher = indices["publisher"]
        dateAdded = indices["date added"]
        notes = indices["private notes"]
        shelf = indices["exclusive shelf"]
        rating = indices["my rating"]
        dateRead = indices["date read"]
        review = indices["my review"]
    }

    /// Goodreads writes the day in the user's time zone, which may already be tomorrow in UTC.
    private static let latestDateAddedAhead: TimeInterval = 24 * 60 * 60

    func read(_ record: CSVRecordReader.Record, now: Date) throws(GoodreadsCSVError) -> Outcome {
        try refuseControlCharacters(in: record)
        let title = text(title, in: record)
        func skip(_ reason: String) -> Outcome {
            .skip(GoodreadsImport.Skip(line: record.line, title: title.shortenedForDisplay, reason: reason))
        }
        guard !title.isEmpty else { return skip("no title") }
        var bookShelf = GoodreadsShelf.toRead
        if let shelf {
            let shelfName = text(shelf, in: record)
            guard let known = GoodreadsShelf(rawValue: shelfName.lowercased()) else {
                return skip(
                    shelfName.isEmpty ? "on no shelf, neither “to-read” nor “read”"
                        : "on the “\(shelfName.shortenedForDisplay)” shelf, neither “to-read” nor “read”"
                )
            }
            bookShelf = known
        }
        var book = GoodreadsImportedBook(
            shelf: bookShelf,
            title: title,
            author: text(author, in: record),
            isbn10: Self.cleanISBN(cell(isbn10, in: record), length: 10),
            isbn13: Self.cleanISBN(cell(isbn13, in: record), length: 13),
            publisher: text(publisher, in: record),
            dateAdded: GoodreadsDate.parse(text(dateAdded, in: record)),
            notes: FormulaGuard.unguarded(cell(notes, in: record)),
            line: record.line
        )
        if bookShelf == .read {
            book.rating = Int(text(rating, in: record)).flatMap { (1...5).contains($0) ? $0 : nil }
            book.dateRead = GoodreadsDate.parse(text(dateRead, in: record)).map(FinishedDate.init)
            book.review = Self.plainText(FormulaGuard.unguarded(cell(review, in: record)))
        }
        try Self.refuseBeyondLimits(book, now: now)
        return .book(book)
    }

    /// Form input's rule for every cell the import reads, on every row: even a skipped row shows
    /// its title and shelf in the summary.
    private func refuseControlCharacters(in record: CSVRecordReader.Record) throws(GoodreadsCSVError) {
        let readColumns = [
            ("Title", title), ("Author", author), ("ISBN", isbn10), ("ISBN13", isbn13), ("Publisher", publisher),
            ("Date Added", dateAdded), ("Private Notes", notes), ("Exclusive Shelf", shelf),
            ("My Rating", rating), ("Date Read", dateRead), ("My Review", review),
        ]
        for (name, column) in readColumns {
            if let scalar = cell(column, in: record).unicodeScalars.first(where: \.isForbiddenControlCharacter) {
                throw .controlCharacter(line: record.line, column: name, scalar)
            }
        }
    }

    private static func refuseBeyondLimits(_ book: GoodreadsImportedBook, now: Date) throws(GoodreadsCSVError) {
        let limitedColumns = [
            ("Title", book.title, GoodreadsCSV.maximumTitleLength), ("Author", book.author, GoodreadsCSV.maximumAuthorLength),
            ("Publisher", book.publisher, GoodreadsCSV.maximumPublisherLength), ("Private Notes", book.notes, GoodreadsCSV.maximumNotesLength),
            ("My Review", book.review, GoodreadsCSV.maximumReviewLength),
        ]
        for (name, value, maximum) in limitedColumns where value.count > maximum {
            throw .tooLong(line: book.line, column: name, length: value.count, maximum: maximum)
        }
        if let added = book.dateAdded, added > now.addingTimeInterval(latestDateAddedAhead) {
            throw .addedInFuture(line: book.line, added)
        }
        if let read = book.dateRead, read > FinishedDate.latestAllowed(at: now) {
            throw .readInFuture(line: book.line, read)
        }
    }

    /// Goodreads keeps a review's line breaks as `<br/>`; the app keeps plain text.
    private static func plainText(_ review: String) -> String {
        review.replacingOccurrences(of: "<br />", with: "\n").replacingOccurrences(of: "<br/>", with: "\n")
            .replacingOccurrences(of: "<br>", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The raw cell; "" for a missing column or past the end of a short row, which pads it.
    private func cell(_ column: Int?, in record: CSVRecordReader.Record) -> String {
        guard let column, column < record.fields.count else { return "" }
        return record.fields[column]
    }

    /// The cell without the apostrophe our export may have added, trimmed.
    private func text(_ column: Int?, in record: CSVRecordReader.Record) -> String {
        FormulaGuard.unguarded(cell(column, in: record)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Goodreads writes ISBNs as `="0593331303"` (and `=""` for none) so spreadsheets keep the
    /// leading zeros; only the digits and the check character X matter.
    private static func cleanISBN(_ cell: String, length: Int) -> String {
        var kept = ""
        for scalar in cell.unicodeScalars {
            if ("0"..."9").contains(scalar) || scalar == "X" {
                kept.unicodeScalars.append(scalar)
            } else if scalar == "x" {
                kept.unicodeScalars.append("X")
            }
        }
        return kept.utf8.count == length ? kept : ""
    }
}

/// Keeps spreadsheets from running a cell as a formula (CSV injection) with a leading apostrophe,
/// and takes that apostrophe off again on import.
private enum FormulaGuard {
    private static let triggers: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    static func guarded(_ text: String) -> String {
        needsGuard(text.unicodeScalars) ? "'" + text : text
    }

    static func unguarded(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.first == "'", needsGuard(scalars.dropFirst()) else { return text }
        return String(scalars.dropFirst())
    }

    /// Looks past leading apostrophes so a value that already starts with "'=" gets one more:
    /// the import then always removes exactly the one the export added.
    private static func needsGuard(_ scalars: some Sequence<Unicode.Scalar>) -> Bool {
        guard let first = scalars.first(where: { $0 != "'" }) else { return false }
        return triggers.contains(first)
    }
}

/// Dates as Goodreads writes them: a calendar day, in UTC.
private enum GoodreadsDate {
    /// `yyyy/MM/dd`.
    static func format(_ date: Date) -> String {
        format(FinishedDate(date))
    }

    static func format(_ day: FinishedDate) -> String {
        day.text.replacingOccurrences(of: "-", with: "/")
    }

    /// Midnight UTC of a `yyyy/MM/dd` or `yyyy-MM-dd` day (month and day may have one digit);
    /// nil for anything else, including days that do not exist.
    static func parse(_ text: String) -> Date? {
        let separator: Character = text.contains("/") ? "/" : "-"
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }),
              parts[0].utf8.count == 4, parts[1].utf8.count <= 2, parts[2].utf8.count <= 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...CivilDateTime.daysInMonth(month, year: year)).contains(day)
        else { return nil }
        return CivilDateTime.date(year: year, month: month, day: day)
    }
}

package extension String {
    /// At most 100 characters, ending in "…" when cut, for echoing file contents back in messages.
    fileprivate var shortenedForDisplay: String {
        count > 100 ? String(prefix(99)) + "…" : self
    }
}

package extension Int {
    /// The number with commas between groups of three digits, as in "5,000".
    fileprivate var grouped: String {
        let digits = Array(String(magnitude))
        var text = self < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
