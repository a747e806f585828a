import Hummingbird
import WishlistCore

/// Works out who is asking: reads the session cookie, looks the session up, and gives a browser
/// without a usable cookie a fresh anonymous token (the anchor of its CSRF token).
struct SessionMiddleware: RouterMiddleware {
    let sessions: SessionStore
    let cookies: SessionCookies
    let csrf: CSRFProtection

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        let presented = request.cookieValue(cookies.name)
        let token = presented.flatMap { SessionCookies.isWellFormed($0) ? $0 : nil } ?? SecureRandom.token()
        var signedIn: Visitor.SignedIn?
        // The layout of every signed-in page shows the wishlist's count: read with the session.
        if token == presented, let (session, count) = try await sessions.find(token: token, alsoReading: { read, userID in
            try read.wishlist.count(userID: userID)
        }) {
            signedIn = Visitor.SignedIn(userID: session.userID, username: session.username, sessionID: session.id, isAdmin: session.isAdmin)
            signedIn?.wishlistCount = count
        }
        context.visitor = Visitor(signedIn: signedIn, sessionToken: token, csrfToken: csrf.token(forSession: token))

        var response = try await next(request, context)
        if token != presented, !cookies.isSet(in: response) {
            response.setCookie(cookies.cookie(token, maxAge: nil))
        }
        return response
    }
}
