import Hummingbird
import Logging
import WishlistCore
import WishlistTemplates

/// Serves `Public/` under `/static/` ahead of everything but logging, headers and error pages:
/// static files need no session, so they set no cookie and cost no database lookup.
struct StaticFilesMiddleware: RouterMiddleware {
    static let prefix = "/static"

    private let files: FileMiddleware<AppRequestContext, LocalFileSystem>

    init(directory: String, logger: Logger) {
        files = FileMiddleware(
            directory, urlBasePath: Self.prefix,
            cacheControl: .init([(MediaType(type: .any), [CacheControl.CacheControlValue.public, .maxAge(3600)])]),
            logger: logger
        )
    }

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasPrefix(Self.prefix + "/") else { return try await next(request, context) }
        // Hummingbird's FileMiddleware serves a file when what follows it finds nothing; here
        // nothing follows it, so a missing file is the not-found page.
        return try await files.handle(request, context: context) { _, _ in throw HTTPError(.notFound) }
    }
}
