import WishlistLanguages
import WishlistTemplates

/// The pages Settings is split into (issue 36), each a few forms long, so that on a phone each
/// fits in about two screens (a page over 1,600 px at 360 px wide was split again). `/settings` lists them, with Profile (``ProfileController``) first;
/// every section page starts with the same list, its own entry marked current.
enum SettingsSection: String, CaseIterable, Sendable {
    /// The start page, the favourite lists and the feed of their new books.
    case lists
    /// Who sees the wishlist, and the share link.
    case sharing
    /// The address and the weekly digest; only with mail on.
    case email
    /// Changing the password.
    case password
    /// Passkeys, single sign-on and the signed-in browsers.
    case signIn = "sign-in"
    /// Personal API tokens for scripts and home servers (issue 54).
    case apiTokens = "api-tokens"
    /// The language her pages are in (issue 53).
    case language
    /// Download my data, and deleting the account.
    case data

    var route: Route {
        switch self {
        case .lists: .settingsLists
        case .sharing: .settingsSharing
        case .email: .settingsEmail
        case .password: .settingsPassword
        case .signIn: .settingsSignIn
        case .data: .settingsData
        case .apiTokens: .settingsAPITokens
        case .language: .settingsLanguage
        }
    }

    var path: String { route.path() }
    var template: String { "settings/\(rawValue).html" }

    /// The page's title and heading.
    var title: String {
        switch self {
        case .lists: Translations.marked("Lists and feed")
        case .sharing: Translations.marked("Sharing")
        case .email: Translations.marked("E-mail")
        case .password: Translations.marked("Password")
        case .signIn: Translations.marked("Passkeys and sign-in")
        case .apiTokens: Translations.marked("API tokens")
        case .language: Translations.marked("Language")
        case .data: Translations.marked("Your data")
        }
    }

    /// The entry's name in the section list: short, so the list wraps to two rows at most on a phone.
    var label: String {
        switch self {
        case .lists: Translations.marked("Lists")
        case .sharing: Translations.marked("Sharing")
        case .email: Translations.marked("E-mail")
        case .password: Translations.marked("Password")
        case .signIn: Translations.marked("Sign-in")
        case .apiTokens: Translations.marked("API")
        case .language: Translations.marked("Language")
        case .data: Translations.marked("Your data")
        }
    }

    /// The line under the entry on `/settings`.
    var summary: String {
        switch self {
        case .lists: Translations.marked("The list that opens first, your favourite lists and the feed of their new books.")
        case .sharing: Translations.marked("Who sees your wishlist, and your share link.")
        case .email: Translations.marked("Your address and the weekly digest.")
        case .password: Translations.marked("Change your password.")
        case .signIn: Translations.marked("Passkeys, single sign-on and where you are signed in.")
        case .apiTokens: Translations.marked("Tokens that let your scripts and home server read or change your wishlist.")
        case .language: Translations.marked("The language of your pages, or your browser’s.")
        case .data: Translations.marked("Download everything about you, or delete your account.")
        }
    }

    /// The section whose page holds the form that posts to `path`, for forms outside this
    /// controller too (passkeys, single sign-on); nil when no section has it.
    static func holding(formAt path: String) -> SettingsSection? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 2, parts[0] == "settings" else { return nil }
        switch parts[1] {
        case "default-list", "feed-link": return .lists
        case "sharing", "share-link": return .sharing
        case "email", "digest": return .email
        case "password": return .password
        case "sessions", "passkeys", "single-sign-on": return .signIn
        case "api-tokens": return .apiTokens
        case "language": return .language
        case "export", "delete-account": return .data
        default: return nil
        }
    }

    /// The section list (`partials/settings-nav.html`): Profile, then each section, `current`'s
    /// entry marked, in the page's language; the e-mail section only when the server sends mail.
    static func navigation(current: SettingsSection?, mail: Bool, in translations: Translations) -> TemplateValue {
        let profile: TemplateValue = [
            "path": .string(SitePath.profile), "label": .string(translations.text("Profile")), "current": false,
            "summary": .string(translations.text("Your picture, a few words about you, your birthday and favourite books.")),
        ]
        let sections = allCases.filter { $0 != .email || mail }.map { section -> TemplateValue in
            [
                "path": .string(section.path), "label": .string(translations.text(section.label)), "current": .bool(section == current),
                "summary": .string(translations.text(section.summary)),
            ]
        }
        return .array([profile] + sections)
    }
}
