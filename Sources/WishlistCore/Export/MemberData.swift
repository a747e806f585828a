import CivilTime
import Foundation

/// What `data.json` in a member's download says: everything the app holds about her, in words a
/// person can read. Times are RFC 3339 in UTC; a value she never set is left out.
///
/// Nothing secret is here (password hash, session and link tokens, passkeys' keys), and nothing
/// others did for her that her own pages do not show: reservations of her books, whether they
/// were bought, and ideas suggested for her stay theirs. Cards are hers once she has the book.
struct MemberData: Encodable {
    struct Account: Encodable {
        let username: String
        let displayName: String?
        let email: String?
        let createdAt: String
        let admin: Bool
        let sharing: String
        let startList: String?
        let favouriteLists: [String]
        /// The authors she follows, by the names she followed them under.
        let followedAuthors: [String]
    }

    struct SignedInBrowser: Encodable {
        let browser: String
        let signedInAt: String
        let lastSeenAt: String
    }

    struct PasskeyName: Encodable {
        let name: String
        let createdAt: String
        let lastUsedAt: String?
    }

    struct Link: Encodable {
        let name: String
        let url: String
    }

    struct Wish: Encodable {
        let title: String
        let author: String
        let publisher: String
        let isbn10: String
        let isbn13: String
        let description: String
        let cover: String?
        let buyLinks: [Link]
        let readingLinks: [Link]
        let note: String
        let priority: String
        let addedAt: String
    }

    struct Card: Encodable {
        let from: String
        let message: String
    }

    struct ReceivedBook: Encodable {
        let book: Wish
        let receivedAt: String
        let cards: [Card]
    }

    struct BookRead: Encodable {
        let title: String
        let author: String
        let isbn13: String
        let rating: Int?
        let review: String
        let finished: String?
        let updatedAt: String
    }

    struct Profile: Encodable {
        let bio: String
        /// `MM-DD`: the app never asks for the year.
        let birthday: String?
        let favouriteBooks: [String]
        /// The picture's file in the archive.
        let picture: String?
    }

    struct Gift: Encodable {
        let title: String
        let author: String
        let forMember: String
        let reservedAt: String
        let boughtAt: String?
        let card: String
        let received: Bool
    }

    struct Idea: Encodable {
        let title: String
        let author: String
        let forMember: String
        let note: String
        let suggestedAt: String
    }

    let exportedAt: String
    let account: Account
    let signedInBrowsers: [SignedInBrowser]
    let passkeys: [PasskeyName]
    let wishlist: [Wish]
    let received: [ReceivedBook]
    let readings: [BookRead]
    let profile: Profile
    let giftsIAmGiving: [Gift]
    let giftIdeasISuggested: [Idea]

    static func time(_ date: Date) -> String {
        CivilDateTime(date).rfc3339
    }

    static func wish(_ item: WishlistItem) -> Wish {
        Wish(
            title: item.title, author: item.author, publisher: item.publisher, isbn10: item.isbn10, isbn13: item.isbn13,
            description: item.description, cover: item.imageURL, buyLinks: item.buyLinks.map { Link(name: $0.name, url: $0.url) },
            readingLinks: item.readingLinks.map { Link(name: $0.name, url: $0.url) }, note: item.note, priority: item.priority.rawValue,
            addedAt: time(item.addedAt)
        )
    }

    static func bookRead(_ reading: Reading) -> BookRead {
        BookRead(
            title: reading.title, author: reading.author, isbn13: reading.isbn13, rating: reading.rating, review: reading.review,
            finished: reading.finished?.text, updatedAt: time(reading.updatedAt)
        )
    }

    /// Readable JSON: indented, keys in a fixed order, `snake_case` like the app's form fields.
    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return Array(try encoder.encode(self))
    }
}
