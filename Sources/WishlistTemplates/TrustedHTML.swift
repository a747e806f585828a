/// Markup that the engine writes verbatim in text positions.
///
/// This is the only way to put raw HTML on a page. Create it in Swift code from
/// markup you control (never from user data). It is deliberately not `Decodable`,
/// so it cannot come out of a request body or a database row by accident. Inside
/// attribute values it is escaped like any other string.
public struct TrustedHTML: Sendable, Equatable {
    /// The markup, exactly as given.
    public let html: String

    /// Wraps markup that you vouch for: it must be complete, well-formed HTML.
    public init(trusted html: String) {
        self.html = html
    }
}
