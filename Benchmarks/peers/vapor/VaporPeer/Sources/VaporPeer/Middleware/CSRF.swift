import Vapor

/// Vapor has no CSRF protection of its own. As Vapor apps commonly do, a random token is kept in
/// the session, every form carries it in a hidden `csrf_token` field, and this middleware refuses
/// a POST whose field does not match.
struct CSRFMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.method == .POST {
            let sent = try? request.content.get(String.self, at: "csrf_token")
            guard let sent, let expected = request.session.data[Session.csrfKey], Self.same(sent, expected) else {
                throw Abort(.forbidden, reason: "The form's security token is missing or out of date. Go back, reload the page and try again.")
            }
        }
        return try await next.respond(to: request)
    }

    /// Compares without stopping at the first difference.
    private static func same(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension Session {
    static let csrfKey = "csrf_token"

    /// The session's CSRF token, made on first use: 32 random bytes, base64url.
    var csrfToken: String {
        if let token = self.data[Self.csrfKey] { return token }
        let token = Data([UInt8].random(count: 32)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        self.data[Self.csrfKey] = token
        return token
    }
}
