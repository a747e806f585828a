import Foundation
import Synchronization

/// The OpenID Connect provider of `accounts.oidc`, spoken to over libcurl on the client's own
/// threads (never an event loop): its discovery document, its keys, and the token request of
/// the authorization code flow with PKCE.
public final class OpenIDProvider: Sendable {
    /// Why a sign-in could not be finished. `description` is for the log: it never holds the
    /// client secret, a token or a code.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Down, slow, or answering what is not OpenID Connect.
        case unavailable(String)
        /// The token endpoint refused the code (used already, expired, or its PKCE verifier differs).
        case codeRefused(String)
        case token(TokenRefusal)

        public var description: String {
            switch self {
            case .unavailable(let reason): "the provider could not be used: \(reason)"
            case .codeRefused(let error): "the provider refused the code: \(error)"
            case .token(let refusal): refusal.description
            }
        }
    }

    /// The discovery document's endpoints this app uses.
    public struct Endpoints: Sendable, Equatable {
        public let authorization: String
        public let token: String
        public let keys: String
    }

    /// An unknown `kid` re-reads the keys, but not more often than this: a stream of forged
    /// tokens must not make us hammer the provider.
    static let keyRereadInterval: TimeInterval = 60

    /// Once the provider could not be used, it is not asked again for this long: the next person
    /// to press the button hears at once instead of after a timeout, and a provider that is down
    /// is not queued at.
    static let outagePause: TimeInterval = 30

    public let settings: AppConfig.OIDC
    public let redirectURI: String
    private let http: CurlHTTPClient
    private let clock: WallClock
    private let cache = Mutex(Cache())

    private struct Cache {
        var endpoints: Endpoints?
        var keys: JSONWebKeySet?
        var keysReadAt: Date?
        /// When the provider last could not be used, if it has not answered since.
        var failedAt: Date?
    }

    /// `redirectURI` is the site's callback, absolute: the web layer prints it from its route.
    public init(settings: AppConfig.OIDC, redirectURI: String, clock: WallClock, limits: CurlHTTPClient.Limits = .init()) {
        self.settings = settings
        self.redirectURI = redirectURI
        self.clock = clock
        var limits = limits
        limits.maximumBodyBytes = min(limits.maximumBodyBytes, 512 * 1024)
        limits.totalTimeoutSeconds = min(limits.totalTimeoutSeconds, 15)
        self.http = CurlHTTPClient(limits: limits, threads: 2)
    }

    // MARK: The flow

    /// Where to send the browser to sign in at the provider. The discovery document is read
    /// afresh for it: a provider that went down since is told to the person here, on our page,
    /// rather than by the browser failing to reach it.
    public func authorizationURL(for attempt: SignInAttempt) async throws(Failure) -> String {
        let endpoints = try await unlessRecentlyDown { () async throws(Failure) in try await self.endpoints(reading: true) }
        let query = Self.formEncode([
            ("response_type", "code"), ("client_id", settings.clientID), ("redirect_uri", redirectURI),
            ("scope", "openid profile"), ("state", attempt.state), ("nonce", attempt.nonce),
            ("code_challenge", attempt.codeChallenge), ("code_challenge_method", "S256"),
        ])
        return endpoints.authorization + (endpoints.authorization.contains("?") ? "&" : "?") + query
    }

    /// Where the browser goes when it is sent to sign in: the issuer's origin, and the authorization
    /// endpoint's once discovery has named it (it is read at every start), as `scheme://host[:port]`.
    /// A page whose form's answer leads there lists them in its Content-Security-Policy's `form-action`.
    public var authorizationOrigins: [String] {
        let endpoint = cache.withLock { $0.endpoints?.authorization }
        var origins: [String] = []
        for url in [settings.issuer, endpoint].compactMap({ $0 }) {
            if let origin = Self.origin(of: url), !origins.contains(origin) { origins.append(origin) }
        }
        return origins
    }

    /// `scheme://host[:port]` of an http(s) URL; nil for an IPv6 literal, which a
    /// Content-Security-Policy cannot name.
    static func origin(of url: String) -> String? {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.encodedHost, !host.contains(":") else { return nil }
        return scheme + "://" + host + (parts.port.map { ":\($0)" } ?? "")
    }

    /// Exchanges the code for tokens and returns the ID token once its signature and claims
    /// were checked against `attempt`.
    public func redeem(code: String, for attempt: SignInAttempt) async throws(Failure) -> IDToken {
        try await unlessRecentlyDown { () async throws(Failure) in try await self.exchange(code: code, for: attempt) }
    }

    private func exchange(code: String, for attempt: SignInAttempt) async throws(Failure) -> IDToken {
        let endpoints = try await endpoints()
        var fields = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", attempt.codeVerifier),
        ]
        var headers: [String] = []
        if settings.clientSecret.isEmpty {
            fields.append(("client_id", settings.clientID))
        } else {
            // client_secret_basic (RFC 6749 §2.3.1): both halves form-encoded before base64.
            let credentials = Self.formEncode(settings.clientID) + ":" + Self.formEncode(settings.clientSecret)
            headers.append("Authorization: Basic " + Data(credentials.utf8).base64EncodedString())
        }
        let (form, extraHeaders) = (Self.formEncode(fields), headers)
        let response = try await fetch { try await self.http.post(endpoints.token, form: form, headers: extraHeaders) }
        let answer = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        guard response.status == 200 else {
            if (400..<500).contains(response.status), let error = answer?["error"] as? String {
                throw .codeRefused(String(error.filter { $0.isASCII && ($0.isLetter || $0 == "_") }.prefix(60)))
            }
            throw .unavailable("the token endpoint answered \(response.status)")
        }
        guard let compact = answer?["id_token"] as? String else { throw .unavailable("the token endpoint's answer has no id_token") }
        return try await verify(compact, nonce: attempt.nonce)
    }

    /// Checks an ID token's signature against the provider's keys (read again once when its
    /// `kid` is unknown) and its claims.
    public func verify(_ compact: String, nonce: String) async throws(Failure) -> IDToken {
        let token: JSONWebSignature
        do throws(TokenRefusal) { token = try JSONWebSignature(compact: compact) } catch { throw .token(error) }
        let known = try await keys(rereading: false)
        do throws(TokenRefusal) {
            try token.verify(with: known)
        } catch .unknownKey {
            let reread = try await keys(rereading: true)
            do throws(TokenRefusal) { try token.verify(with: reread) } catch { throw .token(error) }
        } catch {
            throw .token(error)
        }
        do throws(TokenRefusal) {
            return try IDToken(
                payload: token.payload,
                expecting: .init(issuer: settings.issuer, clientID: settings.clientID, nonce: nonce, now: clock.now())
            )
        } catch {
            throw .token(error)
        }
    }

    /// Runs `exchange` unless the provider failed less than `outagePause` ago. Its failing to be
    /// reached or understood starts the pause; any answer of the provider's ends it.
    private func unlessRecentlyDown<Value>(_ exchange: () async throws(Failure) -> Value) async throws(Failure) -> Value {
        if let failedAt = cache.withLock({ $0.failedAt }), clock.now().timeIntervalSince(failedAt) < Self.outagePause {
            throw .unavailable("it failed less than \(Int(Self.outagePause)) s ago, so it was not asked again yet")
        }
        do throws(Failure) {
            let value = try await exchange()
            cache.withLock { $0.failedAt = nil }
            return value
        } catch {
            if case .unavailable = error {
                cache.withLock { $0.failedAt = clock.now() }
            } else {
                cache.withLock { $0.failedAt = nil }
            }
            throw error
        }
    }

    // MARK: Discovery and keys

    /// The discovery document's endpoints as last read, or read now when `reading` or none are kept.
    public func endpoints(reading: Bool = false) async throws(Failure) -> Endpoints {
        if !reading, let known = cache.withLock({ $0.endpoints }) { return known }
        let url = settings.issuer + "/.well-known/openid-configuration"
        let response = try await fetch { try await self.http.get(url) }
        guard response.status == 200, let document = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else {
            throw .unavailable("its discovery document answered \(response.status) or is not JSON")
        }
        // OpenID Connect Discovery §4.3: the document must name the issuer we asked.
        guard document["issuer"] as? String == settings.issuer else { throw .unavailable("its discovery document names another issuer") }
        guard let authorization = document["authorization_endpoint"] as? String, let token = document["token_endpoint"] as? String,
              let keys = document["jwks_uri"] as? String,
              [authorization, token, keys].allSatisfy(Self.isSafeEndpoint)
        else { throw .unavailable("its discovery document lacks an endpoint, or names one that is not https") }
        let endpoints = Endpoints(authorization: authorization, token: token, keys: keys)
        cache.withLock { $0.endpoints = endpoints }
        return endpoints
    }

    /// The keys as last read; with `rereading`, read again unless they were read in the last minute.
    private func keys(rereading: Bool) async throws(Failure) -> JSONWebKeySet {
        let now = clock.now()
        let (kept, readAt) = cache.withLock { ($0.keys, $0.keysReadAt) }
        if let kept, let readAt {
            let recent = now.timeIntervalSince(readAt) < Self.keyRereadInterval
            if !rereading || recent { return kept }
        }
        let url = try await endpoints().keys
        let response = try await fetch { try await self.http.get(url) }
        guard response.status == 200, let keys = JSONWebKeySet(json: response.body) else {
            throw .unavailable("its key set answered \(response.status) or is not a JWKS")
        }
        cache.withLock {
            $0.keys = keys
            $0.keysReadAt = now
        }
        return keys
    }

    /// https, or http to this machine only: the rule of the issuer itself (`ConfigSetting.issuer`).
    static func isSafeEndpoint(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), let host = components.host,
              !host.isEmpty else { return false }
        return scheme == "https" || (scheme == "http" && AddressRange.isLoopback(host: host))
    }

    private func fetch(_ request: @Sendable () async throws -> CurlHTTPClient.Response) async throws(Failure) -> CurlHTTPClient.Response {
        do {
            return try await request()
        } catch let failure as CurlHTTPClient.Failure {
            throw .unavailable(failure.description)
        } catch {
            throw .unavailable(String(describing: error))
        }
    }

    static func formEncode(_ fields: [(String, String)]) -> String {
        fields.map { formEncode($0) + "=" + formEncode($1) }.joined(separator: "&")
    }

    static func formEncode(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
