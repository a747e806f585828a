import Hummingbird
import WishlistCore

/// Works out who is asking: reads the session cookie, looks the session up, and gives a browser
/// without a usable cookie a fresh anonymous token (the anchor of its CSRF token). For a
/// signed-in GET of a route with a page loader, the page's reads share the session's transaction
/// (``PageLoaders``).
struct SessionMiddleware: RouterMiddleware {
    let sessions: SessionStore
    let cookies: SessionCookies
    let csrf: CSRFProtection
    let pageLoaders: PageLoaders

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        let presented = request.cookieValue(cookies.name)
        let token = presented.flatMap { SessionCookies.isWellFormed($0) ? $0 : nil } ?? SecureRandom.token()
        var signedIn: Visitor.SignedIn?
        if token == presented {
            let load = request.method == .get ? pageLoaders.loader(for: context.endpointPath) : nil
            let routeContext = context
            // The layout of every signed-in page shows the wishlist's count, and a page with a
            // loader reads what it shows: all in the session's read.
            if let (_, (user, loaded)) = try await sessions.find(token: token, alsoReading: { read, session in
                var user = Visitor.SignedIn(userID: session.userID, username: session.username, sessionID: session.id, isAdmin: session.isAdmin)
                user.wishlistCount = try read.wishlist.count(userID: session.userID)
                return (user, load.flatMap { load in try? load(request, routeContext, user, read) })
            }) {
                signedIn = user
                context.loadedPage = loaded
            }
        }
        context.visitor = Visitor(signedIn: signedIn, sessionToken: token, csrfToken: csrf.token(forSession: token))

        var response = try await next(request, context)
        if token != presented, !cookies.isSet(in: response) {
            response.setCookie(cookies.cookie(token, maxAge: nil))
        }
        return response
    }
}
