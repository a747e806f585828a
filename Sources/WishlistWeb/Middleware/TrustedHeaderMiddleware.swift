import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import WishlistCore
import WishlistLanguages

/// Signs in the user an authenticating proxy names in `accounts.trustedHeader` (such as
/// Authelia's or Authentik's `Remote-User`), believed only when the TCP peer is one of
/// `server.trustedProxies`: from anyone else the header is ignored, and the first such request
/// is logged. The proxy is the authority: the name is that account's username, and a browser
/// signed in here as someone else is signed in again as the proxy's user.
///
/// A session is stored only for a browser that keeps cookies: one that sent back the cookie it
/// was given, on a GET. A request without any (a script, a feed reader, a browser's very first
/// request) and a form's POST are answered as the proxy's user for themselves alone, so that 300
/// cookieless requests make no session rather than 300, and a form keeps the CSRF token of the
/// cookie its page was served with (issue 50).
///
/// A refusal is thrown before the visitor's language is chosen: the outer `ErrorPageMiddleware`
/// words its page in the browser's language (issue 53).
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
            guard request.cookieValue(cookies.name) != nil, request.method == .get || request.method == .head else {
                return try await next(request, try await signedInForThisRequest(as: user, context))
            }
            return try await continueSignedIn(as: user, request, context, next: next)
        case .created(let user):
            // A new account starts in the welcome, as a password sign-up does (issue 57); the
            // page asked for waits until after it. A form is answered as it would be.
            guard request.method == .get || request.method == .head else {
                return try await next(request, try await signedInForThisRequest(as: user, context))
            }
            return redirect(to: SitePath.welcome)
        case .unknown, .inviteRefused:  // the proxy's sign-ins carry no invite
            throw PageError(
                .forbidden, title: Translations.marked("No account for you here"),
                message: Translations.marked("Your sign-in proxy says you are {username}, and this server has no account of that name. Ask an admin to create it."),
                values: { _ in ["username": username] }
            )
        case .disabled:
            throw Self.refused
        case .invalidName(let problem):
            throw PageError(
                .forbidden, title: Translations.marked("Not a username here"),
                message: Translations.marked("Your sign-in proxy names you {username}, which can’t be a username here: {problem}"),
                values: { translations in ["username": username, "problem": problem.sentence(in: translations)] }
            )
        }
    }

    /// `context` as `user`'s without a stored session: the cookie and CSRF token stay the ones
    /// ``SessionMiddleware`` gave the request.
    private func signedInForThisRequest(as user: User, _ context: AppRequestContext) async throws -> AppRequestContext {
        guard let (name, wishlistCount) = try await accounts.sessions.member(
            userID: user.id, alsoReading: { read in try read.wishlist.count(userID: user.id) }
        ) else { throw Self.refused }
        var context = context
        context.loadedPage = nil
        var signedIn = Visitor.SignedIn(userID: user.id, username: user.username, name: name, sessionID: nil, isAdmin: user.isAdmin)
        signedIn.wishlistCount = wishlistCount
        context.visitor.signedIn = signedIn
        return context
    }

    static let refused = PageError(
        .forbidden, title: Translations.marked("Sign-in refused"), message: Translations.marked("This account can’t sign in. Ask an admin of this server.")
    )

    /// Starts a session for `user` (ending the one this browser had) and answers this request
    /// as that user, so no redirect is needed.
    private func continueSignedIn(
        as user: User, _ request: Request, _ context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        if let id = context.visitor.signedIn?.sessionID { try await accounts.sessions.delete(id: id) }
        let token = try await accounts.sessions.create(userID: user.id, userAgent: request.headers[.userAgent] ?? "")
        guard let (session, wishlistCount) = try await accounts.sessions.find(
            token: token, alsoReading: { read, session in try read.wishlist.count(userID: session.userID) }
        ) else { throw PageError.notFound }
        var context = context
        context.loadedPage = nil
        var signedIn = Visitor.SignedIn(userID: user.id, username: user.username, name: session.name, sessionID: session.id, isAdmin: user.isAdmin)
        signedIn.language = session.language
        signedIn.wishlistCount = wishlistCount
        context.visitor = Visitor(signedIn: signedIn, sessionToken: token, csrfToken: csrf.token(forSession: token), heldStylesheet: context.visitor.heldStylesheet)
        var response = try await next(request, context)
        response.setCookie(cookies.cookie(token, maxAge: sessionMaxAge))
        return response
    }
}
