import Foundation
import WishlistCore

/// A Goodreads export as an upload brings it; the date is fixed so that a crash reproduces.
@Sendable func fuzzGoodreadsCSV(_ bytes: [UInt8]) {
    let now = Date(timeIntervalSince1970: 1_780_000_000)
    guard let imported = try? GoodreadsCSV.parse(String(decoding: bytes, as: UTF8.self), now: now, maxRows: 200) else { return }
    require(imported.books.count <= 200, "more books than rows allowed")
    for book in imported.books {
        require(!book.title.isEmpty, "a book without a title")
    }
}

/// What a person types in the ISBN field: whatever is accepted reads back as itself.
@Sendable func fuzzISBN(_ bytes: [UInt8]) {
    guard let isbn = try? ISBN(String(decoding: bytes, as: UTF8.self)) else { return }
    require(isbn.isbn13.count == 13, "an ISBN-13 of \(isbn.isbn13.count) characters")
    require((try? ISBN(isbn.isbn13)) == isbn, "an ISBN-13 that does not read back")
    if let isbn10 = isbn.isbn10 {
        require((try? ISBN(isbn10)) == isbn, "an ISBN-10 that does not read back")
    }
}

/// `X-Forwarded-For` on the first line, `Forwarded` on the second, from a trusted proxy that
/// sets one or the other (by the input's length): the client found is the peer or an address
/// one of the headers named. (The bytes are compared, not
/// the strings: Foundation's `String.contains` traps on some strings with NULs.)
@Sendable func fuzzForwarded(_ bytes: [UInt8]) {
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let forwardedFor = lines.first.map { [$0] } ?? []
    let forwarded = lines.count > 1 ? [lines[1]] : []
    let proxies = [AddressRange("10.0.0.0/8")!, AddressRange("2001:db8::/32")!]
    let believed: ForwardingHeader = bytes.count.isMultiple(of: 2) ? .xForwardedFor : .forwarded
    let client = ForwardedClient(peer: "10.0.0.1", trustedProxies: proxies, believed: believed, forwardedFor: forwardedFor, forwarded: forwarded)
    let named = lines.prefix(2).contains { Array($0.utf8).firstRange(of: Array(client.address.utf8)) != nil }
    require(client.address == "10.0.0.1" || named, "a client no header named")
    require(!client.address.utf8.contains(0), "a client address with a NUL")
    if lines.count > 2 { _ = AddressRange(lines[2]) }
}
