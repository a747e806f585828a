import Testing
@testable import WishlistCore

/// A cover's key names its files on disk and its URL: the cover job, the pages and the mix's
/// database (Benchmarks/server/mix.py, Python's `hashlib`) must all make the same one.
@Suite("A cover's key")
struct CoverKeyTests {
    @Test(arguments: [
        // Its third byte, 0x0c, keeps its leading zero.
        ("https://storage.googleapis.com/du-prd/books/images/9780593321201.jpg", "ced00c688d593f9ddc5f1560"),
        ("", "e3b0c44298fc1c149afbf4c8"),
    ])
    func isTheFirst96BitsOfTheAddressesSHA256InLowercaseHex(url: String, key: String) {
        #expect(CoverKey.of(url) == key)
        #expect(CoverKey.isWellFormed(Substring(CoverKey.of(url))))
    }
}
