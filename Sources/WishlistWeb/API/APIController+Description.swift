import Hummingbird
import NIOCore
import WishlistCore
import WishlistLanguages

/// What anyone may read of the API, without a token: its OpenAPI description, kept in the
/// repository as `Public/openapi.json` and served as it is, and a short page for people.
extension APIController {
    func addDescriptionRoutes(to routes: SiteRouter) {
        routes.add(.apiAbout, use: about)
        routes.add(.apiDescription, use: description)
    }

    @Sendable func about(_ request: Request, context: AppRequestContext) async throws -> Response {
        try pages.render("api/index.html", title: context.visitor.translations.text("The API"), nav: "", for: context.visitor)
    }

    /// The document, with its content hash as the ETag.
    @Sendable func description(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let file = staticFiles.current.files[Self.descriptionFile] else { throw APIProblem.notFound("The API’s description is missing from this install.") }
        let tag = "\"" + file.hash + "\""
        var headers: HTTPFields = [.contentType: "application/json", .eTag: tag, .cacheControl: "no-cache"]
        if let wanted = request.headers[.ifNoneMatch], APIResponse.matches(wanted, tag) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.bytes))
    }

    /// The description's file in `Public/`.
    static let descriptionFile = "openapi.json"
}
