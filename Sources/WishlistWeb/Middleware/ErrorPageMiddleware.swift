import Hummingbird
import Logging
import WishlistCore
import WishlistTemplates

/// Turns every error thrown below it into a page from `errors/error.html`, with a link back to
/// where the person was (``WayBack``).
///
/// Errors meant for the visitor (`PageError`, Hummingbird's `HTTPError`) keep their status; a
/// passing database outage is a 503 that says which; anything else is a 500. The details of both
/// go to the log, never to the page.
///
/// The page is in the visitor's language; the outer one, before the session, knows no visitor yet
/// (a body too large, a session that could not be read) and follows the browser's
/// `Accept-Language`, as a signed-out page does.
struct ErrorPageMiddleware: RouterMiddleware {
    let pages: PageRenderer
    /// Set outside `LanguageMiddleware`, where the visitor's language is not chosen yet.
    var browserLanguages: LanguageChoice?

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if APIController.isAPI(request.uri.path) {
                // The API answers every error as problem+json, an unknown route's 404 included.
                return ((error as? APIProblem) ?? APIProblem(Self.page(for: error, request, context))).response
            }
            let page = Self.page(for: error, request, context)
            let back = WayBack.from(method: request.method, path: request.uri.path, status: page.status)
            guard let browserLanguages else {
                return try pages.render(page, wayBack: back, for: context.visitor)
            }
            var visitor = context.visitor
            visitor.translations = browserLanguages.translations(member: nil, acceptLanguage: request.headers[.acceptLanguage]).translations
            var response = try pages.render(page, wayBack: back, for: visitor)
            response.headers[values: .vary].append("Accept-Language")
            return response
        }
    }

    /// The page for `error`; the details of anything unexpected go to the log.
    private static func page(for error: any Error, _ request: Request, _ context: AppRequestContext) -> PageError {
        switch error {
        case let error as PageError:
            return error
        case let error as HTTPError:
            var page = PageError.from(status: error.status)
            page.headers.append(contentsOf: error.headers)
            return page
        case is PasswordHasher.Busy:
            return .hasherBusy
        default:
            if let outage = DatabaseOutage(error) {
                context.logger.warning("database outage in \(request.method) \(Self.loggedPath(request, context)): \(String(reflecting: error))")
                return .databaseOutage(outage)
            }
            context.logger.error("unhandled error in \(request.method) \(Self.loggedPath(request, context)): \(String(reflecting: error))")
            return .internalError
        }
    }

    /// The path as every log line shows it: a link's token never (``AccessLogMiddleware/loggedPath(_:route:)``).
    private static func loggedPath(_ request: Request, _ context: AppRequestContext) -> String {
        AccessLogMiddleware<AppRequestContext>.loggedPath(request.uri.path, route: context.endpointPath)
    }
}
