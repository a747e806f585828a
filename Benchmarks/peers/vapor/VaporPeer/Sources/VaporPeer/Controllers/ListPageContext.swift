import Foundation

/// What `list.leaf` (and `base.leaf`) read: plain Encodable values, prepared by the controller.
struct ListPageContext: Encodable {
    struct User: Encodable {
        let name: String
        let wishlistCount: Int
        let isAdmin: Bool
    }

    struct List: Encodable {
        let nameEncoded: String
        let displayName: String
        /// "Weekly" or "Monthly"
        let frequency: String
        /// "week" or "month": "since last week"
        let period: String
        let publishedDate: String
        /// "November 15, 2026"
        let publishedDisplay: String
        let fetchedAt: String?
        /// "Nov 23, 2026 at 08:26 UTC"
        let fetchedDisplay: String?
        let isFavorite: Bool

        init(_ list: CatalogList, publishedDate: String, isFavorite: Bool) {
            nameEncoded = list.id ?? ""
            displayName = list.displayName
            let monthly = list.frequency == "MONTHLY"
            frequency = monthly ? "Monthly" : "Weekly"
            period = monthly ? "month" : "week"
            self.publishedDate = publishedDate
            publishedDisplay = DateText.long(publishedDate)
            let fetched = list.fetchedAt.flatMap(DateText.Stamp.init)
            fetchedAt = fetched?.iso
            fetchedDisplay = fetched?.display
            self.isFavorite = isFavorite
        }
    }

    struct EditionLink: Encodable {
        let path: String
        let date: String
        let display: String
    }

    let title: String
    let nav: String
    let user: User
    let csrfToken: String
    let sampleData: Bool
    let list: List
    let previousEdition: EditionLink?
    let sort: String
    /// "15 books"
    let bookCount: String
    let hasBooks: Bool
    let books: [BookRow]
    let returnTo: String
}

/// One book of the list page.
struct BookRow: Encodable {
    struct Cover: Encodable {
        let url: String?
        let width: Int
        let height: Int
    }

    let id: String
    let rank: Int
    let title: String
    let author: String
    let description: String
    let path: String
    let cover: Cover
    let movement: String
    let movementAmount: Int
    let weeksOnList: Int
    /// "12 weeks"
    let weeks: String
    let onWishlist: Bool
    let wishlistItem: Int?

    init(entry: ListEntry, book: Book, movement: Movement, wishlistItem: Int?) {
        id = book.id ?? ""
        rank = entry.id?.rank ?? 0
        title = book.title
        author = book.author
        description = book.description
        path = "/books/\(id)"
        // A cover of unknown size keeps its image in a typical jacket's box; no image, the placeholder.
        if let url = book.imageURL {
            cover = book.imageWidth > 0 && book.imageHeight > 0
                ? Cover(url: url, width: book.imageWidth, height: book.imageHeight)
                : Cover(url: url, width: 128, height: 193)
        } else {
            cover = Cover(url: nil, width: 128, height: 193)
        }
        self.movement = movement.kind
        movementAmount = movement.amount
        weeksOnList = entry.weeksOnList
        weeks = DateText.count(entry.weeksOnList, "week")
        onWishlist = wishlistItem != nil
        self.wishlistItem = wishlistItem
    }
}

/// Dates as the app shows them, from the text SQLite holds.
enum DateText {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// (year, month 1-12, day) of `yyyy-MM-dd`.
    private static func parts(_ date: String) -> (String, Int, Int)? {
        let fields = date.prefix(10).split(separator: "-")
        guard fields.count == 3, let month = Int(fields[1]), (1...12).contains(month), let day = Int(fields[2]) else { return nil }
        return (String(fields[0]), month, day)
    }

    /// "November 15, 2026"
    static func long(_ date: String) -> String {
        guard let (year, month, day) = parts(date) else { return date }
        return "\(months[month - 1]) \(day), \(year)"
    }

    /// "Nov 8, 2026"
    static func short(_ date: String) -> String {
        guard let (year, month, day) = parts(date) else { return date }
        return "\(months[month - 1].prefix(3)) \(day), \(year)"
    }

    /// "1 week", "12 weeks"
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// A timestamp the app stored (`yyyy-MM-dd HH:mm:ss.SSS`, UTC).
    struct Stamp {
        /// `2026-11-23T08:26:27Z`
        let iso: String
        /// `Nov 23, 2026 at 08:26 UTC`
        let display: String

        init?(_ stored: String) {
            let halves = stored.split(separator: " ")
            guard halves.count == 2, halves[1].count >= 8 else { return nil }
            let date = String(halves[0]), time = halves[1].prefix(8)
            iso = "\(date)T\(time)Z"
            display = "\(DateText.short(date)) at \(time.prefix(5)) UTC"
        }
    }

    /// Now, as the app stores timestamps.
    static func storedNow() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter.string(from: Date())
    }
}
