import Hummingbird
import Logging
import WishlistCore
import WishlistTemplates

/// Turns every error thrown below it into a page from `errors/error.html`.
///
/// Errors meant for the visitor (`PageError`, Hummingbird's `HTTPError`) keep their status; a
/// passing database outage is a 503 that says which; anything else is a 500. The details of both
/// go to the log, never to the page.
struct ErrorPageMiddleware: RouterMiddleware {
    let pages: PageRenderer

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as PageError {
            return try pages.render(error, for: context.visitor)
        } catch let error as HTTPError {
            var page = PageError.from(status: error.status)
            page.headers.append(contentsOf: error.headers)
            return try pages.render(page, for: context.visitor)
        } catch is PasswordHasher.Busy {
            return try pages.render(.hasherBusy, for: context.visitor)
        } catch {
            if let outage = DatabaseOutage(error) {
                context.logger.warning("database outage in \(request.method) \(Self.loggedPath(request, context)): \(String(reflecting: error))")
                return try pages.render(.databaseOutage(outage), for: context.visitor)
            }
            context.logger.error("unhandled error in \(request.method) \(Self.loggedPath(request, context)): \(String(reflecting: error))")
            return try pages.render(.internalError, for: context.visitor)
        }
    }

    /// The path as every log line shows it: a link's token never (``AccessLogMiddleware/loggedPath(_:route:)``).
    private static func loggedPath(_ request: Request, _ context: AppRequestContext) -> String {
        AccessLogMiddleware<AppRequestContext>.loggedPath(request.uri.path, route: context.endpointPath)
    }
}
