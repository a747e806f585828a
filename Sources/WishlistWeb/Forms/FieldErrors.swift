import WishlistCore
import WishlistLanguages

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

    /// The problems by field, in the reader's language; one this form has no field for is shown at
    /// the top (`form`).
    func errors(_ problems: AccountProblems, in translations: Translations) -> FieldErrors {
        var errors = FieldErrors()
        for (problem, fault) in problems {
            errors[names[problem] ?? "form"] = fault.sentence(in: translations)
        }
        return errors
    }
}

/// The reading form's words for the core's ``ReadingProblem``s, each beside its field, in the
/// reader's language (the API's, English).
enum ReadingFormFields {
    static func errors(_ problems: [ReadingProblem], in translations: Translations) -> FieldErrors {
        var errors = FieldErrors()
        for problem in problems {
            switch problem {
            case .rating: errors["rating"] = translations.text("Choose from one to five stars, or no rating.")
            case .reviewTooLong(let characters):
                errors["review"] = translations.text(
                    "Reviews can be up to {maximum} characters; this one has {length}. Shorten it and save again.",
                    values: numbers(["maximum": ReadingInput.reviewMaximumLength, "length": characters], in: translations)
                )
            case .finishedInFuture: errors["finished"] = translations.text("The date you finished can’t be in the future.")
            case .finishedUnreadable:
                errors["finished"] = translations.text("Give the date you finished as year, month and day (for example 2026-03-14), or leave it empty.")
            }
        }
        return errors
    }
}

/// "Type it in"'s words for the core's ``NewBookProblem``s, each beside its field, in the
/// reader's language.
enum NewBookFormFields {
    static func errors(_ problems: [NewBookProblem], in translations: Translations) -> FieldErrors {
        var errors = FieldErrors()
        for problem in problems {
            switch problem {
            case .titleMissing: errors["title"] = translations.text("Give the book’s title.")
            case .titleTooLong(let characters):
                errors["title"] = translations.text(
                    "A title can be up to {maximum} characters; this one has {length}.",
                    values: numbers(["maximum": NewBookInput.titleMaximumLength, "length": characters], in: translations)
                )
            case .authorMissing: errors["author"] = translations.text("Give the author, or the first of them.")
            case .authorTooLong(let characters):
                errors["author"] = translations.text(
                    "An author can be up to {maximum} characters; this has {length}.",
                    values: numbers(["maximum": NewBookInput.authorMaximumLength, "length": characters], in: translations)
                )
            case .isbn(let problem): errors["isbn"] = problem.sentence(in: translations)
            case .link: errors["link"] = translations.text("A link starts with http:// or https:// and names a site (for example https://example.org/book).")
            }
        }
        return errors
    }
}

extension ISBN.Problem {
    /// The sentence beside an ISBN field, in the reader's language.
    func sentence(in translations: Translations) -> String {
        switch self {
        case .malformed: translations.text("An ISBN is 10 or 13 digits (the last of 10 may be X), with or without hyphens.")
        case .checkDigit: translations.text("This ISBN’s last digit does not match the others: check it for a mistyped digit.")
        }
    }
}

/// Numbers as values of a sentence, written with the language's digit groups ("5.000" in German).
func numbers(_ values: [String: Int], in translations: Translations) -> [String: String] {
    values.mapValues { translations.language.formatted($0) }
}

extension MemberName.Problem {
    /// The sentence beside a display name's field, in the reader's language.
    func sentence(in translations: Translations) -> String {
        switch self {
        case .tooLong(let count):
            translations.text(
                "A display name can be up to {maximum} characters; this one has {length}. Shorten it and save again.",
                values: numbers(["maximum": MemberName.displayNameMaximumLength, "length": count], in: translations)
            )
        case .invisibleCharacter:
            translations.text("A display name can’t hold control or invisible formatting characters (such as a tab, a line break or a direction mark). Retype it and save again.")
        case .atSign:
            translations.text("A display name can’t contain “@”, which marks usernames. Leave it out and save again.")
        }
    }
}
