import Fluent
import Vapor

func routes(_ app: Application) throws {
    app.get("healthz") { _ in "ok" }

    // Everything that knows who is signed in goes through the session authenticator.
    let sessions = app.grouped(AppUser.sessionAuthenticator())
    try sessions.register(collection: AuthController())

    let signedIn = sessions.grouped(AppUser.redirectMiddleware(path: "/login"))
    try signedIn.register(collection: ListController())
}
