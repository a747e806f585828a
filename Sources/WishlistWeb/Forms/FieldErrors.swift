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

/// The reading form's words for the core's ``ReadingProblem``s, each beside its field.
enum ReadingFormFields {
    static func errors(_ problems: [ReadingProblem]) -> FieldErrors {
        var errors = FieldErrors()
        for problem in problems {
            switch problem {
            case .rating: errors["rating"] = "Choose from one to five stars, or no rating."
            case .reviewTooLong(let characters):
                errors["review"] = "Reviews can be up to 5,000 characters; this one has \(characters). Shorten it and save again."
            case .finishedInFuture: errors["finished"] = "The date you finished can’t be in the future."
            case .finishedUnreadable:
                errors["finished"] = "Give the date you finished as year, month and day (for example 2026-03-14), or leave it empty."
            }
        }
        return errors
    }
}

/// "Type it in"'s words for the core's ``NewBookProblem``s, each beside its field.
enum NewBookFormFields {
    static func errors(_ problems: [NewBookProblem]) -> FieldErrors {
        var errors = FieldErrors()
        for problem in problems {
            switch problem {
            case .titleMissing: errors["title"] = "Give the book’s title."
            case .titleTooLong(let characters):
                errors["title"] = "A title can be up to \(NewBookInput.titleMaximumLength) characters; this one has \(characters)."
            case .authorMissing: errors["author"] = "Give the author, or the first of them."
            case .authorTooLong(let characters):
                errors["author"] = "An author can be up to \(NewBookInput.authorMaximumLength) characters; this has \(characters)."
            case .isbn(let problem): errors["isbn"] = problem.sentence
            case .link: errors["link"] = "A link starts with http:// or https:// and names a site (for example https://example.org/book)."
            }
        }
        return errors
    }
}
