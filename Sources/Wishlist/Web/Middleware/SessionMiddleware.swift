import Hummingbird

/// The session cookie's name and attributes.
public struct SessionCookies: Sendable {
    /// Behind HTTPS: `Secure` and the `__Host-` prefix, which browsers honour only for cookies
    /// that are secure, host-only and for the whole site.
    let secure: Bool

    public var name: String { secure ? "__Host-wishlist_session" : "wishlist_session" }

    /// A cookie carrying `token`; `maxAge` nil makes it end with the browser session.
    func cookie(_ token: String, maxAge: Int?) -> Cookie {
        Cookie(name: name, value: token, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// Whether a response already sets the session cookie (a sign-in or sign-out did).
    func isSet(in response: Response) -> Bool {
        response.headers[values: .setCookie].contains { $0.hasPrefix(name + "=") }
    }

    /// Tokens are 43 characters of base64url; anything else is ignored without a lookup.
    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 43 && token.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}

/// Works out who is asking: reads the session cookie, looks the session up, and gives a browser
/// without a usable cookie a fresh anonymous token (the anchor of its CSRF token).
struct SessionMiddleware: RouterMiddleware {
    let sessions: SessionStore
    let cookies: SessionCookies
    let csrf: CSRFProtection
    let wishlistCount: @Sendable (Int64) async throws -> Int

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        let presented = request.cookies[cookies.name]?.value
        let token = presented.flatMap { SessionCookies.isWellFormed($0) ? $0 : nil } ?? SecureRandom.token()
        var signedIn: Visitor.SignedIn?
        if token == presented, let session = try await sessions.find(token: token) {
            signedIn = Visitor.SignedIn(userID: session.userID, username: session.username, sessionID: session.id)
            signedIn?.wishlistCount = try await wishlistCount(session.userID)
        }
        context.visitor = Visitor(signedIn: signedIn, sessionToken: token, csrfToken: csrf.token(forSession: token))

        var response = try await next(request, context)
        if token != presented, !cookies.isSet(in: response) {
            response.setCookie(cookies.cookie(token, maxAge: nil))
        }
        return response
    }
}

/// Reads the body of every POST once and refuses it unless it carries this visitor's CSRF token
/// and, when the browser says where the form came from (`Origin`), that is this site.
struct CSRFMiddleware: RouterMiddleware {
    let csrf: CSRFProtection

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        var request = request
        var context = context
        let body = try await request.collectBody(upTo: FormBody.limit(for: request.uri.path))
        let contentType = request.headers[.contentType] ?? ""
        let token: String
        if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            context.form = try FormBody(parsing: body)
            token = try context.form.text("csrf_token", maxLength: 100)
        } else if contentType.lowercased().hasPrefix("multipart/form-data"), request.uri.path == FormBody.uploadPath {
            let multipart: MultipartForm
            do {
                multipart = try MultipartForm(body: Array(body.readableBytesView), contentType: contentType)
            } catch let error as MultipartForm.Error {
                throw PageError.badRequest(error.message)
            }
            // As for URL-encoded forms: a field sent twice is refused, not resolved by picking one.
            var names = Set<String>()
            for part in multipart.parts where !names.insert(part.name).inserted {
                throw PageError.badRequest("The form sent the field “\(part.name.prefix(40))” more than once. Reload the page and try again.")
            }
            context.upload = multipart.file("file")
            token = multipart.text("csrf_token") ?? ""
        } else {
            throw PageError(
                .unsupportedMediaType, title: "That request couldn't be read",
                message: "This site accepts forms only from its own pages. Go back, reload the page, and try again."
            )
        }
        guard isSameOrigin(request), csrf.isValid(token, forSession: context.visitor.sessionToken) else {
            throw PageError.csrfRejected
        }
        return try await next(request, context)
    }

    /// A missing `Origin` passes (older browsers, same-origin GET-to-POST navigations); the token
    /// still has to match. A present one must name the host the request was sent to.
    private func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }
        return Self.isSameOrigin(origin: origin, authority: request.head.authority)
    }

    static func isSameOrigin(origin: String, authority: String?) -> Bool {
        guard let host = authority, let separator = origin.range(of: "://") else { return false }
        let scheme = origin[..<separator.lowerBound].lowercased()
        return (scheme == "http" || scheme == "https") && origin[separator.upperBound...].lowercased() == host.lowercased()
    }
}

/// Sends signed-out visitors to the sign-in page, remembering where they were going.
struct RequireSignInMiddleware: RouterMiddleware {
    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard context.visitor.signedIn == nil else { return try await next(request, context) }
        let wanted = request.method == .get ? request.uri.description : "/"
        return redirect(to: "/login?next=" + LocalPath.percentEncoded(wanted))
    }
}
