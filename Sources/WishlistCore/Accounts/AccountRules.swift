import WishlistLanguages

/// What makes a username, e-mail address and password acceptable, with the sentence to show
/// beside the field when one is not.
public enum AccountRules {
    public static let usernameLengths = 3...32
    public static let passwordLengths = 8...1024
    public static let emailMaximumLength = 254

    /// Letters, digits, `.`, `_` and `-`, ASCII only so that no two names look alike.
    public static func usernameProblem(_ username: String) -> String? {
        if username.isEmpty { return Translations.marked("Enter a username.") }
        guard usernameLengths.contains(username.count) else {
            return "Use \(usernameLengths.lowerBound) to \(usernameLengths.upperBound) characters."
        }
        let allowed = username.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
        return allowed ? nil : Translations.marked("Use only letters, digits, dots, hyphens and underscores.")
    }

    /// Counted in characters as the person typed them; nothing is trimmed or truncated.
    public static func passwordProblem(_ password: String) -> String? {
        if password.isEmpty { return Translations.marked("Enter a password.") }
        if password.count < passwordLengths.lowerBound {
            return "Use at least \(passwordLengths.lowerBound) characters."
        }
        if password.count > passwordLengths.upperBound {
            return "Use at most \(passwordLengths.upperBound) characters."
        }
        return nil
    }

    /// An address mail can be sent to (``MailAddress``): one `@`, a plain local part, a host
    /// name with a dot. Only the mailbox's owner can prove more, by its confirmation link.
    public static func emailProblem(_ email: String) -> String? {
        MailAddress(email) == nil ? Translations.marked("Enter an e-mail address like name@example.com, or leave it empty.") : nil
    }

    /// The form in which uniqueness is decided: "Alice" and "alice" are one account.
    static func key(_ text: String) -> String {
        text.lowercased()
    }
}
