import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// gzips a response when the browser asks for it (`Accept-Encoding`) and the body is text worth
/// it: HTML, CSS, SVG, JavaScript, the manifest and Atom feeds, of at least ``minimumBytes``, with a length
/// known up front (a body streamed without one is left as it is, as is anything already encoded).
/// Static files come gzipped already, from ``StaticFiles``; this compresses pages, per response,
/// since pages are per visitor.
///
/// HTML is compressed only for a request the browser made from one of our own pages or from its
/// address bar (`Sec-Fetch-Site: same-origin` or `none`): a page holds the session's CSRF token and
/// may echo what a request asked for (a search), and BREACH needs another site to make the
/// browser send requests of its choosing (docs/decisions/pages-compressed-per-response.md). A feed is
/// compressed for any reader that asks: its one secret is the token of its own address, which
/// whoever can request it already knows, and nothing of the request is echoed in it.
struct CompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Below this, gzip's 18-byte frame and the CPU cost buy little.
    static var minimumBytes: Int { 1024 }
    /// Above this a body is not collected into memory to be compressed.
    static var maximumBytes: Int { 4 << 20 }

    /// Bytes that pages share, deflated once (the inline stylesheet): not compressed per response.
    let sharedPart: @Sendable () -> Gzip.SharedPart?

    init(sharedPart: @escaping @Sendable () -> Gzip.SharedPart? = { nil }) {
        self.sharedPart = sharedPart
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard let type = response.headers.firstValue(.contentType), let kind = Self.kind(ofContentType: type) else { return response }
        VaryField.addAcceptEncoding(to: &response.headers)
        guard !response.headers.contains(.contentEncoding),
              Self.acceptsGzip(request.headers[.acceptEncoding]),
              kind != .page || Self.isOwnNavigation(request.headers),
              let length = response.body.contentLength, length >= Self.minimumBytes, length <= Self.maximumBytes
        else { return response }
        let collector = BodyCollector(capacity: length)
        try await response.body.write(collector.writer)
        let shared = kind == .page ? sharedPart() : nil
        guard let compressed = Gzip.compress(collector.buffer, level: Gzip.pageLevel, reusing: shared), compressed.readableBytes < length
        else {
            response.body = ResponseBody(byteBuffer: collector.buffer)
            return response
        }
        response.headers[.contentEncoding] = "gzip"
        // A strong validator names one representation; the compressed one is another.
        if let etag = response.headers[.eTag], !etag.hasPrefix("W/") { response.headers[.eTag] = "W/" + etag }
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    enum Kind { case page, asset, feed }

    /// HTML is a page (per visitor, may hold secrets); an Atom feed is a feed; the other
    /// compressible types are assets.
    static func kind(ofContentType type: String) -> Kind? {
        switch trimmedLowercased(type.prefix { $0 != ";" }) {
        case "text/html": return .page
        case "text/css", "image/svg+xml", "text/javascript", "application/javascript", "application/manifest+json": return .asset
        case "application/atom+xml": return .feed
        default: return nil
        }
    }

    /// Whether `Accept-Encoding` lists gzip (or `*`) with a non-zero quality.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map(trimmedLowercased)
            guard let name = parts.first, name == "gzip" || name == "x-gzip" || name == "*" else { continue }
            let refused = parts.dropFirst().contains { parameter in
                parameter.hasPrefix("q=") && (Double(parameter.dropFirst(2)) ?? 1) == 0
            }
            if !refused { return true }
        }
        return false
    }

    /// A header's part without the spaces and tabs around it (HTTP's optional white space), in
    /// lower case. Foundation's `trimmingCharacters` goes through `NSString`, and with it this
    /// parsing cost most of a percent of the server's CPU (issue 34).
    private static func trimmedLowercased(_ part: Substring) -> String {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = part.firstIndex(where: { !isSpace($0) }), let last = part.lastIndex(where: { !isSpace($0) }) else { return "" }
        return part[first...last].lowercased()
    }

    /// The browser made this request from one of our pages or the address bar, not for another site.
    static func isOwnNavigation(_ headers: HTTPFields) -> Bool {
        switch headers[secFetchSite]?.lowercased() {
        case "same-origin", "none": true
        default: false
        }
    }
}

/// Made once: a name made from text is checked and lowercased each time, and every page asks.
private let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

/// The Vary field of a compressed or compressible answer.
enum VaryField {
    /// Names Accept-Encoding in the response's Vary once. Every page passes here: the names are
    /// compared byte by byte, without their case as HTTP's are, not through a lowercased copy.
    static func addAcceptEncoding(to headers: inout HTTPFields) {
        let named = headers[values: .vary].contains { value in
            value.utf8.split(separator: UInt8(ascii: ",")).contains(where: isAcceptEncoding)
        }
        // A field of its own: a list split over several Vary fields means the same as one.
        if !named { headers.append(HTTPField(name: .vary, value: "Accept-Encoding")) }
    }

    private static let acceptEncoding = Array("accept-encoding".utf8)

    /// Whether one name of a Vary list, spaces around it, is Accept-Encoding in any case.
    static func isAcceptEncoding(_ name: Substring.UTF8View) -> Bool {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = name.firstIndex(where: { !isSpace($0) }), let last = name.lastIndex(where: { !isSpace($0) }) else { return false }
        let trimmed = name[first...last]
        return trimmed.count == acceptEncoding.count && zip(trimmed, acceptEncoding).allSatisfy { byte, expected in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 == expected : byte == expected
        }
    }
}

/// Gathers a response body into one buffer.
private final class BodyCollector: @unchecked Sendable {
    var buffer: ByteBuffer

    init(capacity: Int) { buffer = ByteBufferAllocator().buffer(capacity: capacity) }

    var writer: Writer { Writer(collector: self) }

    struct Writer: ResponseBodyWriter {
        let collector: BodyCollector
        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            collector.buffer.writeBuffer(&buffer)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
