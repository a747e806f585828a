import Hummingbird
import Logging
import NIOCore
import WishlistCore
import WishlistTemplates

/// One log line per request: method, path, status and duration.
///
/// The query string and every header stay out of the log: queries carry what people search for,
/// and headers carry session cookies. The token of a share, feed or password-reset link, which is
/// in its path, is replaced by `…`: whoever reads the log must not be able to use it.
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

    /// The path as log lines show it (``ErrorPageMiddleware``'s too), decided by the route the
    /// request matched (`route`, Hummingbird's `endpointPath`): a route parameter named `token`
    /// is a secret, and the line shows the route with `…` in its place, however the path was
    /// spelled (the router serves `//shared/{token}` and `/shared/{token}/` alike). A path no route
    /// matched is shown as sent unless, with its empty components dropped and its escapes
    /// decoded, it starts like a secret route, which would be a mistyped or guessed token.
    static func loggedPath(_ path: String, route: String?) -> String {
        if let route, route.contains(secretParameter) {
            return route.replacingOccurrences(of: secretParameter, with: "…")
        }
        // Most paths start with a slash and have neither an empty component nor an escape, and
        // need neither step, which together cost about a percent of the server's CPU (issue 34).
        let bytes = path.utf8
        let slash = UInt8(ascii: "/")
        let isSpelledPlainly = bytes.first == slash && !zip(bytes, bytes.dropFirst()).contains { $0 == slash && $1 == slash }
        let spelled = isSpelledPlainly ? path : "/" + path.split(separator: "/").joined(separator: "/")
        let decoded = bytes.contains(UInt8(ascii: "%")) ? spelled.removingPercentEncoding ?? spelled : spelled
        for prefix in pathsWithTokens where decoded.hasPrefix(prefix) {
            return prefix + "…"
        }
        return path
    }

    private func log(_ request: Request, status: Int, since start: NIODeadline, context: Context) {
        let level: Logger.Level = status >= 500 ? .error : .info
        guard context.logger.logLevel <= level else { return }
        context.logger.log(
            level: level,
            "\(request.method.rawValue) \(Self.loggedPath(request.uri.path, route: context.endpointPath)) \(status) \(Self.milliseconds(since: start)) ms"
        )
    }

    /// The time since `start` in milliseconds to the microsecond, like `0.412`: made from integers,
    /// because printing a `Double` costs more than the rest of the line.
    static func milliseconds(since start: NIODeadline, now: NIODeadline = .now()) -> String {
        let micros = max(0, (now - start).nanoseconds / 1000)
        let fraction = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

/// How a secret appears in a route's pattern (`/shared/{token}`): every route that takes a link's
/// token names its parameter `token`.
private let secretParameter = "{token}"

/// Paths that hold a secret after their prefix: share links, feeds, password-reset links, and the
/// mail's confirmation and unsubscribe links.
private let pathsWithTokens = [ShareLinkController.pathPrefix, FeedController.pathPrefix, "/reset/", "/verify-email/", "/unsubscribe/"]
