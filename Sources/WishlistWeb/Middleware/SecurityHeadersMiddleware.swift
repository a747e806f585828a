import HTTPTypes
import Hummingbird
import WishlistCore

/// Adds the security headers of the design to every response, error pages and static files included.
///
/// Behind HTTPS (`server.secureCookies`) it also sends `Strict-Transport-Security`, so a browser
/// that has been here once never again asks for the site over plain HTTP, where its cookies and
/// forms could be read or changed on the way. Over plain HTTP the header would mean nothing
/// (browsers ignore it there, RFC 6797 section 8.1) and could lock out a LAN install that has no TLS.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The policy: everything from our own origin, plus the one `<style>` element whose hash is
    /// `inlineStyle` (the pages' stylesheet, ``PageStylesheet``), never any other inline style. A
    /// page that links the sheet instead sends the policy without it (``PageRenderer``).
    /// `formActions` are origins a page's forms may lead to besides ours (the single sign-on
    /// provider, where linking an identity sends the browser).
    static func contentSecurityPolicy(inlineStyle: String?, formActions: [String] = []) -> String {
        // Every picture is ours (covers included, `/covers/`): no page makes a request to
        // another host, which would learn who browses what (issue 30).
        "default-src 'self'; img-src 'self' data:; style-src 'self'" + (inlineStyle.map { " " + $0 } ?? "")
            + "; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'" + formActions.map { " " + $0 }.joined()
    }

    static func headers(inlineStyle: String?) -> HTTPFields {
        [
            .contentSecurityPolicy: contentSecurityPolicy(inlineStyle: inlineStyle),
            .xContentTypeOptions: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "same-origin",
            HTTPField.Name("Cross-Origin-Opener-Policy")!: "same-origin",
            // For browsers without CSP level 2 (`frame-ancestors`): no framing at all.
            HTTPField.Name("X-Frame-Options")!: "DENY",
            // Current browsers ignore this header; old ones with an XSS filter get its safe mode
            // (block the whole page rather than rewrite it). `make scan` (wapiti) requires it.
            HTTPField.Name("X-XSS-Protection")!: "1; mode=block",
        ]
    }

    /// Two years, as browsers' preload lists expect; subdomains are left alone, since a home
    /// server's name often has siblings that are not ours.
    static var strictTransportSecurity: String { "max-age=63072000" }

    private let headers: HTTPFields
    private let names: Set<HTTPField.Name>
    /// In development the stylesheet is read again on every request, and so is its hash.
    private let reloadedFiles: StaticFiles?

    init(behindHTTPS: Bool, files: StaticFiles) {
        var headers = Self.headers(inlineStyle: files.current.stylesheet?.policySource)
        if behindHTTPS { headers[.strictTransportSecurity] = Self.strictTransportSecurity }
        self.headers = headers
        self.names = Set(headers.map(\.name))
        self.reloadedFiles = files.reloads ? files : nil
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        var headers = headers
        if let reloadedFiles {
            headers[.contentSecurityPolicy] = Self.contentSecurityPolicy(inlineStyle: reloadedFiles.current.stylesheet?.policySource)
        }
        // Almost every response sets none of them (a share link sets its own Referrer-Policy):
        // one pass over the response's few fields, then all appended at once.
        guard response.headers.contains(where: { names.contains($0.name) }) else {
            response.headers.append(contentsOf: headers)
            return response
        }
        for field in headers where response.headers[field.name] == nil {
            response.headers.append(field)
        }
        return response
    }
}
