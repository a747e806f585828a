import Hummingbird
import Logging
import NIOCore
import WishlistCore
import WishlistTemplates

/// The request context of every route: Hummingbird's core storage plus who is asking.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Filled in by `SessionMiddleware` before any route runs.
    public var visitor = Visitor.unidentified
    /// The body of a POST, read and checked once by `CSRFMiddleware` (it carries the CSRF token).
    public var form = FormBody()
    /// The file of a multipart upload (the wishlist import), read by `CSRFMiddleware`.
    public var upload: MultipartForm.Part?
    /// The JSON body of a passkey request (`/passkeys/…`), read by `CSRFMiddleware`.
    public var json: ByteBuffer?
    /// The member an API request's bearer token speaks for (``BearerTokenMiddleware``); a
    /// session never fills it.
    public var apiCaller: APICaller?
    /// What the route's ``PageLoaders`` loader read with the session, for a signed-in GET.
    var loadedPage: (any Sendable)?
    private let channel: any Channel

    /// The TCP peer's IP address: the client, or a reverse proxy in front of the server
    /// (``ClientAddressing`` tells which). Worked out only when asked.
    public var peerAddress: String { channel.remoteAddress?.ipAddress ?? "unknown" }

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// Forms are small; anything larger is refused with 413 before it is read.
    public var maxUploadSize: Int { FormBody.maximumBytes }
}

extension AppRequestContext {
    /// The signed-in user. Routes behind `RequireSignInMiddleware` always have one; anywhere else its
    /// absence is answered like a page that does not exist.
    func signedInUser() throws -> Visitor.SignedIn {
        guard let user = visitor.signedIn else { throw PageError.notFound }
        return user
    }
}
