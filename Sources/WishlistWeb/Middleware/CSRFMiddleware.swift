import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import WishlistCore
import WishlistTemplates

/// Reads the body of every POST once and refuses it unless it carries this visitor's CSRF token
/// and, when the browser says where the form came from (`Origin`), that is this site.
struct CSRFMiddleware: RouterMiddleware {
    static let tokenHeader = HTTPField.Name("X-CSRF-Token")!

    let csrf: CSRFProtection

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        // RFC 8058's one-click unsubscribe is a POST from the mail provider, with no cookie and no
        // token: the link's own secret token is what allows it, and all it can do is stop a digest.
        if request.uri.path.hasPrefix("/unsubscribe/") { return try await next(request, context) }
        // The API reads its own JSON bodies; no cookie authenticates it, so no other site can
        // make a browser send one of its requests with anyone's authority (issue 54).
        if APIController.isAPI(request.uri.path) { return try await next(request, context) }
        var request = request
        var context = context
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: FormBody.limit(for: request.uri.path))
        } catch is NIOTooManyBytesError {
            // A body without a declared length (chunked) that runs past the limit: the 413 that
            // `BodyLimitMiddleware` gives a declared one.
            throw FormBody.tooLarge(for: request.uri.path)
        } catch let error as HTTPParserError {
            throw Self.unreadable(error)
        }
        let contentType = request.headers[.contentType] ?? ""
        let token: String
        if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            context.form = try FormBody(parsing: body)
            token = try context.form.text("csrf_token", maxLength: 100)
        } else if contentType.lowercased().hasPrefix("multipart/form-data"), let upload = FormBody.uploads[request.uri.path] {
            let multipart: MultipartForm
            do {
                multipart = try MultipartForm(body: body, contentType: contentType)
            } catch let error as MultipartForm.Error {
                throw PageError.badRequest(error.message)
            }
            // As for URL-encoded forms: a field sent twice is refused, not resolved by picking one.
            var names = Set<String>()
            for part in multipart.parts where !names.insert(part.name).inserted {
                throw PageError.badRequest("The form sent the field “\(part.name.prefix(40))” more than once. Reload the page and try again.")
            }
            context.upload = multipart.file(upload.field)
            token = multipart.text("csrf_token") ?? ""
        } else if contentType.lowercased().hasPrefix("application/json"), request.uri.path.hasPrefix("/passkeys/") {
            // The passkey script posts JSON; it sends the page's token in a header instead.
            context.json = body
            token = request.headers[Self.tokenHeader] ?? ""
        } else {
            throw PageError(
                .unsupportedMediaType, title: "That request couldn't be read",
                message: "This site accepts forms only from its own pages. Go back, reload the page, and try again."
            )
        }
        guard isSameOrigin(request), csrf.isValid(token, forSession: context.visitor.sessionToken) else {
            throw PageError.csrfRejected
        }
        return try await next(request, context)
    }

    /// A body the HTTP parser could not read to its end: a chunk size that is no number, or a
    /// connection that ended mid-body (the idle timeout closes one that stalls there). The
    /// client's fault, so a 4xx rather than the 500 it was (issue 50).
    static func unreadable(_ error: HTTPParserError) -> PageError {
        if error == .invalidEOFState {
            return PageError(
                .requestTimeout, title: "The form stopped arriving", message: "Part of what you sent never came. Go back and send the form again."
            )
        }
        return PageError.badRequest("What you sent couldn't be read as a form. Go back, reload the page and send it again.")
    }

    /// A missing `Origin` passes (older browsers, same-origin GET-to-POST navigations), and so does
    /// `null`: browsers send it for every form on a page served with `Referrer-Policy: no-referrer`,
    /// as share-link and reset-link pages are, so that their tokens stay out of Referer headers. In
    /// both cases the token still has to match, and a page elsewhere cannot know it. An origin
    /// that is named must be the host the request was sent to.
    private func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin], origin != "null" else { return true }
        return Self.isSameOrigin(origin: origin, authority: request.head.authority)
    }

    static func isSameOrigin(origin: String, authority: String?) -> Bool {
        guard let host = authority, let separator = origin.range(of: "://") else { return false }
        let scheme = origin[..<separator.lowerBound].lowercased()
        return (scheme == "http" || scheme == "https") && origin[separator.upperBound...].lowercased() == host.lowercased()
    }
}
