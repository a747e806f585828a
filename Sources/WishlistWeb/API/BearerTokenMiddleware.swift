import HTTPTypes
import Hummingbird
import WishlistCore

/// The gate of every `/api/v1/` route that reads or changes a member's data (issue 54): the
/// `Authorization: Bearer` token alone says who is asking (RFC 6750); a session cookie never
/// does, so there is no CSRF to guard against. A read token may only GET; each token has its
/// rate (``APIRateLimit``). Every error below comes back as `application/problem+json`.
struct BearerTokenMiddleware: RouterMiddleware {
    let tokens: APITokenStore
    let rateLimit: APIRateLimit
    let addressing: ClientAddressing

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        do {
            var context = context
            let caller = try await authenticate(request, context)
            if caller.scope == .read, request.method != .get, request.method != .head { throw APIProblem.insufficientScope }
            if let wait = rateLimit.admit(caller.tokenID) { throw APIProblem.tooManyRequests(retryAfter: wait) }
            context.apiCaller = caller
            return try await next(request, context)
        } catch let problem as APIProblem {
            return problem.response
        }
    }

    /// The caller a valid bearer token names; the header's scheme is case-insensitive (RFC 9110 section 11.1).
    private func authenticate(_ request: Request, _ context: AppRequestContext) async throws -> APICaller {
        guard let header = request.headers[.authorization] else { throw APIProblem.noToken }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIProblem.noToken }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard let caller = try await tokens.caller(token: token, from: addressing.address(of: request, context)) else {
            throw APIProblem.invalidToken
        }
        return caller
    }
}
