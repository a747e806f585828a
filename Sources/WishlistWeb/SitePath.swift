import WishlistCore

/// The paths the Swift code links and redirects to, each built in one place. The route table
/// (each controller's `addRoutes`) matches them; templates link with the `path` values built here
/// where a page shows items, and write the fixed section paths (`/lists`, `/wishlist`) themselves.
enum SitePath {
    static let signIn = "/login"
    static let catalog = "/lists"
    static let wishlist = "/wishlist"
    static let wishlistImport = "/wishlist/import"
    static let received = "/wishlist/received"
    static let profile = "/settings/profile"
    static let profilePicture = "/settings/profile/picture"
    static func picture(_ key: String, size: Int) -> String { "/pictures/\(key)-\(size).jpg" }
    static func cover(_ key: String, _ size: CoverSize) -> String { "/covers/\(key)-\(size.name).jpg" }
    static let newBook = "/books/new"
    /// A photo of a book's barcode, posted from `/books/new`.
    static let scanBook = "/books/new/scan"
    /// The look-up of an ISBN, where a scan or a shared page leads.
    static func lookUp(isbn: String) -> String { newBook + "?isbn=" + isbn }
    static let people = "/people"
    static let reservations = "/reservations"

    /// The sign-in page, returning to `next` (a local path) afterwards.
    static func signIn(returningTo next: String) -> String {
        signIn + "?next=" + LocalPath.percentEncoded(next)
    }

    static func list(_ nameEncoded: String) -> String { catalog + "/" + nameEncoded }
    static func book(_ id: String) -> String { "/books/" + id }
    static func bookReading(_ id: String) -> String { book(id) + "/reading" }
    static let reading = "/reading"
    static func wishlistItem(_ id: ItemID) -> String { wishlist + "/\(id)" }
    /// One of the visitor's lists: the wishlist filtered to it (issue 51).
    static func wishList(_ id: ListID) -> String { wishlist + "?list=\(id)" }
    static func wishListEdit(_ id: ListID) -> String { wishlist + "/lists/\(id)" }
    static let newWishList = "/wishlist/lists/new"
    /// Usernames are ASCII letters, digits, `.`, `-` and `_`, all safe in a path as they are.
    static func person(_ username: String) -> String { people + "/" + username }
    static func ideas(_ username: String) -> String { person(username) + "/ideas" }
    /// A member's shared list, a stable address (issue 51).
    static func personList(_ username: String, _ list: ListID) -> String { person(username) + "/lists/\(list)" }
    static func personReading(_ username: String) -> String { person(username) + "/reading" }
    static func sharedList(_ token: String) -> String { "/shared/" + token }
    static func favoritesFeed(_ token: String) -> String { "/feeds/" + token + "/favorites.atom" }
    static func authorsFeed(_ token: String) -> String { "/feeds/" + token + "/authors.atom" }
    /// The household's birthdays and occasions (issue 51), behind the feed link's token.
    static func occasionsCalendar(_ token: String) -> String { "/calendar/" + token + ".ics" }
    /// An author's page, by their key (``AuthorKey``) with hyphens for spaces: "/authors/brene-brown".
    /// The page takes any spelling of the name, since it reads the key of what it is given.
    static func author(_ key: String) -> String {
        "/authors/" + PercentEncoding.encode(key.replacingOccurrences(of: " ", with: "-"))
    }
    static func passwordReset(_ token: String) -> String { "/reset/" + token }
    static func signUp(invite token: String) -> String { "/signup?invite=" + token }
    static func setup(_ token: String) -> String { "/setup/" + token }
    /// Where every sign-up ends: display name, birthday and sharing, then People (issue 57).
    static let welcome = "/welcome"
    static func admin(done: String) -> String { "/admin?done=" + done }

    static let settings = "/settings"

    /// A settings section's page at the confirmation named `done` (`SettingsController.confirmations`).
    static func settings(_ section: SettingsSection, done: String) -> String {
        LocalPath.atConfirmation(section.path + "?done=" + done)
    }
}
