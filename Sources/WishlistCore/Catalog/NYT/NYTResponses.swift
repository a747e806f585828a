import Foundation

// The NYT Books API v3 responses, as they really arrive (see the fixtures' README): fields that
// are sometimes null, empty or missing are optional here, and `price` is a string or a number.

/// `GET lists/names.json`
public struct NYTNamesResponse: Decodable, Sendable {
    public let results: [NYTListName]
}

public struct NYTListName: Decodable, Sendable {
    let listName: String
    let displayName: String
    public let listNameEncoded: String
    let oldestPublishedDate: String?
    let newestPublishedDate: String
    public let updated: String

    enum CodingKeys: String, CodingKey {
        case listName = "list_name", displayName = "display_name", listNameEncoded = "list_name_encoded"
        case oldestPublishedDate = "oldest_published_date", newestPublishedDate = "newest_published_date", updated
    }
}

/// `GET lists/full-overview.json`: some lists with their books, one publication date for all.
public struct NYTOverviewResponse: Decodable, Sendable {
    public struct Results: Decodable, Sendable {
        public let publishedDate: String
        public let lists: [NYTList]

        enum CodingKeys: String, CodingKey {
            case publishedDate = "published_date", lists
        }
    }

    public let results: Results
}

/// `GET lists/current/{list}.json` and `GET lists/{date}/{list}.json`: one list.
struct NYTListResponse: Decodable {
    let results: NYTList
}

public struct NYTList: Decodable, Sendable {
    public let listNameEncoded: String
    let displayName: String
    let listName: String?
    let updated: String?
    /// Present in single-list responses; the overview has it once for all lists.
    let publishedDate: String?
    /// The neighbouring editions' dates in single-list responses ("" when there is none, as in
    /// the newest edition's `next_published_date`).
    let previousPublishedDate: String?
    let nextPublishedDate: String?
    let books: [NYTBook]

    enum CodingKeys: String, CodingKey {
        case listNameEncoded = "list_name_encoded", displayName = "display_name", listName = "list_name"
        case updated, publishedDate = "published_date", books
        case previousPublishedDate = "previous_published_date", nextPublishedDate = "next_published_date"
    }
}

struct NYTBook: Decodable {
    struct ISBN: Decodable {
        let isbn10: String?
        let isbn13: String?
    }

    struct BuyLink: Decodable {
        let name: String
        let url: String
    }

    let rank: Int
    let rankLastWeek: Int?
    let weeksOnList: Int?
    let primaryISBN10: String?
    let primaryISBN13: String
    let publisher: String?
    let description: String?
    let price: NYTPrice?
    let title: String
    let author: String?
    let contributor: String?
    let bookImage: String?
    let bookImageWidth: Int?
    let bookImageHeight: Int?
    let amazonProductURL: String?
    let bookReviewLink: String?
    let firstChapterLink: String?
    let sundayReviewLink: String?
    let articleChapterLink: String?
    let isbns: [ISBN]?
    let buyLinks: [BuyLink]?

    enum CodingKeys: String, CodingKey {
        case rank, rankLastWeek = "rank_last_week", weeksOnList = "weeks_on_list"
        case primaryISBN10 = "primary_isbn10", primaryISBN13 = "primary_isbn13"
        case publisher, description, price, title, author, contributor
        case bookImage = "book_image", bookImageWidth = "book_image_width", bookImageHeight = "book_image_height"
        case amazonProductURL = "amazon_product_url", bookReviewLink = "book_review_link"
        case firstChapterLink = "first_chapter_link", sundayReviewLink = "sunday_review_link"
        case articleChapterLink = "article_chapter_link", isbns, buyLinks = "buy_links"
    }
}

/// A price sent as `"12.99"` or as `12.99`; kept as the text to show.
struct NYTPrice: Decodable {
    let text: String

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
        } else {
            text = String(format: "%.2f", try container.decode(Double.self))
        }
    }

    /// Nil for the zero price the API sends when it has none.
    var displayText: String? {
        guard let value = Double(text), value > 0 else { return nil }
        return String(format: "%.2f", value)
    }
}
