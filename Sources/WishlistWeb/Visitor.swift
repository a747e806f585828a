import WishlistCore
import WishlistLanguages

/// Who is making a request: a signed-in user, or an anonymous browser.
///
/// Every browser holds a random token in the session cookie. For a signed-in user it names a row
/// of the `session` table; for anyone else it exists only to bind the CSRF token, so that sign-in
/// and sign-up forms are protected too.
public struct Visitor: Sendable {
    public struct SignedIn: Sendable, Equatable {
        public let userID: UserID
        public let username: String
        /// What the header's "Me" menu calls them (``MemberName``).
        public let name: String
        /// The stored session; nil for a request the trusted header signed in for itself alone
        /// (``TrustedHeaderMiddleware``).
        public let sessionID: SessionID?
        public var isAdmin = false
        public var wishlistCount = 0
        /// The language she chose in Settings; nil follows her browser.
        public var language: String?
        /// The code of the language her pages are in now (``LanguageChoice``), which the shared
        /// pages' keys hold: set before a page's loader runs.
        public var pageLanguage = "en"
    }

    public var signedIn: SignedIn?
    /// The value of the session cookie.
    var sessionToken: String
    /// The hidden `csrf_token` field every form of this visitor must carry.
    public var csrfToken: String
    /// A confirmation to show once, set by `FlashMiddleware`.
    public var flash: PageFlash?
    /// The language the visitor reads: pages render in it, and Swift code words its messages with
    /// `translations.text("…", values: […])`.
    package var translations = Translations()
    /// The hash of the pages' stylesheet the browser says it holds (``PageStylesheet/cookieName``):
    /// a page links the sheet when it is the current one, and carries it inline otherwise.
    var heldStylesheet: String?

    static let unidentified = Visitor(signedIn: nil, sessionToken: "", csrfToken: "")
}
