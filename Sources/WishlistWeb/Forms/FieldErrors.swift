import WishlistCore

/// Field name to the sentence shown beside that field.
typealias FieldErrors = [String: String]

/// Which field of an account form shows each of the core's ``AccountProblem``s: the core says
/// what is wrong, each form says where.
struct AccountFormFields {
    let names: [AccountProblem: String]

    static let signUp = Self(names: [.username: "username", .email: "email", .password: "password", .passwordConfirmation: "password_confirm"])
    static let passwordChange = Self(names: [.password: "new_password", .passwordConfirmation: "new_password_confirm", .currentPassword: "current_password"])
    static let passwordReset = Self(names: [.password: "new_password", .passwordConfirmation: "new_password_confirm"])
    static let accountDeletion = Self(names: [.currentPassword: "delete_password", .lastAdmin: "delete_password", .lastManager: "delete_password"])
    static let singleSignOnLink = Self(names: [.currentPassword: "link_password"])

    /// The problems by field; one this form has no field for is shown at the top (`form`).
    func errors(_ problems: AccountProblems) -> FieldErrors {
        var errors = FieldErrors()
        for (problem, sentence) in problems {
            errors[names[problem] ?? "form"] = sentence
        }
        return errors
    }
}
