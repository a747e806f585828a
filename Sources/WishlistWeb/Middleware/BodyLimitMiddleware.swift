import Hummingbird
import WishlistCore

/// Refuses a request whose declared body is over the limit before any of it is read.
///
/// Bodies without a declared length (chunked) are bounded where they are read, by
/// `CSRFMiddleware`, which answers the same 413.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > FormBody.limit(for: request.uri.path) {
            throw FormBody.tooLarge(for: request.uri.path)
        }
        return try await next(request, context)
    }
}
