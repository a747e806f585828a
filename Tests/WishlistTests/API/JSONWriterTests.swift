import Foundation
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 54: the API's answers are written by their types (``JSONWritable``) rather than by
/// Foundation's `JSONEncoder`, and every one is the bytes the encoder wrote from its synthesized
/// `Encodable`: nil left out, escapes, non-ASCII, dates and numbers alike.
@Suite("API: the JSON writer")
struct JSONWriterTests {
    /// The encoder the API answered with before the writer: the reference the writer must match.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func expectSame(_ value: some JSONWritable & Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let encoded = try encoder().encode(value)
        let written = JSONWriter.bytes(of: value)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self), sourceLocation: sourceLocation)
        #expect(written == Array(encoded), sourceLocation: sourceLocation)
    }

    /// Text that needs escaping, or must be left as it is.
    static let texts = [
        "", "Plain", #"A "quote", a \ backslash"#, "a/b </script>", "line\nbreak\ttab\rreturn\u{8}\u{C}", "\u{0}\u{1}\u{1F}\u{7F}",
        "Brené Brown — “Atlas” 😀\u{2028}\u{2029}", "日本語の本", "null", "{\"not\": \"json\"}",
    ]

    /// Seconds since 1970: whole and not (rounded down), before 1970, a leap day, the last second of 9999.
    static let dates = [0, 1.9995, 1_796_032_800.7, -1.5, 951_782_400, 4_102_444_799.999, 253_402_300_799].map(Date.init(timeIntervalSince1970:))

    static func item(_ text: String, at date: Date, bookID: String?) -> WishlistItem {
        WishlistItem(
            id: ItemID(42), bookID: bookID, title: text, author: text + " author", publisher: "P", description: "D", isbn10: "", isbn13: "9780000000002",
            imageURL: nil, imageWidth: 0, imageHeight: 0, storedBuyLinks: "[]", storedReadingLinks: "[]", note: text, priority: .high, addedAt: date
        )
    }

    static func list(_ text: String, date: String?, isDefault: Bool) -> APIController.List {
        APIController.List(WishList(
            id: ListID(3), ownerID: UserID(1), name: text, occasion: date == nil ? .none : .date, occasionDate: date, visibility: .private,
            isDefault: isDefault, createdAt: Date(timeIntervalSince1970: 0), itemCount: 12
        ))
    }

    @Test func textIsEscapedAsTheEncoderEscapedIt() throws {
        let everyASCII = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for text in Self.texts + [everyASCII] {
            #expect(JSONWriter.bytes(of: text) == Array(try Self.encoder().encode(text)), "\(text.debugDescription)")
        }
    }

    @Test func numbersBoolsAndDatesAreTheEncoders() throws {
        for number in [0, 1, -1, 9, 10, 99, 100, 1_234_567, Int64.max, Int64.min] {
            #expect(JSONWriter.bytes(of: number) == Array(try Self.encoder().encode(number)), "\(number)")
        }
        #expect(JSONWriter.bytes(of: [true, false]) == Array(try Self.encoder().encode([true, false])))
        #expect(JSONWriter.bytes(of: [Int]()) == Array("[]".utf8))
        for date in Self.dates {
            #expect(JSONWriter.bytes(of: date) == Array(try Self.encoder().encode(date)), "\(date.timeIntervalSince1970)")
        }
        #expect(String(decoding: JSONWriter.bytes(of: Date(timeIntervalSince1970: 1_796_032_800.7)), as: UTF8.self) == #""2026-11-30T10:00:00Z""#)
    }

    @Test func herWantsAreTheEncoders() throws {
        for (text, date) in zip(Self.texts, Self.dates.cycled(to: Self.texts.count)) {
            for bookID in [nil, "9780000000002"] {
                let wants = [APIController.Want(Self.item(text, at: date, bookID: bookID), lists: []), .init(Self.item(text, at: date, bookID: bookID), lists: [ListID(1), ListID(3)])]
                for want in wants { try Self.expectSame(want) }
                try Self.expectSame(APIController.WantsPage(wants, of: PagedList(items: [0, 1], total: 201, number: 2)))
            }
        }
        try Self.expectSame(APIController.WantsPage([APIController.Want](), of: PagedList<Int>(items: [], total: 0, number: 1)))
    }

    @Test func aGiversViewOfAWantIsTheEncoders() throws {
        let caller = APICaller(userID: UserID(2), username: "sam", tokenID: APITokenID(1), scope: .read)
        let holders: [HeldItem.Holder?] = [
            nil, .init(id: UserID(2), name: "Sam", bought: true, card: "Happy birthday"), .init(id: UserID(5), name: "Léa \"L\"", bought: false, card: ""),
            .init(id: nil, name: HeldItem.Holder.guestName("Grandpa"), bought: false, card: ""),
        ]
        var shared: [APIController.SharedWant] = []
        for (text, holder) in zip(Self.texts, holders.cycled(to: Self.texts.count)) {
            for bookID in [nil, "9780000000002"] {
                let want = APIController.sharedWant(
                    HeldItem(item: Self.item(text, at: Self.dates[1], bookID: bookID), holder: holder), placed: [ListID(7)], caller: caller
                )
                try Self.expectSame(want)
                shared.append(want)
            }
        }
        try Self.expectSame(APIController.WantsPage(shared, of: PagedList(items: shared, total: shared.count, number: 1)))
    }

    /// Her want and a giver's view share their fields (``APIController/WantFields``), each answer
    /// one flat object as before: these bytes are what the API answered when each was a type of its own.
    @Test func aWantAndAGiversViewAreTheSameFlatObjectsAsBefore() throws {
        let item = Self.item("Atlas", at: Self.dates[2], bookID: "9780000000002")
        let want = APIController.Want(item, lists: [ListID(1), ListID(3)])
        #expect(String(decoding: JSONWriter.bytes(of: want), as: UTF8.self) == #"{"added_at":"2026-11-30T10:00:00Z","author":"Atlas author","book_id":"9780000000002","id":42,"isbn13":"9780000000002","lists":[1,3],"note":"Atlas","priority":"high","title":"Atlas"}"#)
        let caller = APICaller(userID: UserID(2), username: "sam", tokenID: APITokenID(1), scope: .read)
        let taken = APIController.sharedWant(HeldItem(item: Self.item("Atlas", at: Self.dates[2], bookID: nil), holder: .init(id: UserID(5), name: "Léa", bought: false, card: "")), placed: [ListID(7)], caller: caller)
        #expect(String(decoding: JSONWriter.bytes(of: taken), as: UTF8.self) == #"{"author":"Atlas author","bought":false,"id":42,"isbn13":"9780000000002","lists":[7],"note":"Atlas","priority":"high","reservation":"taken","reserved_by":"Léa","title":"Atlas"}"#)
        let open = APIController.sharedWant(HeldItem(item: item, holder: nil), placed: [], caller: caller)
        #expect(String(decoding: JSONWriter.bytes(of: open), as: UTF8.self) == #"{"author":"Atlas author","book_id":"9780000000002","id":42,"isbn13":"9780000000002","lists":[],"note":"Atlas","priority":"high","reservation":"open","title":"Atlas"}"#)
    }

    @Test func listsAndTheCatalogAreTheEncoders() throws {
        for text in Self.texts {
            let lists = [Self.list(text, date: nil, isDefault: true), Self.list(text, date: "2026-12-24", isDefault: false)]
            for list in lists { try Self.expectSame(list) }
            #expect(JSONWriter.bytes(of: APIResponse.Named("lists", lists)) == Array(try Self.encoder().encode(["lists": lists])))
            let summary = ListSummary(nameEncoded: "hardcover-fiction", displayName: text, frequency: .weekly, publishedDate: "2026-11-22", fetchedAt: nil, bookCount: 15)
            let catalogList = APIController.CatalogList(summary)
            try Self.expectSame(catalogList)
            #expect(JSONWriter.bytes(of: APIResponse.Named("lists", [catalogList])) == Array(try Self.encoder().encode(["lists": [catalogList]])))
            let listed = APIController.ListedBookBody(rank: 1, weeksOnList: 104, bookId: "9780000000002", title: text, author: text)
            try Self.expectSame(APIController.CatalogListPage(list: catalogList, books: [listed, listed]))
            try Self.expectSame(APIController.CatalogListPage(list: catalogList, books: []))
            try Self.expectSame(APIController.Book(id: "9780000000002", title: text, author: text, publisher: text, description: text, isbn10: "000000000X", isbn13: ""))
            let found = APIController.FoundBook(id: "9780000000002", title: text, author: text)
            try Self.expectSame(APIController.SearchPage(books: [found, found], total: 2, page: 1, pages: 1))
            try Self.expectSame(APIController.SearchPage(books: [], total: 0, page: 1, pages: 1))
        }
    }

    @Test func theHouseholdIsTheEncoders() throws {
        for text in Self.texts {
            let person = APIController.Person(username: "maya.b-2_x", name: text, wantCount: 0)
            try Self.expectSame(APIController.PeoplePage(people: [person, person], total: 102, page: 2, pages: 2))
            try Self.expectSame(APIController.PeoplePage(people: [], total: 0, page: 1, pages: 1))
            try Self.expectSame(APIController.PersonBody(username: "maya", name: text, wantCount: 3, lists: [Self.list(text, date: "2027-01-01", isDefault: false)]))
            try Self.expectSame(APIController.PersonBody(username: "maya", name: text, wantCount: 0, lists: []))
        }
    }

    @Test func giftsAndReservationsAreTheEncoders() throws {
        let states: [Gift.State] = [
            .reserved(item: Self.item("Atlas", at: Self.dates[2], bookID: nil)), .listHidden(itemID: ItemID(9)), .removed, .listGone,
            .given(receivedAt: Self.dates[2], wishedAgainAt: nil), .idea(id: IdeaID(4), note: "A scarf"),
        ]
        var gifts: [APIController.GiftBody] = []
        for (text, state) in zip(Self.texts, states.cycled(to: Self.texts.count)) {
            for bought in [nil, Self.dates[3]] {
                let gift = APIController.GiftBody(Gift(
                    id: ReservationID(11), ownerName: "maya", ownerShownName: text, title: text, author: text, reservedAt: Self.dates[5], boughtAt: bought, card: "secret card",
                    state: state
                ))
                try Self.expectSame(gift)
                gifts.append(gift)
            }
        }
        #expect(JSONWriter.bytes(of: APIResponse.Named("reservations", gifts)) == Array(try Self.encoder().encode(["reservations": gifts])))
        try Self.expectSame(APIController.ReservationBody(wantId: 12, reservation: "yours"))
    }

    @Test func readingsAreTheEncoders() throws {
        var readings: [APIController.ReadingBody] = []
        for (text, date) in zip(Self.texts, Self.dates.cycled(to: Self.texts.count)) {
            for (bookID, rating, finished) in [(nil, nil, nil), ("9780000000002", 5, FinishedDate("2026-03-14")), ("9780000000003", 0, nil)] as [(String?, Int?, FinishedDate?)] {
                let reading = APIController.ReadingBody(Reading(
                    id: ReadingID(1), bookID: bookID, title: text, author: text, isbn13: "", rating: rating, review: text, finished: finished, updatedAt: date
                ))
                try Self.expectSame(reading)
                readings.append(reading)
            }
        }
        try Self.expectSame(APIController.ReadingsPage(readings: readings, total: 250, page: 3, pages: 3))
        try Self.expectSame(APIController.ReadingsPage(readings: [], total: 0, page: 1, pages: 1))
    }
}

private extension Array {
    /// The elements repeated as often as it takes to have `count`.
    func cycled(to count: Int) -> [Element] {
        (0..<count).map { self[$0 % self.count] }
    }
}
