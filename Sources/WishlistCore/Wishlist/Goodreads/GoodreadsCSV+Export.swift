import Foundation

extension GoodreadsCSV {
    /// The Goodreads export columns, in Goodreads' order.
    public static let header: [String] = exportColumns.map(\.name)

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
