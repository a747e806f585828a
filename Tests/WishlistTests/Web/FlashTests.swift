import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 55: a confirmation is a ``Flash``, not a string a handler builds; the cookie's code reads
/// back as the confirmation it was written from, and a code no form writes is none.
@Suite("Flash: confirmations by name")
struct FlashTests {
    static let every: [Flash] = [
        .added(ItemID(3)), .already(ItemID(3)), .removed, .note, .received, .wishedAgain, .reserved(ItemID(12)), .unreserved,
        .bought, .unbought, .card, .cardRemoved, .idea, .ideaReserved, .bookAdded, .bookKnown, .listMade, .listSaved,
        .listDeleted, .listDeletedWants, .listsPlaced, .read(bookID: "9780593331309", offWishlist: false),
        .read(bookID: "9780593331309", offWishlist: true), .unread,
    ]

    @Test func everyCodeReadsBackAsItsConfirmation() {
        #expect(Set(Self.every.map(\.code)).count == Self.every.count, "two confirmations share a code")
        for flash in Self.every {
            #expect(Flash(code: flash.code) == flash, "\(flash.code)")
        }
    }

    @Test func aCodeNoFormWritesIsNoConfirmation() {
        for code in ["", "added", "added-x", "added-007", "reserved-", "removed-3", "nonsense", "-3", "read"] {
            #expect(Flash(code: code) == nil, "\(code)")
        }
    }
}
