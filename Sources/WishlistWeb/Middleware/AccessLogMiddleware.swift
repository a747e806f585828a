import Hummingbird
import Logging
import NIOCore
import WishlistCore
import WishlistTemplates

/// One log line per request: method, path, status and duration.
///
/// The query string and every header stay out of the log: queries carry what people search for,
/// and headers carry session cookies. The token of a share link or a password-reset link, which
/// is in its path, is replaced by `…`: whoever reads the log must not be able to use it.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = NIODeadline.now()
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: start, context: context)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, status: status, since: start, context: context)
            throw error
        }
    }

    static func loggedPath(_ path: String) -> String {
        for prefix in Self.pathsWithTokens where path.hasPrefix(prefix) {
            return prefix + "…"
        }
        return path
    }

    /// Paths that hold a secret after their prefix: share links, feeds and password-reset links.
    static var pathsWithTokens: [String] { [ShareLinkController.pathPrefix, FeedController.pathPrefix, "/reset/"] }

    private func log(_ request: Request, status: Int, since start: NIODeadline, context: Context) {
        let micros = (NIODeadline.now() - start).nanoseconds / 1000
        let level: Logger.Level = status >= 500 ? .error : .info
        context.logger.log(
            level: level,
            "\(request.method.rawValue) \(Self.loggedPath(request.uri.path)) \(status) \(Double(micros) / 1000) ms"
        )
    }
}
