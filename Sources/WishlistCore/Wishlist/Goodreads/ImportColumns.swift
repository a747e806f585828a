import Foundation

/// Where the columns an import uses sit in a file's header, and how a row becomes a book.
struct ImportColumns {
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
    /// The columns read, by the names the messages give them, in the order they are checked.
    private let readColumns: [(name: String, index: Int)]

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
        let named = [
            ("Title", title), ("Author", author), ("ISBN", isbn10), ("ISBN13", isbn13), ("Publisher", publisher),
            ("Date Added", dateAdded), ("Private Notes", notes), ("Exclusive Shelf", shelf),
            ("My Rating", rating), ("Date Read", dateRead), ("My Review", review),
        ]
        readColumns = named.compactMap { name, index in index.map { (name, $0) } }
    }

    /// Goodreads writes the day in the user's time zone, which may already be tomorrow in UTC.
    private static let latestDateAddedAhead: TimeInterval = 24 * 60 * 60

    func read(_ record: CSVRecordReader.Record, now: Date) throws(GoodreadsCSVError) -> Outcome {
        try refuseControlCharacters(in: record)
        let title = text(title, in: record)
        func skip(_ reason: GoodreadsImport.Skip.Reason) -> Outcome {
            .skip(GoodreadsImport.Skip(line: record.line, title: title.shortenedForDisplay, reason: reason))
        }
        guard !title.isEmpty else { return skip(.noTitle) }
        var bookShelf = GoodreadsShelf.toRead
        if let shelf {
            let shelfName = text(shelf, in: record)
            guard let known = GoodreadsShelf(rawValue: shelfName.lowercased()) else {
                return skip(shelfName.isEmpty ? .noShelf : .otherShelf(shelfName.shortenedForDisplay))
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
    /// Looks at bytes: every control character is ASCII, and in UTF-8 a byte below 0x80 is always
    /// the ASCII character it reads as (the bytes of longer characters are all 0x80 or more).
    private func refuseControlCharacters(in record: CSVRecordReader.Record) throws(GoodreadsCSVError) {
        for (name, column) in readColumns {
            if let byte = cell(column, in: record).utf8.first(where: { Unicode.Scalar($0).isForbiddenControlCharacter }) {
                throw .controlCharacter(line: record.line, column: name, Unicode.Scalar(byte))
            }
        }
    }

    private static func refuseBeyondLimits(_ book: GoodreadsImportedBook, now: Date) throws(GoodreadsCSVError) {
        let limitedColumns = [
            ("Title", book.title, GoodreadsCSV.maximumTitleLength), ("Author", book.author, GoodreadsCSV.maximumAuthorLength),
            ("Publisher", book.publisher, GoodreadsCSV.maximumPublisherLength), ("Private Notes", book.notes, GoodreadsCSV.maximumNotesLength),
            ("My Review", book.review, GoodreadsCSV.maximumReviewLength),
        ]
        // A character is at least one byte: a value of no more bytes than the limit is not counted.
        for (name, value, maximum) in limitedColumns where value.utf8.count > maximum && value.count > maximum {
            throw .tooLong(line: book.line, column: name, length: value.count, maximum: maximum)
        }
        if let added = book.dateAdded, added > now.addingTimeInterval(latestDateAddedAhead) {
            throw .addedInFuture(line: book.line, written: GoodreadsDate.format(added))
        }
        if let read = book.dateRead, read > FinishedDate.latestAllowed(at: now) {
            throw .readInFuture(line: book.line, written: GoodreadsDate.format(read))
        }
    }

    /// Goodreads keeps a review's line breaks as `<br/>`; the app keeps plain text.
    private static func plainText(_ review: String) -> String {
        review.replacingOccurrences(of: "<br />", with: "\n").replacingOccurrences(of: "<br/>", with: "\n")
            .replacingOccurrences(of: "<br>", with: "\n").trimmedOfWhitespace
    }

    /// The raw cell; "" for a missing column or past the end of a short row, which pads it.
    private func cell(_ column: Int?, in record: CSVRecordReader.Record) -> String {
        guard let column, column < record.fields.count else { return "" }
        return record.fields[column]
    }

    /// The cell without the apostrophe our export may have added, trimmed.
    private func text(_ column: Int?, in record: CSVRecordReader.Record) -> String {
        FormulaGuard.unguarded(cell(column, in: record)).trimmedOfWhitespace
    }

    /// Goodreads writes ISBNs as `="0593331303"` (and `=""` for none) so spreadsheets keep the
    /// leading zeros; only the digits and the check character X matter. Read as bytes: the bytes
    /// of a character beyond ASCII are all 0x80 or more, so none of them is taken for a digit.
    private static func cleanISBN(_ cell: String, length: Int) -> String {
        var kept: [UInt8] = []
        for byte in cell.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "X"): kept.append(byte)
            case UInt8(ascii: "x"): kept.append(UInt8(ascii: "X"))
            default: continue
            }
        }
        return kept.count == length ? String(decoding: kept, as: UTF8.self) : ""
    }
}
