import Hummingbird
import WishlistCore

/// Refuses a request whose declared body is over its route's limit (``Route/body``) before any
/// of it is read; a request no route matched has a form's.
///
/// Bodies without a declared length (chunked) are bounded where they are read, by
/// `CSRFMiddleware`, which answers the same 413.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let body = Route.matched(request.method, endpointPath: context.endpointPath)?.body ?? .form
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > body.maximumBytes {
            throw body.tooLarge
        }
        return try await next(request, context)
    }
}
