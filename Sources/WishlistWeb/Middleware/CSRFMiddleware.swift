import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// Reads the body of every POST once and refuses it unless it carries this visitor's CSRF token
/// and, when the browser says where the form came from (`Origin`), that is this site. The route
/// the request matched (``Route``) says how: its ``Route/CSRFRule`` and its body's limit and kind.
struct CSRFMiddleware: RouterMiddleware {
    static let tokenHeader = HTTPField.Name("X-CSRF-Token")!

    let csrf: CSRFProtection

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        // The route's rule. A request no route matched needs the session's token, and gets its 404
        // after, but under /api/, where no cookie authenticates anything (issue 54).
        let route = Route.matched(request.method, endpointPath: context.endpointPath)
        let rule = route?.csrf ?? (APIController.isAPI(request.uri.path) ? .bearerToken : .sessionToken)
        if rule == .bearerToken { return try await next(request, context) }
        let rules = route?.body ?? .form
        var request = request
        var context = context
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: rules.maximumBytes)
        } catch is NIOTooManyBytesError {
            // A body without a declared length (chunked) that runs past the limit: the 413 that
            // `BodyLimitMiddleware` gives a declared one.
            throw rules.tooLarge
        } catch let error as HTTPParserError {
            throw Self.unreadable(error)
        }
        let contentType = request.headers[.contentType] ?? ""
        if rule == .linkToken {
            // The link's own token, in the path, is what allows it: no session's token to match. A
            // form (a guest's reservation, issue 57) is read for its handler; anything else (RFC 8058
            // lets an unsubscribe come as multipart) is left alone.
            if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") { context.form = try FormBody(parsing: body) }
            return try await next(request, context)
        }
        let token: String
        if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            context.form = try FormBody(parsing: body)
            token = try context.form.text("csrf_token", maxLength: 100)
        } else if contentType.lowercased().hasPrefix("multipart/form-data"), case .upload(let upload) = rules {
            let multipart: MultipartForm
            do {
                multipart = try MultipartForm(body: body, contentType: contentType)
            } catch let error as MultipartForm.Error {
                throw PageError.badRequest(error.sentence, values: error.values)
            }
            // As for URL-encoded forms: a field sent twice is refused, not resolved by picking one.
            var names = Set<String>()
            for part in multipart.parts where !names.insert(part.name).inserted {
                throw PageError.badRequest(
                    Translations.marked("The form sent the field “{field}” more than once. Reload the page and try again."),
                    values: ["field": String(part.name.prefix(40))]
                )
            }
            context.upload = multipart.file(upload.field)
            context.form = try FormBody(multipart: multipart)
            token = multipart.text("csrf_token") ?? ""
        } else if contentType.lowercased().hasPrefix("application/json"), route?.csrf == .headerToken {
            // The passkey script posts JSON; it sends the page's token in a header instead.
            context.json = body
            token = request.headers[Self.tokenHeader] ?? ""
        } else {
            throw PageError(
                .unsupportedMediaType, title: Translations.marked("That request couldn’t be read"),
                message: Translations.marked("This site accepts forms only from its own pages. Go back, reload the page, and try again.")
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
                .requestTimeout, title: Translations.marked("The form stopped arriving"), message: Translations.marked("Part of what you sent never came. Go back and send the form again.")
            )
        }
        return PageError.badRequest(Translations.marked("What you sent couldn’t be read as a form. Go back, reload the page and send it again."))
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
