import Hummingbird
import WishlistCore
import WishlistTemplates

/// A failure the visitor should see as a page: its status, a heading and a sentence that says
/// what happened and what to do. `ErrorPageMiddleware` renders it.
public struct PageError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var title: String
    public var message: String
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, title: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.title = title
        self.message = message
        self.headers = headers
    }

    public static func badRequest(_ message: String) -> PageError {
        PageError(.badRequest, title: "That request couldn’t be read", message: message)
    }

    public static let notFound = PageError(
        .notFound, title: "Page not found",
        message: "We couldn’t find that page. It may have moved, or the address may be mistyped."
    )

    public static let methodNotAllowed = PageError(
        .methodNotAllowed, title: "Not available this way",
        message: "This address doesn’t accept that kind of request. Use the links and buttons on the pages."
    )

    public static let payloadTooLarge = PageError(
        .contentTooLarge, title: "That was too much to send",
        message: "The form you sent is larger than this site accepts. Shorten what you typed and try again."
    )

    public static let csrfRejected = PageError(
        .forbidden, title: "This form has expired",
        message: "For your safety we couldn’t accept that form, because it did not come from a page of this site "
            + "or it was opened before you signed in or out. Go back, reload the page, and try again."
    )

    public static let hasherBusy = PageError(
        .serviceUnavailable, title: "Too many sign-ins at once",
        message: "The server is busy checking passwords. Wait a moment and try again.",
        headers: [.retryAfter: "2"]
    )

    public static func databaseOutage(_ outage: DatabaseOutage) -> PageError {
        switch outage {
        case .busy:
            return PageError(
                .serviceUnavailable, title: "Too many changes at once",
                message: "The server is busy saving other changes, so this request could not finish. "
                    + "Nothing you had saved is lost. Wait a moment and try again.",
                headers: [.retryAfter: "2"]
            )
        case .diskFull:
            return PageError(
                .serviceUnavailable, title: "The server’s disk is full",
                message: "The server has run out of disk space, so this change could not be saved. "
                    + "Nothing you had saved before is lost. Try again later, once the server’s owner has made room.",
                headers: [.retryAfter: "300"]
            )
        case .unavailable:
            return PageError(
                .serviceUnavailable, title: "The database is unavailable",
                message: "The server cannot use its database right now. Nothing you had saved is lost. Try again in a few minutes.",
                headers: [.retryAfter: "60"]
            )
        }
    }

    /// A 503 from the framework, whose cause we do not know.
    public static let temporarilyUnavailable = PageError(
        .serviceUnavailable, title: "Temporarily unavailable",
        message: "The server cannot answer this request right now. Wait a moment and try again."
    )

    public static let internalError = PageError(
        .internalServerError, title: "Something went wrong",
        message: "The server ran into a problem and could not finish. Nothing you had saved is lost. Try again in a moment."
    )

    public static func tooManyAttempts(retryAfter seconds: Int, action: String) -> PageError {
        PageError(
            .tooManyRequests, title: "Too many attempts",
            message: "There have been too many \(action) attempts. Try again in \(Self.describe(seconds: seconds)).",
            headers: [.retryAfter: String(seconds)]
        )
    }

    /// "45 seconds", "1 minute", "12 minutes".
    static func describe(seconds: Int) -> String {
        if seconds < 60 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let minutes = (seconds + 59) / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    /// The page for an error Hummingbird itself threw (unmatched route, unreadable body).
    static func from(status: HTTPResponse.Status) -> PageError {
        switch status {
        case .notFound: return .notFound
        case .methodNotAllowed: return .methodNotAllowed
        case .contentTooLarge: return .payloadTooLarge
        case .badRequest: return .badRequest("The server couldn’t understand what your browser sent. Reload the page and try again.")
        case .serviceUnavailable: return .temporarilyUnavailable
        default:
            return status.code >= 500
                ? .internalError
                : PageError(status, title: status.reasonPhrase, message: "Your browser’s request could not be completed.")
        }
    }
}
