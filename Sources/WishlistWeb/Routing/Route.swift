import HTTPTypes
import WishlistCore
import WishlistLanguages

/// One route of the site: its method and pattern, who may ask for it, the body it takes and how
/// a POST proves it came from this site. Every route is declared once, in the table
/// (`Route+Table.swift`); Hummingbird's router gets its routes from there (``SiteRouter``),
/// `BodyLimitMiddleware` and `CSRFMiddleware` ask the route a request matched, and links are
/// printed from the pattern (``path(_:)``, used by ``SitePath``).
struct Route: Sendable, Hashable, CustomStringConvertible {
    /// Who may ask for it: anyone, or a signed-in member (`RequireSignInMiddleware` sends the
    /// others to sign in).
    enum Access: Sendable, Hashable {
        case anyone
        case members
        /// A personal API token in `Authorization: Bearer` (`BearerTokenMiddleware`); no cookie.
        case apiToken
    }

    /// How a POST proves it was sent from one of this site's pages (`CSRFMiddleware`).
    enum CSRFRule: Sendable, Hashable {
        /// A GET changes nothing and carries no body: nothing to prove.
        case safeMethod
        /// A form with the visitor's `csrf_token`, from this site's origin.
        case sessionToken
        /// JSON from the site's script, the page's token in the `X-CSRF-Token` header (passkeys).
        case headerToken
        /// RFC 8058's one-click unsubscribe: a POST from the mail provider, with no cookie and no
        /// token; the link's own secret token in the path is what allows it, and all it can do is
        /// stop a digest.
        case linkToken
        /// The API's: only a bearer token authenticates it, never a cookie, so a page of another
        /// site cannot make a browser send one of its requests with anyone's authority.
        case bearerToken
    }

    /// What the request's body may be, and how large (`BodyLimitMiddleware`, `CSRFMiddleware`).
    enum Body: Sendable, Hashable {
        /// A URL-encoded form (or the passkey script's JSON) up to ``FormBody/maximumBytes``.
        case form
        /// A multipart form carrying one file.
        case upload(Upload)

        var maximumBytes: Int {
            switch self {
            case .form: FormBody.maximumBytes
            case .upload(let upload): upload.maximumBytes
            }
        }

        /// The 413 for a body over the limit.
        var tooLarge: PageError {
            switch self {
            case .form: .payloadTooLarge
            case .upload(let upload): PageError(.contentTooLarge, title: Translations.marked("That file is too large"), message: upload.tooLarge)
            }
        }
    }

    /// A route that takes a file: its form field, its body limit and what the 413 says.
    struct Upload: Sendable, Hashable {
        let field: String
        let maximumBytes: Int
        /// English, the catalogs' key: the page words it in the reader's language.
        let tooLarge: String
    }

    let method: HTTPRequest.Method
    /// Written as Hummingbird names a route (``RequestContext/endpointPath``): `/lists/{list}`.
    let pattern: String
    let access: Access
    let body: Body
    let csrf: CSRFRule
    /// The pattern cut once into its text and its parameters: ``path(_:)`` prints links on every
    /// page, dozens a request, and splitting the pattern each time was a few percent of a page's CPU.
    private let pieces: [PatternPiece]

    private enum PatternPiece: Sendable, Hashable {
        case text(String)
        case parameter(String)
    }

    init(method: HTTPRequest.Method, pattern: String, access: Access, body: Body, csrf: CSRFRule) {
        (self.method, self.pattern, self.access, self.body, self.csrf) = (method, pattern, access, body, csrf)
        pieces = Self.pieces(of: pattern)
    }

    /// `/lists/{list}/editions` as "/lists/", `{list}`, "/editions"; empty segments dropped.
    private static func pieces(of pattern: String) -> [PatternPiece] {
        var pieces: [PatternPiece] = []
        var text = ""
        for segment in pattern.split(separator: "/", omittingEmptySubsequences: true) {
            text += "/"
            if segment.first == "{", segment.last == "}" {
                pieces.append(.text(text))
                pieces.append(.parameter(String(segment)))
                text = ""
            } else {
                text += segment
            }
        }
        if pieces.isEmpty, text.isEmpty { text = "/" }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    /// A page or a file: `GET pattern`.
    static func get(_ pattern: String, _ access: Access) -> Route {
        Route(method: .get, pattern: pattern, access: access, body: .form, csrf: .safeMethod)
    }

    /// A form's target: `POST pattern`, with the rule that proves where it came from. There is
    /// no default rule, so none is declared without one.
    static func post(_ pattern: String, _ access: Access, csrf: CSRFRule, body: Body = .form) -> Route {
        precondition(csrf != .safeMethod, "a POST route needs a rule that checks where it came from")
        return Route(method: .post, pattern: pattern, access: access, body: body, csrf: csrf)
    }

    /// An API endpoint (issue 54): JSON bodies up to the form limit, behind a token.
    static func api(_ method: HTTPRequest.Method, _ pattern: String) -> Route {
        Route(method: method, pattern: pattern, access: .apiToken, body: .form, csrf: method == .get ? .safeMethod : .bearerToken)
    }

    var description: String { "\(method.rawValue) \(pattern)" }

    /// The path of this route with its parameters (`{list}`, `{item}`…) filled in order by
    /// `values`, each already safe in a path.
    func path(_ values: String...) -> String {
        var values = values[...]
        var path = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                path += text
            case .parameter(let name):
                guard let value = values.popFirst() else { preconditionFailure("\(self) needs a value for \(name)") }
                path += value
            }
        }
        precondition(values.isEmpty, "\(self) has fewer parameters than it was given")
        return path
    }

    /// The table's routes by method and pattern, for the middleware that asks which route a
    /// request matched (`RouteTableTests` checks that no two share them).
    private static let byEndpoint: [String: Route] = Dictionary(all.map { ($0.description, $0) }, uniquingKeysWith: { first, _ in first })

    /// The route a request was matched to: Hummingbird's ``RequestContext/endpointPath`` (nil when
    /// no route matched) and the request's method.
    static func matched(_ method: HTTPRequest.Method, endpointPath: String?) -> Route? {
        guard let endpointPath else { return nil }
        return byEndpoint["\(method.rawValue) \(endpointPath)"]
    }
}
