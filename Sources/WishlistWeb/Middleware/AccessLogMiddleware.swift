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
    /// spelled (the router serves `//shared/{token}` and `/shared/{token}/` alike); any other
    /// route's path is shown as sent (its parameters are names and ids, such as a member called
    /// `shared`). A path no route matched is shown as sent unless one of its components, with its
    /// escapes decoded and its letter case ignored, names a secret route and something follows
    /// it: then the line shows that route's name and `…`. So no spelling shows a token, whether it
    /// reached its route or missed it (`/./shared/…`, `/x/../shared/…`, `/SHARED/…`,
    /// `/%2573hared/…`), nor a mistyped or guessed one (issue 50).
    static func loggedPath(_ path: String, route: String?) -> String {
        if let route, route != unmatchedRoute {
            // The table's routes without a token are known at start: searching each request's
            // route's text for `{token}` was a third of what its log line cost.
            if routesWithoutSecrets.contains(route) { return path }
            return route.contains(secretParameter) ? route.replacingOccurrences(of: secretParameter, with: "…") : path
        }
        // Most paths have no escape and are read in place, without a copy.
        let secret = path.utf8.contains(UInt8(ascii: "%"))
            ? secretRouteName(in: PercentEncoding.decodedFully(Array(path.utf8))) : secretRouteName(in: path.utf8)
        return secret.map { "/\($0)/…" } ?? path
    }

    /// The name of the secret route that a component of `path` (followed by a slash) names.
    private static func secretRouteName(in path: some Collection<UInt8>) -> String? {
        var rest = path[...]
        while let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            let component = rest[..<slash]
            if let secret = secretRouteNames.first(where: { component.equalsIgnoringASCIICase($0.lowercased) }) { return secret.name }
            rest = rest[rest.index(after: slash)...]
        }
        return nil
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

/// Hummingbird's `endpointPath` for a request no route matched.
private let unmatchedRoute = "NotFound"

/// How a secret appears in a route's pattern (`/shared/{token}`): every route that takes a link's
/// token names its parameter `token`.
private let secretParameter = "{token}"

/// The route table's patterns that take no token, as Hummingbird's `endpointPath` names them.
private let routesWithoutSecrets = Set(Route.all.map(\.pattern).filter { !$0.contains(secretParameter) })

/// The first components of the routes that hold a secret next, from the route table: share links,
/// feeds and the calendar, password-reset links, the mail's confirmation and unsubscribe links, the
/// setup and hand-over links, and a guest's cancel link. Written out by hand, the list had missed
/// the hand-over link, and the calendar named its token `{file}` (issue 55).
private let secretRouteNames = Set(Route.all.filter { $0.pattern.contains(secretParameter) }.compactMap { $0.pattern.split(separator: "/").first })
    .sorted()
    .map { name in (name: String(name), lowercased: Array(name.lowercased().utf8)) }

private extension Collection<UInt8> {
    /// Whether these bytes are `lowercased`'s (ASCII) in any letter case.
    func equalsIgnoringASCIICase(_ lowercased: [UInt8]) -> Bool {
        count == lowercased.count && zip(self, lowercased).allSatisfy { byte, lower in
            byte == lower || (byte | 0x20 == lower && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower))
        }
    }
}
