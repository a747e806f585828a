import Hummingbird
import WishlistCore

/// Works out who is asking: reads the session cookie, looks the session up, and gives a browser
/// without a usable cookie a fresh anonymous token (the anchor of its CSRF token). For a
/// signed-in GET of a route with a page loader, the page's reads share the session's transaction
/// (``PageLoaders``), and while the database is unchanged the same request reuses that read
/// (``PageReadMemo``).
struct SessionMiddleware: RouterMiddleware {
    let sessions: SessionStore
    let cookies: SessionCookies
    let csrf: CSRFProtection
    let pageLoaders: PageLoaders
    let memo: PageReadMemo
    /// Her page's language, which the page's loader looks its shared page up by.
    let languages: LanguageChoice

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        // Cookies never authenticate the API (issue 54): its bearer token alone says who asks,
        // and it sets no cookie either.
        if APIController.isAPI(request.uri.path) { return try await next(request, context) }
        var context = context
        let presented = request.cookieValue(cookies.name)
        let token = presented.flatMap { SessionCookies.isWellFormed($0) ? $0 : nil } ?? SecureRandom.token()
        if token == presented, let read = try await sessionRead(token: token, request, context) {
            context.loadedPage = read.page
            context.visitor = Visitor(signedIn: read.user, sessionToken: token, csrfToken: read.csrfToken)
        } else {
            context.visitor = Visitor(signedIn: nil, sessionToken: token, csrfToken: csrf.token(forSession: token))
        }
        context.visitor.heldStylesheet = request.cookieValue(PageStylesheet.cookieName)

        var response = try await next(request, context)
        if token != presented, !cookies.isSet(in: response) {
            response.setCookie(cookies.cookie(token, maxAge: nil))
        }
        return response
    }

    /// The session and, for a GET of a route with a loader, the page's reads: kept from the same
    /// request when the database has not changed since (``PageReadMemo``), else read now.
    private func sessionRead(token: String, _ request: Request, _ context: AppRequestContext) async throws -> PageReadMemo.Read? {
        let key = memo.key(for: request)
        let version = memo.currentVersion()
        if let version, let kept = memo.read(key, at: version), sessions.isCurrent(kept.session) {
            return kept
        }
        let load = request.method == .get ? pageLoaders.loader(for: context.endpointPath) : nil
        // The layout of every signed-in page shows the wishlist's count, and a page with a
        // loader reads what it shows: all in the session's read.
        guard let (session, (user, page)) = try await sessions.find(token: token, alsoReading: { read, session in
            var user = Visitor.SignedIn(userID: session.userID, username: session.username, name: session.name, sessionID: session.id, isAdmin: session.isAdmin)
            user.language = session.language
            user.pageLanguage = languages.code(member: session.language, acceptLanguage: request.headers[.acceptLanguage])
            user.wishlistCount = try read.wishlist.count(userID: session.userID)
            return (user, load.flatMap { load in Self.loaded(by: load, request, context, user, read) })
        }) else { return nil }
        let read = PageReadMemo.Read(session: session, user: user, page: page, csrfToken: csrf.token(forSession: token))
        if let version, (page as? any KeepablePageRead)?.isWorthKeeping ?? true {
            memo.keep(read, for: key, readAfter: version)
        }
        return read
    }

    /// What the loader read, or nil when it threw: the route runs it again and answers the error
    /// itself (a bad parameter's 400 or 404). An error that is not a page's answer (the database)
    /// is logged here too, since the route's own read may then succeed and nothing else would say.
    private static func loaded(
        by load: PageLoaders.Load, _ request: Request, _ context: AppRequestContext, _ user: Visitor.SignedIn, _ read: PageRead
    ) -> (any Sendable)? {
        do {
            return try load(request, context, user, read)
        } catch is PageError {
            return nil
        } catch {
            context.logger.warning("the page read of \(context.endpointPath ?? "?") failed in the session's read: \(String(reflecting: error))")
            return nil
        }
    }
}
