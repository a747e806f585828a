import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// A failure the visitor should see as a page: its status, a heading and a sentence that says
/// what happened and what to do. `ErrorPageMiddleware` renders it.
///
/// The heading and the sentence are English, the catalogs' keys (`Translations.marked`): the page
/// words them in the reader's language (``title(in:)``, ``message(in:)``), with `values` for the
/// sentence's placeholders, themselves worded in that language (issue 53).
public struct PageError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var title: String
    public var message: String
    var values: @Sendable (Translations) -> [String: String]
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, title: String, message: String, headers: HTTPFields = [:]) {
        self.init(status, title: title, message: message, values: { _ in [:] }, headers: headers)
    }

    init(
        _ status: HTTPResponse.Status, title: String, message: String,
        values: @escaping @Sendable (Translations) -> [String: String], headers: HTTPFields = [:]
    ) {
        self.status = status
        self.title = title
        self.message = message
        self.values = values
        self.headers = headers
    }

    /// The heading in `translations`' language (English where its catalog lacks it).
    func title(in translations: Translations) -> String {
        translations.text(title, values: values(translations))
    }

    /// The sentence in `translations`' language, its placeholders filled.
    func message(in translations: Translations) -> String {
        translations.text(message, values: values(translations))
    }

    /// A request refused as unreadable; `message` is a catalog key, `values` fill its placeholders.
    public static func badRequest(_ message: String, values: [String: String] = [:]) -> PageError {
        PageError(.badRequest, title: Translations.marked("That request couldn’t be read"), message: message, values: { _ in values })
    }

    public static let notFound = PageError(
        .notFound, title: Translations.marked("Page not found"),
        message: Translations.marked("We couldn’t find that page. It may have moved, or the address may be mistyped.")
    )

    public static let methodNotAllowed = PageError(
        .methodNotAllowed, title: Translations.marked("Not available this way"),
        message: Translations.marked("This address doesn’t accept that kind of request. Use the links and buttons on the pages.")
    )

    public static let payloadTooLarge = PageError(
        .contentTooLarge, title: Translations.marked("That was too much to send"),
        message: Translations.marked("The form you sent is larger than this site accepts. Shorten what you typed and try again.")
    )

    public static let csrfRejected = PageError(
        .forbidden, title: Translations.marked("This form has expired"),
        message: Translations.marked(
            "For your safety we couldn’t accept that form, because it did not come from a page of this site or it was opened before you signed in or out. Go back, reload the page, and try again."
        )
    )

    public static let hasherBusy = PageError(
        .serviceUnavailable, title: Translations.marked("Too many sign-ins at once"),
        message: Translations.marked("The server is busy checking passwords. Wait a moment and try again."),
        headers: [.retryAfter: "2"]
    )

    public static func databaseOutage(_ outage: DatabaseOutage) -> PageError {
        switch outage {
        case .busy:
            return PageError(
                .serviceUnavailable, title: Translations.marked("Too many changes at once"),
                message: Translations.marked(
                    "The server is busy saving other changes, so this request could not finish. Nothing you had saved is lost. Wait a moment and try again."
                ),
                headers: [.retryAfter: "2"]
            )
        case .diskFull:
            return PageError(
                .serviceUnavailable, title: Translations.marked("The server’s disk is full"),
                message: Translations.marked(
                    "The server has run out of disk space, so this change could not be saved. Nothing you had saved before is lost. Try again later, once the server’s owner has made room."
                ),
                headers: [.retryAfter: "300"]
            )
        case .unavailable:
            return PageError(
                .serviceUnavailable, title: Translations.marked("The database is unavailable"),
                message: Translations.marked("The server cannot use its database right now. Nothing you had saved is lost. Try again in a few minutes."),
                headers: [.retryAfter: "60"]
            )
        }
    }

    /// A 503 from the framework, whose cause we do not know.
    public static let temporarilyUnavailable = PageError(
        .serviceUnavailable, title: Translations.marked("Temporarily unavailable"),
        message: Translations.marked("The server cannot answer this request right now. Wait a moment and try again.")
    )

    public static let internalError = PageError(
        .internalServerError, title: Translations.marked("Something went wrong"),
        message: Translations.marked("The server ran into a problem and could not finish. Nothing you had saved is lost. Try again in a moment.")
    )

    /// What was tried too often: each its own sentence, so that every language words it whole.
    public enum Attempt: Sendable {
        case signIn, signUp, reservation, confirmationLink, password, passwordResetRequest, apiToken

        var sentence: String {
            switch self {
            case .signIn: Translations.marked("There have been too many sign-in attempts. Try again in {wait}.")
            case .signUp: Translations.marked("There have been too many sign-up attempts. Try again in {wait}.")
            case .reservation: Translations.marked("There have been too many reservation attempts. Try again in {wait}.")
            case .confirmationLink: Translations.marked("There have been too many confirmation link attempts. Try again in {wait}.")
            case .password: Translations.marked("There have been too many password attempts. Try again in {wait}.")
            case .passwordResetRequest: Translations.marked("There have been too many password-reset request attempts. Try again in {wait}.")
            case .apiToken: Translations.marked("There have been too many API token attempts. Try again in {wait}.")
            }
        }
    }

    public static func tooManyAttempts(retryAfter seconds: Int, action: Attempt) -> PageError {
        PageError(
            .tooManyRequests, title: Translations.marked("Too many attempts"), message: action.sentence,
            values: { translations in ["wait": Self.describe(seconds: seconds, in: translations)] },
            headers: [.retryAfter: String(seconds)]
        )
    }

    /// "45 seconds", "1 minute", "12 minutes", in the reader's language.
    static func describe(seconds: Int, in translations: Translations) -> String {
        if seconds < 60 { return translations.text(one: "{count} second", other: "{count} seconds", count: seconds) }
        return translations.text(one: "{count} minute", other: "{count} minutes", count: (seconds + 59) / 60)
    }

    /// The page for an error Hummingbird itself threw (unmatched route, unreadable body).
    static func from(status: HTTPResponse.Status) -> PageError {
        switch status {
        case .notFound: return .notFound
        case .methodNotAllowed: return .methodNotAllowed
        case .contentTooLarge: return .payloadTooLarge
        case .badRequest: return .badRequest(Translations.marked("The server couldn’t understand what your browser sent. Reload the page and try again."))
        case .serviceUnavailable: return .temporarilyUnavailable
        default:
            // The status's own phrase is English: a rare status, named as HTTP names it.
            return status.code >= 500
                ? .internalError
                : PageError(status, title: status.reasonPhrase, message: Translations.marked("Your browser’s request could not be completed."))
        }
    }
}
