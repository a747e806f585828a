import Fluent
import Vapor

/// Sign-in and sign-out. The form posts `username`, `password`, `csrf_token` and an optional
/// `next`; Fluent's credentials authenticator checks the Bcrypt hash, and the session keeps the
/// signed-in `user` row (AppUser) from then on.
struct AuthController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("login", use: self.loginPage)
        let forms = routes.grouped(CSRFMiddleware())
        forms.grouped(PeerCredential.credentialsAuthenticator(database: .peer)).post("login", use: self.login)
        forms.post("logout", use: self.logout)
        routes.get { req in req.redirect(to: ListController.startPath) }
    }

    struct LoginContext: Encodable {
        let title = "Sign in"
        let nav = "login"
        let csrfToken: String
        let next: String
        let username: String
        let error: String?
    }

    struct LoginForm: Content {
        let username: String?
        let next: String?
    }

    func loginPage(req: Request) async throws -> View {
        let next = LocalPath.validated(req.query[String.self, at: "next"], fallback: ListController.startPath)
        return try await req.view.render("login", LoginContext(csrfToken: req.session.csrfToken, next: next, username: "", error: nil))
    }

    func login(req: Request) async throws -> Response {
        let form = try req.content.decode(LoginForm.self)
        let next = LocalPath.validated(form.next, fallback: ListController.startPath)
        guard let credential = req.auth.get(PeerCredential.self),
              let user = try await AppUser.query(on: req.db).filter(\.$usernameKey == credential.username.lowercased()).first()
        else {
            let context = LoginContext(
                csrfToken: req.session.csrfToken, next: next, username: form.username ?? "",
                error: "That username and password don't match an account."
            )
            return try await req.view.render("login", context).encodeResponse(status: .unauthorized, for: req)
        }
        req.auth.logout(PeerCredential.self)
        req.auth.login(user)
        return req.redirect(to: next, redirectType: .normal)
    }

    func logout(req: Request) async throws -> Response {
        req.auth.logout(AppUser.self)
        req.session.destroy()
        return req.redirect(to: "/login", redirectType: .normal)
    }
}

/// A path on this site to send a browser to after a form: `/…`, never `//host` or a URL.
enum LocalPath {
    static func validated(_ candidate: String?, fallback: String) -> String {
        guard let path = candidate, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"), path.count <= 2000,
              !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return fallback }
        return path
    }
}
