import Foundation
import WishlistLanguages

/// How often a list is published.
public enum ListFrequency: String, Sendable {
    case weekly = "WEEKLY", monthly = "MONTHLY"

    public var label: String { self == .weekly ? "Weekly" : "Monthly" }
    /// The time between editions, as a sentence names it ("New this week", "since last month").
    public var period: String { self == .weekly ? "week" : "month" }
}

/// A book as the catalog keeps it: the API's facts, with every link checked to be http(s).
public struct CatalogBook: Sendable, Equatable {
    public struct Link: Sendable, Equatable {
        public let name: String
        public let url: String
    }

    public let id: String
    public let title: String
    public let author: String
    public let contributor: String
    public let publisher: String
    public let description: String
    public let price: String?
    public let isbn10: String
    public let isbn13: String
    public let otherISBNs: [String]
    public let imageURL: String?
    public let imageWidth: Int
    public let imageHeight: Int
    public let buyLinks: [Link]
    /// Review, first-chapter and article links, named for people.
    public let readingLinks: [Link]
    /// Added by a member (through Open Library or by hand), not carried by a list (yet).
    public var isAdded = false
    /// The year it first came out, when Open Library said.
    public var firstPublished: Int?
}

/// One edition of one list: its books in rank order, as one refresh replaces it.
public struct CatalogEdition: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let rank: Int
        /// 0 when the book is new this week, as the API says it.
        public let rankLastWeek: Int
        public let weeksOnList: Int
        public let book: CatalogBook
    }

    public let listNameEncoded: String
    public let displayName: String
    public let frequency: ListFrequency
    /// `yyyy-MM-dd`, as the API gives it.
    public let publishedDate: String
    public let entries: [Entry]
}

extension CatalogEdition {
    /// Builds an edition from an API list, dropping books without a usable id and any link that
    /// is not http(s).
    public init(_ list: NYTList, publishedDate: String, frequency: ListFrequency) {
        listNameEncoded = list.listNameEncoded
        displayName = list.displayName
        self.frequency = frequency
        self.publishedDate = publishedDate
        var seenRanks = Set<Int>()
        entries = list.books.sorted { $0.rank < $1.rank }.compactMap { book in
            guard let catalogBook = CatalogBook(book), seenRanks.insert(book.rank).inserted else { return nil }
            return Entry(rank: book.rank, rankLastWeek: max(0, book.rankLastWeek ?? 0), weeksOnList: max(0, book.weeksOnList ?? 0), book: catalogBook)
        }
    }
}

extension CatalogBook {
    /// Ids appear in our URLs (`/books/{id}`): letters, digits and hyphens only.
    package static func isUsableID(_ id: String) -> Bool {
        (1...40).contains(id.count) && id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
    }

    init?(_ book: NYTBook) {
        let id = book.primaryISBN13.trimmingCharacters(in: .whitespaces).isEmpty ? (book.primaryISBN10 ?? "") : book.primaryISBN13
        guard Self.isUsableID(id) else { return nil }
        self.id = id
        title = TitleCase.from(book.title)
        author = book.author?.trimmingCharacters(in: .whitespaces) ?? ""
        contributor = book.contributor ?? ""
        publisher = book.publisher ?? ""
        description = PlainText.fromHTMLFragment(book.description ?? "")
        price = book.price?.displayText
        isbn10 = book.primaryISBN10 ?? ""
        isbn13 = book.primaryISBN13
        otherISBNs = (book.isbns ?? []).compactMap(\.isbn13).filter { !$0.isEmpty && $0 != book.primaryISBN13 }
        let image = SafeURL.http(book.bookImage)
        imageURL = image
        imageWidth = image == nil ? 0 : max(0, book.bookImageWidth ?? 0)
        imageHeight = image == nil ? 0 : max(0, book.bookImageHeight ?? 0)
        var buyLinks = (book.buyLinks ?? []).compactMap { link in SafeURL.http(link.url).map { Link(name: link.name, url: $0) } }
        if buyLinks.isEmpty, let amazon = SafeURL.http(book.amazonProductURL) { buyLinks = [Link(name: "Amazon", url: amazon)] }
        self.buyLinks = buyLinks
        // Their names are catalog keys: a page shows each in its reader's language.
        readingLinks = [
            (Translations.marked("Review in The New York Times"), book.bookReviewLink), (Translations.marked("Sunday Book Review"), book.sundayReviewLink),
            (Translations.marked("First chapter"), book.firstChapterLink), (Translations.marked("Article"), book.articleChapterLink),
        ].compactMap { name, url in SafeURL.http(url).map { Link(name: name, url: $0) } }
    }
}

/// The URLs the app stores from the API: absolute http(s) with a host, nothing else.
enum SafeURL {
    static func http(_ candidate: String?) -> String? {
        guard let text = candidate?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
              text.count <= 2000,
              let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.encodedHost, !host.isEmpty
        else { return nil }
        return text
    }
}
