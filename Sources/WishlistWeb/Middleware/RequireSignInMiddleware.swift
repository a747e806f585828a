import Hummingbird
import WishlistCore
import WishlistTemplates

/// Sends signed-out visitors to the sign-in page, remembering where they were going.
struct RequireSignInMiddleware: RouterMiddleware {
    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        guard context.visitor.signedIn == nil else { return try await next(request, context) }
        let wanted = request.method == .get ? request.uri.description : "/"
        return redirect(to: SitePath.signIn(returningTo: wanted))
    }
}
