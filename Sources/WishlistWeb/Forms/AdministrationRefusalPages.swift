import WishlistCore
import WishlistLanguages

extension Administration.Refusal {
    /// The page Admin answers a refused change with: its status, and a heading and sentence that
    /// are catalog keys, worded in the admin's language when the page is rendered (issue 53).
    var page: PageError {
        switch self {
        case .noSuchUser:
            PageError(
                .notFound, title: Translations.marked("No such account"),
                message: Translations.marked("There is no such account. It may have been deleted meanwhile.")
            )
        case .lastAdmin:
            PageError(
                .conflict, title: Translations.marked("Not allowed for your own account"),
                message: Translations.marked(
                    "That would leave the server without an admin, so nothing changed. Make someone else an admin first (wishlist user promote NAME)."
                )
            )
        case .yourself:
            PageError(
                .conflict, title: Translations.marked("Not allowed for your own account"),
                message: Translations.marked("You can’t disable your own account while signed in with it.")
            )
        case .noLongerAdmin:
            PageError(
                .forbidden, title: Translations.marked("No longer an admin"),
                message: Translations.marked("Your account is no longer an admin, so nothing changed. Another admin, or the command line, changed it meanwhile.")
            )
        case .lastManager:
            PageError(
                .conflict, title: Translations.marked("A child’s profile needs a manager"),
                message: Translations.marked(
                    "That account is the only manager of a child’s profile, so nothing changed. Delete the child’s profile first, or have its manager add a co-manager or hand it over."
                )
            )
        }
    }
}
