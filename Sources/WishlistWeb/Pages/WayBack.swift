import Hummingbird
import WishlistLanguages

/// The link an error page offers back to where the person was (issue 36). It is chosen from the
/// request's method and path alone: a page that is missing or not hers leads to the section it
/// belongs to ("Back to People"), a refused form to the page the form is on. The Referer is not
/// read, and the link is always a fixed path or one rebuilt from a part of the request's path
/// checked to be plain letters, digits, `.`, `-` and `_`, so it never leads to another site and
/// never carries what someone typed into the address.
struct WayBack: Equatable, Sendable {
    let path: String
    /// English, the catalogs' key (`Translations.marked`); `{section}` is a Settings page's title.
    let label: String
    var section: String?

    /// The label in `translations`' language.
    func label(in translations: Translations) -> String {
        translations.text(label, values: section.map { ["section": translations.text($0)] } ?? [:])
    }

    static let home = WayBack(path: "/", label: Translations.marked("Back to the best-seller lists"))
    static let lists = WayBack(path: SitePath.catalog, label: Translations.marked("Back to the lists"))
    static let people = WayBack(path: SitePath.people, label: Translations.marked("Back to People"))
    static let wishlist = WayBack(path: SitePath.wishlist, label: Translations.marked("Back to your wishlist"))
    static let received = WayBack(path: SitePath.received, label: Translations.marked("Back to the books you received"))
    static let reading = WayBack(path: SitePath.reading, label: Translations.marked("Back to the books you’ve read"))
    static let reservations = WayBack(path: SitePath.reservations, label: Translations.marked("Back to the gifts you’re giving"))
    static let settings = WayBack(path: SitePath.settings, label: Translations.marked("Back to Settings"))
    static let profile = WayBack(path: SitePath.profile, label: Translations.marked("Back to your profile"))
    static let admin = WayBack(path: Route.admin.path(), label: Translations.marked("Back to Admin"))
    static let search = WayBack(path: Route.search.path(), label: Translations.marked("Back to search"))
    static let signIn = WayBack(path: SitePath.signIn, label: Translations.marked("Back to sign-in"))
    static let signUp = WayBack(path: Route.signUpPage.path(), label: Translations.marked("Back to sign-up"))
    static let newBook = WayBack(path: SitePath.newBook, label: Translations.marked("Back to adding a book"))

    /// The way back from an error answering `method` on `path`.
    static func from(method: HTTPRequest.Method, path: String, status: HTTPResponse.Status) -> WayBack {
        let parts = path.split(separator: "/").map(String.init)
        let refusedForm = method != .get && method != .head && status != .notFound
        return (refusedForm ? formPage(parts) : nil) ?? section(parts)
    }

    /// The section a page belongs to, whose front page is there whatever was asked for.
    private static func section(_ parts: [String]) -> WayBack {
        switch parts.first ?? "" {
        case "lists", "books": .lists
        case "people": .people
        case "wishlist": parts.count > 1 && parts[1] == "received" ? .received : .wishlist
        case "reading": .reading
        case "reservations": .reservations
        case "settings": parts.count > 1 && parts[1] == "profile" ? .profile : .settings
        case "admin": .admin
        case "search": .search
        case "login", "logout", "oidc", "reset", "forgot": .signIn
        case "signup": .signUp
        default: .home
        }
    }

    /// The page holding the form that posts to `parts`, where it is known; nil leads to the section.
    private static func formPage(_ parts: [String]) -> WayBack? {
        let second = parts.count > 1 && isPlain(parts[1]) ? parts[1] : nil
        switch (parts.first ?? "", second) {
        case ("settings", "profile"):
            return .profile
        case ("settings", _):
            return SettingsSection.holding(formAt: "/" + parts.joined(separator: "/"))
                .map { WayBack(path: $0.path, label: Translations.marked("Back to {section}"), section: $0.title) } ?? .settings
        case ("books", "new"):
            return .newBook
        case ("books", let id?):
            return WayBack(path: SitePath.book(id), label: Translations.marked("Back to the book"))
        case ("lists", let list?):
            return WayBack(path: SitePath.list(list), label: Translations.marked("Back to the list"))
        case ("people", let username?):
            return parts.count > 2 && parts[2] == "ideas"
                ? WayBack(path: SitePath.ideas(username), label: Translations.marked("Back to the gift ideas"))
                : WayBack(path: SitePath.person(username), label: Translations.marked("Back to their wishlist"))
        case ("reservations", nil):
            // Reserving is done from a member's page; which one, only the form's body says.
            return .people
        default:
            return nil
        }
    }

    /// Whether a path part can go back into a path as it is: 1 to 100 ASCII letters, digits,
    /// `.`, `-` and `_`, and not `.` or `..`.
    static func isPlain(_ part: String) -> Bool {
        (1...100).contains(part.utf8.count) && part != "." && part != ".."
            && part.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            }
    }
}
