import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WishlistCore

/// Serves `Public/` under `/static/` ahead of everything but logging, headers and error pages:
/// static files need no session, so they set no cookie and cost no database lookup. Files come
/// from memory (``StaticFiles``), gzipped once when the browser takes gzip. A URL carrying the
/// file's current hash (`?v=`, as pages link them) is cached for a year and never revalidated;
/// any other, an old hash or none, for an hour. `/manifest.webmanifest` is served from the root,
/// whose pages it describes. The stylesheet at its hash also sets the one cookie a static file
/// sets, naming that hash: the browser's next pages link the sheet rather than carry it (``PageStylesheet``).
struct StaticFilesMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static var prefix: String { "/static" }
    static var manifestPath: String { "/manifest.webmanifest" }
    static var immutable: String { "public, max-age=31536000, immutable" }
    static var shortLived: String { "public, max-age=3600" }

    let files: StaticFiles
    /// `server.secureCookies`: the stylesheet's cookie is `Secure`.
    let secureCookies: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let name: Substring
        if path.hasPrefix(Self.prefix + "/") {
            name = path.dropFirst(Self.prefix.count + 1)
        } else if path == Self.manifestPath {
            name = path.dropFirst()
        } else {
            return try await next(request, context)
        }
        // Hummingbird's FileMiddleware answered GET and HEAD and sent anything else on, to the
        // not-found page: so does this.
        let snapshot = files.current
        guard request.method == .get || request.method == .head, let file = snapshot.files[String(name)] else {
            throw HTTPError(.notFound)
        }
        let gzip = file.gzipped != nil && CompressionMiddleware<Context>.acceptsGzip(request.headers[.acceptEncoding])
        let etag = gzip ? "\"\(file.hash).gz\"" : "\"\(file.hash)\""
        let current = request.uri.queryParameters.get("v") == file.hash
        var headers: HTTPFields = [
            .contentType: file.contentType,
            .cacheControl: current ? Self.immutable : Self.shortLived,
            .eTag: etag,
        ]
        if file.gzipped != nil { headers[.vary] = "Accept-Encoding" }
        // The browser now holds the pages' sheet at its hash, in its cache for as long as the cookie lasts.
        if current, request.method == .get, name == PageStylesheet.fileName, let stylesheet = snapshot.stylesheet {
            headers[.setCookie] = stylesheet.cookie(secure: secureCookies).description
        }
        if let match = request.headers[.ifNoneMatch], match == "*" || match.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == etag
        }) {
            return Response(status: .notModified, headers: headers)
        }
        let body = gzip ? file.gzipped! : file.bytes
        if gzip { headers[.contentEncoding] = "gzip" }
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .ok, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: body))
    }
}
