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
        public var reason: Reason

        /// Why a row was left out; the web words it in the reader's language.
        public enum Reason: Sendable, Equatable {
            case noTitle
            case noShelf
            /// On a shelf the import does not read, named as the file names it (shortened).
            case otherShelf(String)
        }

        public init(line: Int, title: String, reason: Reason) {
            self.line = line
            self.title = title
            self.reason = reason
        }
    }
}
