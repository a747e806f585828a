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
/// whose pages it describes.
struct StaticFilesMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static var prefix: String { "/static" }
    static var manifestPath: String { "/manifest.webmanifest" }
    static var immutable: String { "public, max-age=31536000, immutable" }
    static var shortLived: String { "public, max-age=3600" }

    let files: StaticFiles

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
        guard request.method == .get || request.method == .head, let file = files.current.files[String(name)] else {
            throw HTTPError(.notFound)
        }
        let gzip = file.gzipped != nil && CompressionMiddleware<Context>.acceptsGzip(request.headers[.acceptEncoding])
        let etag = gzip ? "\"\(file.hash).gz\"" : "\"\(file.hash)\""
        var headers: HTTPFields = [
            .contentType: file.contentType,
            .cacheControl: request.uri.queryParameters.get("v") == file.hash ? Self.immutable : Self.shortLived,
            .eTag: etag,
        ]
        if file.gzipped != nil { headers[.vary] = "Accept-Encoding" }
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
