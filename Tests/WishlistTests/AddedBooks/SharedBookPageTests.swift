import Testing
@testable import WishlistCore

/// Issue 52: a page shared into the app (the manifest's share target) goes to its ISBN's look-up
/// when its URL, text or title holds one, else to a search for its title.
@Suite("Share target: an ISBN in what was shared, or its title")
struct SharedBookPageTests {
    static let stormWatch = "9780593331309"

    @Test(arguments: [
        // Amazon's book pages are /dp/ and /gp/product/ with the ISBN-10 (a book's ASIN).
        "https://www.amazon.com/dp/0593331303?tag=NYTBSREV-20",
        "https://www.amazon.com/Storm-Watch-Joe-Pickett-Novel/dp/0593331303/ref=sr_1_1?crid=2Q&keywords=storm+watch",
        "https://www.amazon.co.uk/gp/product/0593331303/ref=ppx_yo_dt_b_asin_title",
        "https://openlibrary.org/isbn/9780593331309",
        "https://bookshop.org/book/9780593331309",
        "https://bookshop.org/p/books/storm-watch-c-j-box/18771519?ean=9780593331309",
        // Barnes & Noble's path ends in a number of its own, ten digits long.
        "https://www.barnesandnoble.com/w/storm-watch-c-j-box/1141870426?ean=9780593331309",
        "https://books.google.com/books?vid=ISBN9780593331309",
        "https://www.goodreads.com/book/isbn/0593331303",
        "https://search.worldcat.org/search?q=bn:978-0-593-33130-9",
    ])
    func anISBNInTheURLGoesToItsLookUp(url: String) {
        #expect(SharedBookPage(title: "Storm Watch", text: "", url: url).destination == .lookUp(try! ISBN(Self.stormWatch)))
    }

    @Test(arguments: [
        ("", "Look at this one: 978-0-593-33130-9", ""),
        ("", "ISBN 0-593-33130-3", ""),
        ("", "Storm Watch https://www.amazon.com/dp/0593331303", ""),
        ("Storm Watch: A Joe Pickett Novel: Box, C.J.: 9780593331309: Amazon.com: Books", "", ""),
    ])
    func anISBNInTheTextOrTitleGoesToItsLookUp(title: String, text: String, url: String) {
        #expect(SharedBookPage(title: title, text: text, url: url).destination == .lookUp(try! ISBN(Self.stormWatch)))
    }

    @Test(arguments: [
        // Goodreads' own numbers, an ASIN, Apple's ids: no ISBN among them.
        "https://www.goodreads.com/book/show/61273035-storm-watch",
        "https://www.amazon.com/dp/B0BXYZ1234",
        "https://books.apple.com/us/book/storm-watch/id6443829334",
        // A number that looks like an ISBN-10 outside a shop's place for one, and a mistyped ISBN-13.
        "https://example.com/articles/0593331303",
        "https://bookshop.org/book/9780593331308",
    ])
    func anythingElseSearchesForTheTitle(url: String) {
        #expect(SharedBookPage(title: "Storm Watch", text: "", url: url).destination == .search("Storm Watch"))
    }

    @Test func withoutATitleTheTextIsSearchedWithoutItsLinksAndNothingAtAllAddsABook() {
        #expect(SharedBookPage(title: "", text: "Storm  Watch\nhttps://www.goodreads.com/book/show/61273035", url: "").destination == .search("Storm Watch"))
        #expect(SharedBookPage(title: "", text: "", url: "").destination == .addBook)
        #expect(SharedBookPage(title: "  ", text: "https://example.com/x", url: "https://example.com/y").destination == .addBook)
        let long = String(repeating: "word ", count: 100)
        guard case .search(let query) = SharedBookPage(title: long, text: "", url: "").destination else {
            Issue.record("a long title is searched for")
            return
        }
        #expect(query.count == SharedBookPage.searchMaximumLength)
    }
}
