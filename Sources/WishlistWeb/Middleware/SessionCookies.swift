import Hummingbird
import WishlistCore

/// The session cookie's name and attributes.
public struct SessionCookies: Sendable {
    /// Behind HTTPS: `Secure` and the `__Host-` prefix, which browsers honour only for cookies
    /// that are secure, host-only and for the whole site.
    let secure: Bool

    public var name: String { secure ? "__Host-wishlist_session" : "wishlist_session" }

    /// A cookie carrying `token`; `maxAge` nil makes it end with the browser session.
    func cookie(_ token: String, maxAge: Int?) -> Cookie {
        Cookie(name: name, value: token, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// Whether a response already sets the session cookie (a sign-in or sign-out did).
    func isSet(in response: Response) -> Bool {
        response.headers[values: .setCookie].contains { $0.hasPrefix(name + "=") }
    }

    /// Tokens are 43 characters of base64url; anything else is ignored without a lookup.
    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 43 && token.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
