import Hummingbird
import WishlistCore
import WishlistLanguages

/// The pages behind one-time links that no longer work, each saying which case it is, so the
/// person knows what to ask for.
extension PageError {
    public static let invitationOnly = PageError(
        .notFound, title: Translations.marked("Accounts by invitation"),
        message: Translations.marked("On this server accounts are made by invitation. Ask its admin for an invite link, then open that link.")
    )

    public static func invite(_ state: LinkState) -> PageError {
        switch state {
        case .expired:
            return PageError(.gone, title: Translations.marked("This invite has expired"), message: Translations.marked("Invites work for 7 days, and this one is older. Ask the admin for a new one."))
        case .used:
            return PageError(.gone, title: Translations.marked("This invite has been used"), message: Translations.marked("Each invite makes one account, and this one already did. If it was you, sign in; otherwise ask the admin for a new invite."))
        case .unknown, .valid:
            return PageError(.notFound, title: Translations.marked("This invite doesn’t work"), message: Translations.marked("There is no such invite, or it was revoked. Check that the whole link was copied, or ask the admin for a new one."))
        }
    }

    /// The setup link (``SetupLinks``) once it made the admin, or before a newer start replaced it.
    public static func setupLink(_ state: LinkState) -> PageError {
        switch state {
        case .used, .expired:
            return PageError(.gone, title: Translations.marked("This server is set up"), message: Translations.marked("Its setup link made an admin already, so it works no more. Sign in, or ask the admin for an account."))
        case .unknown, .valid:
            return PageError(.notFound, title: Translations.marked("This setup link doesn’t work"), message: Translations.marked("There is no such setup link: each start of the server prints a new one while it has no admin, and only the newest works. Copy the whole link from the server’s output."))
        }
    }

    public static func resetLink(_ state: LinkState) -> PageError {
        switch state {
        case .expired:
            return PageError(.gone, title: Translations.marked("This link has expired"), message: Translations.marked("Password-reset links work for 24 hours when an admin makes them and for an hour when they come by mail, and this one is older. Ask for a new one."))
        case .used:
            return PageError(.gone, title: Translations.marked("This link has been used"), message: Translations.marked("A password-reset link works once, and this one already set a password. Sign in with it, or ask the admin for a new link."))
        case .unknown, .valid:
            return PageError(.notFound, title: Translations.marked("This link doesn’t work"), message: Translations.marked("There is no such password-reset link, or a newer one replaced it. Check that the whole link was copied, or ask the admin for a new one."))
        }
    }

    /// The link is the address's, but another account confirmed the address first.
    public static let addressConfirmedByAnother = PageError(
        .conflict, title: Translations.marked("This address belongs to another account"),
        message: Translations.marked("Another account here confirmed this e-mail address first, so this link can’t confirm it. Sign in and give another address in Settings → E-mail.")
    )

    public static func verificationLink(_ state: LinkState) -> PageError {
        switch state {
        case .expired:
            return PageError(.gone, title: Translations.marked("This link has expired"), message: Translations.marked("Confirmation links work for 24 hours and only for the address they were sent to. Sign in and choose “Send again” in Settings for a new one."))
        case .used:
            return PageError(.gone, title: Translations.marked("This link has been used"), message: Translations.marked("Your address is confirmed already: there is nothing more to do."))
        case .unknown, .valid:
            return PageError(.notFound, title: Translations.marked("This link doesn’t work"), message: Translations.marked("There is no such confirmation link. Check that the whole link was copied, or sign in and choose “Send again” in Settings."))
        }
    }
}
