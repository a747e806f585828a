/// What makes a username, e-mail address and password acceptable, with the ``AccountFault`` the
/// web layer words beside the field when one is not.
public enum AccountRules {
    public static let usernameLengths = 3...32
    public static let passwordLengths = 8...1024
    public static let emailMaximumLength = 254

    /// Letters, digits, `.`, `_` and `-`, ASCII only so that no two names look alike.
    public static func usernameProblem(_ username: String) -> AccountFault? {
        if username.isEmpty { return .usernameMissing }
        guard usernameLengths.contains(username.count) else {
            return .usernameLength(minimum: usernameLengths.lowerBound, maximum: usernameLengths.upperBound)
        }
        let allowed = username.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
        }
        return allowed ? nil : .usernameCharacters
    }

    /// Counted in characters as the person typed them; nothing is trimmed or truncated.
    public static func passwordProblem(_ password: String) -> AccountFault? {
        if password.isEmpty { return .passwordMissing }
        if password.count < passwordLengths.lowerBound {
            return .passwordTooShort(minimum: passwordLengths.lowerBound)
        }
        if password.count > passwordLengths.upperBound {
            return .passwordTooLong(maximum: passwordLengths.upperBound)
        }
        return nil
    }

    /// An address mail can be sent to (``MailAddress``): one `@`, a plain local part, a host
    /// name with a dot. Only the mailbox's owner can prove more, by its confirmation link.
    public static func emailProblem(_ email: String) -> AccountFault? {
        MailAddress(email) == nil ? .emailMalformed : nil
    }

    /// What is wrong with a new account's fields, as sign-up and a child's hand-over check them:
    /// `username` nil when the account keeps the one it has; an empty e-mail is allowed.
    static func newAccountProblems(username: String?, email: String, password: String, confirmation: String) -> AccountProblems {
        var problems = AccountProblems()
        if let username { problems[.username] = usernameProblem(username) }
        if !email.isEmpty { problems[.email] = emailProblem(email) }
        problems[.password] = passwordProblem(password)
        if confirmation != password { problems[.passwordConfirmation] = .passwordsDiffer }
        return problems
    }

    /// The form in which uniqueness is decided: "Alice" and "alice" are one account.
    static func key(_ text: String) -> String {
        text.lowercased()
    }
}
