import Hummingbird
import Testing
@testable import WishlistWeb

/// `Request.cookieValue` finds a cookie without parsing them all; it must read a header exactly as
/// Hummingbird's `Cookies` does, since the session, flash and sort cookies go through it.
@Suite("Reading one cookie")
struct RequestCookiesTests {
    static let headers = [
        "wishlist_session=abc",
        "a=1; wishlist_session=tok-en_9; b=2",
        "wishlist_session=first; wishlist_session=second",
        "other=x;wishlist_session=no-space",
        "  wishlist_session=leading-spaces ;x=y",
        "wishlist_session=",
        "wishlist_session",
        "wishlist_session_old=1; xwishlist_session=2",
        "wishlist_session=a=b=c",
        ";;wishlist_session=after-empties",
        "\twishlist_session=after-a-tab",
        "=nameless; wishlist_session=named",
        "wishlist_session=trailing;",
        "a=1;wishlist_session",
        "café=crème; wishlist_session=naïve-ü",
        "wishlist_sessioné=1; wishlist_session=2",
        "",
    ]

    @Test("the same value as Hummingbird's cookie parser", arguments: headers)
    func sameAsHummingbird(header: String) {
        #expect(Request.cookieValue("wishlist_session", in: header) == Cookies(from: [header])["wishlist_session"]?.value)
    }

    @Test func nameMustMatchWhole() {
        #expect(Request.cookieValue("wishlist_session", in: "wishlist_session_old=1; xwishlist_session=2") == nil)
        #expect(Request.cookieValue("wishlist_session", in: "a=1; wishlist_session=tok; b=2") == "tok")
        #expect(Request.cookieValue("wishlist_session", in: "wishlist_session=first; wishlist_session=second") == "first")
    }
}
