import Foundation
import HTTPTypes
import Hummingbird
import WishlistLanguages

/// An API error as `application/problem+json` (RFC 9457): `type` is `about:blank`, so `title` is
/// the status's own phrase and `detail` the sentence that says what went wrong for this request.
/// Like the pages' errors, it never carries a secret or a stack.
struct APIProblem: Error, Sendable {
    var status: HTTPResponse.Status
    var detail: String
    var headers: HTTPFields = [:]

    /// The realm every `WWW-Authenticate` challenge names (RFC 6750 section 3).
    static let realm = "wishlist"

    /// No `Authorization: Bearer` header: the bare challenge, no error code (RFC 6750 section 3.1).
    static let noToken = APIProblem(
        status: .unauthorized, detail: "Send a personal API token in an Authorization: Bearer header. Make one in Settings → API tokens.",
        headers: [.wwwAuthenticate: "Bearer realm=\"\(realm)\""]
    )

    /// A token that is malformed, unknown, revoked or expired, or its account disabled: all alike,
    /// so a guess learns nothing about which.
    static let invalidToken = APIProblem(
        status: .unauthorized, detail: "The token is not valid: it may be mistyped, revoked or expired. Make a new one in Settings → API tokens.",
        headers: [.wwwAuthenticate: "Bearer realm=\"\(realm)\", error=\"invalid_token\""]
    )

    /// A read token asking to change something.
    static let insufficientScope = APIProblem(
        status: .forbidden, detail: "This token may only read. Make a read-write token to change your wishlist.",
        headers: [.wwwAuthenticate: "Bearer realm=\"\(realm)\", error=\"insufficient_scope\", scope=\"read-write\""]
    )

    static func notFound(_ detail: String) -> APIProblem { APIProblem(status: .notFound, detail: detail) }
    static func badRequest(_ detail: String) -> APIProblem { APIProblem(status: .badRequest, detail: detail) }
    static func unprocessable(_ detail: String) -> APIProblem { APIProblem(status: .unprocessableContent, detail: detail) }

    static func tooManyRequests(retryAfter seconds: Int) -> APIProblem {
        APIProblem(
            status: .tooManyRequests, detail: "This token has made too many requests. Try again in \(seconds) seconds.",
            headers: [.retryAfter: String(seconds)]
        )
    }

    static let internalError = APIProblem(status: .internalServerError, detail: "Something went wrong on the server. It has been logged.")

    /// The problem's answer.
    var response: Response {
        var headers = headers
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        let body: [String: Any] = ["type": "about:blank", "title": status.reasonPhrase, "status": status.code, "detail": detail]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIProblem {
    /// A page's error as the API says it: its status, its sentence and its headers (`Retry-After`, `Allow`).
    init(_ page: PageError) {
        self.init(status: page.status, detail: page.message(in: Translations()), headers: page.headers)
    }
}
