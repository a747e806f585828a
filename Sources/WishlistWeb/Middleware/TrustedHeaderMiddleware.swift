import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import WishlistCore

/// Signs in the user an authenticating proxy names in `accounts.trustedHeader` (such as
/// Authelia's or Authentik's `Remote-User`), believed only when the TCP peer is one of
/// `server.trustedProxies`: from anyone else the header is ignored, and the first such request
/// is logged. The proxy is the authority: the name is that account's username, and a browser
/// signed in here as someone else is signed in again as the proxy's user.
struct TrustedHeaderMiddleware: RouterMiddleware {
    let header: HTTPField.Name
    let trustedProxies: [AddressRange]
    let accounts: AccountService
    let cookies: SessionCookies
    let csrf: CSRFProtection
    let sessionMaxAge: Int
    /// Whether a name no account has gets an account (`accounts.signup` is not `closed`).
    let signup: Bool
    let untrustedSeen = UntrustedSeen()

    /// Set by the first request that carried the header from an address not trusted.
    final class UntrustedSeen: Sendable {
        let flag = Atomic(false)
    }

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard let username = request.headers[header] else { return try await next(request, context) }
        guard trustedProxies.contains(address: context.peerAddress) else {
            if !untrustedSeen.flag.exchange(true, ordering: .relaxed) {
                context.logger.warning("ignored the \(header) header from \(context.peerAddress), which is not in server.trustedProxies (logged once)")
            }
            return try await next(request, context)
        }
        if let signedIn = context.visitor.signedIn, signedIn.username.lowercased() == username.lowercased() {
            return try await next(request, context)
        }
        switch try await accounts.signIn(trustedUsername: username, signup: signup) {
        case .signedIn(let user):
            return try await continueSignedIn(as: user, request, context, next: next)
        case .unknown, .inviteRefused:  // the proxy's sign-ins carry no invite
            throw PageError(
                .forbidden, title: "No account for you here",
                message: "Your sign-in proxy says you are \(username), and this server has no account of that name. Ask an admin to create it."
            )
        case .disabled:
            throw PageError(.forbidden, title: "Sign-in refused", message: "This account can't sign in. Ask an admin of this server.")
        case .invalidName(let problem):
            throw PageError(
                .forbidden, title: "Not a username here",
                message: "Your sign-in proxy names you \(username), which can't be a username here: \(problem)"
            )
        }
    }

    /// Starts a session for `user` (ending the one this browser had) and answers this request
    /// as that user, so no redirect is needed.
    private func continueSignedIn(
        as user: User, _ request: Request, _ context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        if let old = context.visitor.signedIn { try await accounts.sessions.delete(id: old.sessionID) }
        let token = try await accounts.sessions.create(userID: user.id, userAgent: request.headers[.userAgent] ?? "")
        guard let session = try await accounts.sessions.find(token: token) else { throw PageError.notFound }
        var context = context
        context.loadedPage = nil
        context.visitor = Visitor(
            signedIn: Visitor.SignedIn(userID: user.id, username: user.username, name: session.name, sessionID: session.id, isAdmin: user.isAdmin),
            sessionToken: token, csrfToken: csrf.token(forSession: token)
        )
        var response = try await next(request, context)
        response.setCookie(cookies.cookie(token, maxAge: sessionMaxAge))
        return response
    }
}
