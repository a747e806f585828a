import Foundation

/// A book a member adds that no list carries: chosen from Open Library's answers or typed by hand.
public struct NewBook: Sendable, Equatable {
    public let title: String
    public let author: String
    public let isbn: ISBN?
    public let publisher: String
    /// The year it first came out, when Open Library says.
    public let firstPublished: Int?
    /// Where to read about it: the link typed by hand, or the book's Open Library page.
    public let link: CatalogBook.Link?
    /// A cover of Open Library's, fetched and served by us like every other.
    public let coverURL: String?

    public init(
        title: String, author: String, isbn: ISBN?, publisher: String = "", firstPublished: Int? = nil, link: CatalogBook.Link? = nil,
        coverURL: String? = nil
    ) {
        self.title = title
        self.author = author
        self.isbn = isbn
        self.publisher = publisher
        self.firstPublished = firstPublished
        self.link = link
        self.coverURL = coverURL
    }
}

/// What "Type it in" got wrong, named by what it is about (as ``AccountProblem`` is): the web
/// layer words each and shows it beside its field.
public enum NewBookProblem: Hashable, Sendable {
    case titleMissing
    /// Over ``NewBookInput/titleMaximumLength`` characters: it has `characters`.
    case titleTooLong(characters: Int)
    case authorMissing
    /// Over ``NewBookInput/authorMaximumLength`` characters: it has `characters`.
    case authorTooLong(characters: Int)
    case isbn(ISBN.Problem)
    /// Not an http or https link to a site.
    case link
}

/// What a person typed into "Type it in", checked field by field.
public enum NewBookInput {
    public static let titleMaximumLength = 300
    public static let authorMaximumLength = 200
    public static let linkMaximumLength = 2000

    /// What is wrong with what was typed, in the form's order; empty when all is well.
    public static func problems(title: String, author: String, isbn: String, link: String) -> [NewBookProblem] {
        var problems: [NewBookProblem] = []
        if title.isEmpty { problems.append(.titleMissing) }
        if title.count > titleMaximumLength { problems.append(.titleTooLong(characters: title.count)) }
        if author.isEmpty { problems.append(.authorMissing) }
        if author.count > authorMaximumLength { problems.append(.authorTooLong(characters: author.count)) }
        if !isbn.isEmpty {
            do { _ = try ISBN(isbn) } catch { problems.append(.isbn(error)) }
        }
        if !link.isEmpty, httpLink(link) == nil { problems.append(.link) }
        return problems
    }

    /// The book, when ``problems(title:author:isbn:link:)`` found none.
    public static func book(title: String, author: String, isbn: String, link: String) -> NewBook? {
        guard problems(title: title, author: author, isbn: isbn, link: link).isEmpty else { return nil }
        return NewBook(
            title: title, author: author, isbn: isbn.isEmpty ? nil : try? ISBN(isbn),
            link: link.isEmpty ? nil : httpLink(link).map { CatalogBook.Link(name: "Link", url: $0) }
        )
    }

    /// `text` when it is an http(s) URL with a host and no longer than the limit.
    static func httpLink(_ text: String) -> String? {
        guard text.count <= linkMaximumLength, let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              components.encodedHost?.isEmpty == false
        else { return nil }
        return text
    }
}
