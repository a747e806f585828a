import WishlistCore
import WishlistLanguages

extension AccountFault {
    /// The sentence beside the field, in the reader's language, with the fault's values (issue 53).
    func sentence(in translations: Translations) -> String {
        switch self {
        case .usernameMissing:
            translations.text("Enter a username.")
        case .usernameLength(let minimum, let maximum):
            translations.text(
                "Use {minimum} to {maximum} characters.",
                values: ["minimum": translations.language.formatted(minimum), "maximum": translations.language.formatted(maximum)]
            )
        case .usernameCharacters:
            translations.text("Use only letters, digits, dots, hyphens and underscores.")
        case .usernameTaken:
            translations.text("That username isn’t available. Choose another.")
        case .emailMalformed:
            translations.text("Enter an e-mail address like name@example.com, or leave it empty.")
        case .passwordMissing:
            translations.text("Enter a password.")
        case .passwordTooShort(let minimum):
            translations.text(one: "Use at least {count} character.", other: "Use at least {count} characters.", count: minimum)
        case .passwordTooLong(let maximum):
            translations.text(one: "Use at most {count} character.", other: "Use at most {count} characters.", count: maximum)
        case .passwordsDiffer:
            translations.text("The two passwords differ.")
        case .wrongPassword(current: true):
            translations.text("That is not your current password.")
        case .wrongPassword(current: false):
            translations.text("That is not your password.")
        case .accountGone:
            translations.text("Your account no longer exists.")
        case .noPasswordAndNoRecentSignIn:
            translations.text("Your account has no password, so linking needs a recent sign-in: sign out, sign in again, and link within ten minutes.")
        case .lastAdmin:
            translations.text("You are the only admin, so your account can’t be deleted: the server would have no admin. Make someone else an admin first (wishlist user promote NAME).")
        case .lastManager:
            translations.text("You are the only manager of a child’s profile, so your account can’t be deleted yet: add a co-manager or hand the profile over on its Manage page (People), or ask an admin to delete it.")
        }
    }

    /// The sentence in English: for the command line (`wishlist user create`), which an operator reads.
    package var englishSentence: String {
        sentence(in: Translations())
    }
}
