import Foundation

/// A link to another site made from a book's facts (`books.borrowLinks`, `books.buyLinks`): a
/// library's catalogue, a shop. The address is an https template with placeholders, each
/// replaced by the book's value, percent-encoded, so no book can change where a link leads:
/// `https://search.worldcat.org/search?q=bn:{isbn13}`. Pages only show the links; neither they nor
/// the server ask those sites anything.
public struct BookLinkTemplate: Sendable, Equatable {
    /// What the link says ("WorldCat").
    public let name: String
    /// The template, checked: https, its host written out, only known placeholders.
    public let url: String
    /// `url` cut at its placeholders once: a member's page makes each template's link for each of
    /// up to 100 books (issue 58).
    private let pieces: [Piece]

    /// The placeholders a template may use.
    public static let placeholders = ["isbn13", "isbn10", "title", "author"]

    /// Why a template is refused, as the end of the configuration's sentence.
    public enum Problem: Error, Equatable, Sendable {
        case noName
        case notHTTPS(String)
        case placeholderInHost(String)
        case unknownPlaceholder(String)
        case unclosedBrace(String)
        case unsafeCharacters(String)

        public var sentence: String {
            let known = BookLinkTemplate.placeholders.map { "{\($0)}" }.joined(separator: ", ")
            switch self {
            case .noName: return "needs a \"name\" to show"
            case .notHTTPS(let url): return "must be an https URL with a host, got \"\(url)\""
            case .placeholderInHost(let url): return "must write its host out in full, before any placeholder, got \"\(url)\""
            case .unknownPlaceholder(let name): return "has the unknown placeholder {\(name)}; the placeholders are \(known)"
            case .unclosedBrace(let url): return "has a { without its } (or a } without its {) in \"\(url)\""
            case .unsafeCharacters(let url): return "must be plain ASCII without spaces, quotes or angle brackets (percent-encode the rest), got \"\(url)\""
            }
        }
    }

    public init(name: String, url: String) throws(Problem) {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw .noName }
        let pieces = try Self.pieces(of: url)
        // The host comes before the first placeholder: scheme, "//", host, then a "/" or the end.
        guard case .text(let start) = pieces.first, start.lowercased().hasPrefix("https://") else { throw .notHTTPS(url) }
        let afterScheme = start.dropFirst("https://".count)
        let host = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard pieces.count == 1 || host.count < afterScheme.count else { throw .placeholderInHost(url) }
        guard !host.isEmpty, !host.contains("@"), host.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { throw .notHTTPS(url) }
        guard url.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\"" && $0 != "<" && $0 != ">" && !($0.asciiValue! < 0x20) }) else {
            throw .unsafeCharacters(url)
        }
        self.name = name
        self.url = url
        self.pieces = pieces
    }

    /// The link for a book, or nil when the template needs a value the book lacks (an ISBN).
    public func link(for book: Facts) -> String? {
        var link = ""
        for piece in pieces {
            switch piece {
            case .text(let text): link += text
            case .placeholder(let name):
                guard let value = book.value(of: name), !value.isEmpty else { return nil }
                link += PercentEncoding.encode(value)
            }
        }
        return link
    }

    /// What a template can say of a book.
    public struct Facts: Sendable, Equatable {
        public let isbn13: String
        public let isbn10: String
        public let title: String
        public let author: String

        public init(isbn13: String, isbn10: String, title: String, author: String) {
            self.isbn13 = isbn13
            self.isbn10 = isbn10
            self.title = title
            self.author = author
        }

        func value(of placeholder: String) -> String? {
            switch placeholder {
            case "isbn13": isbn13
            case "isbn10": isbn10
            case "title": title
            case "author": author
            default: nil
            }
        }
    }

    private enum Piece: Equatable {
        case text(String)
        case placeholder(String)
    }

    /// The template as text and placeholders, every placeholder a known one.
    private static func pieces(of url: String) throws(Problem) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(url)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else { throw .unclosedBrace(url) }
            let name = String(rest[rest.index(after: open)..<close])
            guard !name.contains("{") else { throw .unclosedBrace(url) }
            guard placeholders.contains(name) else { throw .unknownPlaceholder(name) }
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            pieces.append(.placeholder(name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }
}

/// The configured templates, borrowing and buying, and what they make of a book.
public struct BookLinkTemplates: Sendable, Equatable {
    public var borrow: [BookLinkTemplate]
    public var buy: [BookLinkTemplate]

    public init(borrow: [BookLinkTemplate], buy: [BookLinkTemplate]) {
        self.borrow = borrow
        self.buy = buy
    }

    /// The default borrowing link: WorldCat, the world's library catalogue, which finds the
    /// libraries near the reader that hold the book.
    public static let worldCat = try! BookLinkTemplate(name: "WorldCat (libraries near you)", url: "https://search.worldcat.org/search?q=bn:{isbn13}")
}
