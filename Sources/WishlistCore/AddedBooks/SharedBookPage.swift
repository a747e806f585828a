/// A page shared into the app from another (the manifest's Web Share Target, `GET
/// /books/new/shared`): its title, text and URL, and where they lead. An ISBN found in them goes
/// to the look-up; anything else is searched for by its title.
public struct SharedBookPage: Sendable, Equatable {
    public enum Destination: Sendable, Equatable {
        /// The ISBN's look-up (`/books/new?isbn=`).
        case lookUp(ISBN)
        /// A search of the catalog (`/search?q=`).
        case search(String)
        /// Nothing to go on: the page that adds a book.
        case addBook
    }

    /// The longest search the catalog's search box takes.
    public static let searchMaximumLength = 200

    public let title: String
    public let text: String
    public let url: String

    public init(title: String, text: String, url: String) {
        self.title = title
        self.text = text
        self.url = url
    }

    /// The ISBN in the URL (a 13-digit one anywhere; a 10-digit one where shops and libraries put
    /// it: Amazon's `/dp/` and `/gp/product/`, `/isbn/`, `isbn=`), else in the text or the title
    /// (10 or 13 digits, hyphens and spaces allowed), with its check digit holding; else the
    /// title (or the text, without its links) to search for.
    public var destination: Destination {
        if let isbn = Self.isbn(inURL: url) ?? Self.isbn(inText: text) ?? Self.isbn(inText: title) {
            return .lookUp(isbn)
        }
        let words = title.isEmpty ? Self.withoutLinks(text) : title
        let query = String(words.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(Self.searchMaximumLength))
        return query.isEmpty ? .addBook : .search(query)
    }

    // MARK: Finding ISBNs

    /// Where a 10-digit number in a URL is an ISBN: a shop's or a library's place for one.
    private static let isbnPlaces = ["/dp/", "/product/", "/isbn/", "isbn=", "isbn"]

    static func isbn(inURL url: String) -> ISBN? {
        let runs = digitRuns(in: url)
        if let isbn = runs.lazy.compactMap({ ISBN(barcode: $0.digits) }).first { return isbn }
        return runs.lazy.filter { run in
            run.digits.count == 10 && isbnPlaces.contains { run.before.lowercased().hasSuffix($0) }
        }.compactMap { try? ISBN($0.digits) }.first
    }

    static func isbn(inText text: String) -> ISBN? {
        let runs = digitRuns(in: text)
        return runs.lazy.compactMap { ISBN(barcode: $0.digits) }.first
            ?? runs.lazy.filter { $0.digits.count == 10 }.compactMap { try? ISBN($0.digits) }.first
    }

    /// Each run of 10 or 13 digits (the last of 10 may be X) that a single hyphen or space may
    /// separate, standing alone: no letter or digit touches it, except an "ISBN" right before it
    /// (Google Books' `vid=ISBN9780…`). With the text before it, for where it stands.
    private static func digitRuns(in text: String) -> [(digits: String, before: Substring)] {
        let characters = Array(text)
        var runs: [(digits: String, before: Substring)] = []
        var index = 0
        while index < characters.count {
            guard characters[index].isASCIIDigit, index == 0 || !isWordCharacter(characters[index - 1]) || endsWithISBN(characters, at: index)
            else {
                index += 1
                continue
            }
            var digits = ""
            var end = index
            while end < characters.count {
                if characters[end].isASCIIDigit {
                    digits.append(characters[end])
                    end += 1
                } else if digits.count == 9, characters[end] == "X" || characters[end] == "x" {
                    digits.append("X")
                    end += 1
                    break
                } else if characters[end] == "-" || characters[end] == " ", end + 1 < characters.count,
                          characters[end + 1].isASCIIDigit || (digits.count == 9 && "Xx".contains(characters[end + 1])) {
                    end += 1
                } else {
                    break
                }
            }
            let standsAlone = end == characters.count || !isWordCharacter(characters[end])
            if standsAlone, digits.count == 10 || digits.count == 13 {
                runs.append((digits, text.prefix(index)))
            }
            index = max(end, index + 1)
        }
        return runs
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    private static func endsWithISBN(_ characters: [Character], at index: Int) -> Bool {
        index >= 4 && String(characters[(index - 4)..<index]).lowercased() == "isbn"
    }

    /// The text without the links in it: what a share from an app that puts its URL in the text leaves.
    private static func withoutLinks(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).filter { !$0.hasPrefix("http://") && !$0.hasPrefix("https://") }.joined(separator: " ")
    }
}
