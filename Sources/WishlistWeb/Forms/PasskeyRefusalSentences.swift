import WishlistCore
import WishlistLanguages

extension PasskeyRefusal {
    /// The sentence `passkeys.js` shows, in the reader's language (issue 53).
    func sentence(in translations: Translations) -> String {
        switch self {
        case .malformed(let error):
            error.sentence(in: translations)
        case .wrongType, .wrongOrigin, .wrongRelyingParty:
            translations.text("The passkey answered for another site or another request. Reload this page and try again.")
        case .challengeNotValid:
            translations.text("The passkey request expired or was already used. Try again.")
        case .userNotPresent, .userNotVerified:
            translations.text("Your passkey did not confirm it was you (with a fingerprint, face or PIN). Try again and confirm when asked.")
        case .credentialAlreadyRegistered:
            translations.text("This passkey is already registered here.")
        case .unknownCredential, .anotherUsersCredential:
            translations.text("This passkey is not registered here: it may have been removed. Sign in with your password.")
        case .badSignature:
            translations.text("The passkey’s signature did not check out. Try again.")
        case .signCountNotIncreasing:
            translations.text(
                "This passkey’s use counter went backwards, which a copied passkey does. Sign in with your password, and remove and add the passkey again."
            )
        case .invalidName:
            translations.text(
                "Name the passkey with 1 to {maximum} characters, such as “Phone”.",
                values: ["maximum": translations.language.formatted(RelyingParty.nameLengths.upperBound)]
            )
        case .busy:
            translations.text("Too many passkey requests came from your network just now. Try again in a few minutes.")
        }
    }
}
