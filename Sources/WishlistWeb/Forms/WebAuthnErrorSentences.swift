import WishlistCore
import WishlistLanguages

extension WebAuthnError {
    /// Why a browser's passkey answer could not be read, in the reader's language (issue 53): a
    /// whole sentence for each message it was in, so that no language has to fit a phrase into
    /// another's sentence. Which field, algorithm or CBOR rule stays in the log's English
    /// (`description`): a person signing in can do nothing with it.
    func sentence(in translations: Translations) -> String {
        switch self {
        case .unreadable(.clientData):
            translations.text("The browser’s description of the passkey request could not be read.")
        case .unreadable(.attestationObject):
            translations.text("The new passkey’s registration could not be read.")
        case .unreadable(.publicKey):
            translations.text("The passkey’s public key could not be read.")
        case .malformedCBOR:
            translations.text("The passkey’s answer could not be read.")
        case .missingField(_, .clientData):
            translations.text("The browser’s description of the passkey request is incomplete.")
        case .missingField(_, .attestationObject):
            translations.text("The new passkey’s registration is incomplete.")
        case .missingField(_, .publicKey):
            translations.text("The passkey’s public key is incomplete.")
        case .wrongFieldType(_, .clientData):
            translations.text("The browser’s description of the passkey request is malformed.")
        case .wrongFieldType(_, .attestationObject):
            translations.text("The new passkey’s registration is malformed.")
        case .wrongFieldType(_, .publicKey), .invalidKeyParameter:
            translations.text("The passkey’s public key is malformed.")
        case .invalidChallenge:
            translations.text("The browser’s description of the passkey request holds a garbled challenge.")
        case .authenticatorDataTruncated:
            translations.text("The passkey’s answer is shorter than it should be.")
        case .invalidCredentialIDLength(let length):
            translations.text(
                one: "The passkey’s identifier is {count} byte long; it must be 1 to {maximum} bytes.",
                other: "The passkey’s identifier is {count} bytes long; it must be 1 to {maximum} bytes.",
                count: length, values: ["maximum": translations.language.formatted(AuthenticatorData.maximumCredentialIDLength)]
            )
        case .trailingAuthenticatorData(let count):
            translations.text(one: "The passkey’s answer ends with {count} byte too many.", other: "The passkey’s answer ends with {count} bytes too many.", count: count)
        case .extensionsNotAMap:
            translations.text("The passkey’s answer holds extra data in a form this site does not understand.")
        case .missingAttestedCredential:
            translations.text("The new passkey’s registration does not include its public key.")
        case .unsupportedKeyType, .unsupportedCurve:
            translations.text("This passkey uses a kind of key this site does not support.")
        case .unsupportedAlgorithm:
            translations.text("This passkey uses a signature algorithm this site does not support.")
        case .attestationNotNone, .attestationStatementNotEmpty:
            translations.text("The new passkey came with a certificate from its maker, which this site does not ask for and cannot accept.")
        }
    }
}
