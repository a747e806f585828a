import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
@testable import WishlistCore

/// A stand-in OpenID Connect provider on a loopback port: discovery, a JWKS with an RSA and a
/// P-256 key, and a token endpoint that checks the client's secret, the redirect URI, single
/// use of each code and its PKCE verifier as a real provider does. Codes are issued by a direct
/// call (`issueCode`) in place of the provider's login page; `forge` changes what the next ID
/// token says or how it is signed; `fail` makes an endpoint misbehave as a provider that is
/// down, slow or behind a broken proxy does.
final class FakeOpenIDProvider: Sendable {
    static let clientID = "wishlist-test"
    static let clientSecret = "fake-secret-\u{2603}-value"

    /// What the token endpoint puts in the ID token: claims and signing, changeable per test.
    struct Token: Sendable {
        var claims: [String: any Sendable]
        var signing: TestTokenSigner.Signing
    }

    enum Endpoint: Sendable, CaseIterable {
        case discovery, token, keys
    }

    enum Fault: Sendable, Equatable {
        /// An HTML error page with this status, as a proxy in front of a stopped provider answers.
        case status(Int)
        /// A 200 that is not JSON.
        case garbage
        /// A 200 that sends a byte a tenth of a second and never finishes, until the client hangs up.
        case stalls
        /// The discovery document names the endpoint on a closed port, so connecting is refused.
        case closedPort
    }

    /// A port nothing listens on (the discard service's), for `closedPort`.
    static let closedPortURL = "http://127.0.0.1:9"

    struct Grant: Sendable {
        let subject: String
        let preferredUsername: String
        let nonce: String
        let challenge: String
        let redirectURI: String
        var used = false
    }

    private struct State {
        var grants: [String: Grant] = [:]
        var forge: (@Sendable (inout Token) -> Void)?
        var keys: [[String: String]] = []
        var keyReads = 0
        var tokenRequests: [[String: String]] = []
        var faults: [Endpoint: Fault] = [:]
        /// Requests that reached each endpoint, failed or not.
        var requests: [Endpoint: Int] = [:]
    }

    private let state: Mutex<State>
    let clock: WallClock

    init(clock: WallClock) {
        self.clock = clock
        state = Mutex(State(keys: [
            TestTokenSigner.jwk(rsa: TestTokenSigner.rsa.publicKey, kid: "rsa-1"),
            TestTokenSigner.jwk(p256: TestTokenSigner.p256.publicKey, kid: "ec-1"),
        ].map { $0.mapValues { $0 as! String } }))
    }

    /// Changes the next ID tokens (nil: honest ones).
    func forge(_ change: (@Sendable (inout Token) -> Void)?) { state.withLock { $0.forge = change } }

    /// Publishes another RSA key (the provider rotated its keys).
    func publish(rsaKid kid: String) {
        state.withLock { $0.keys.append(TestTokenSigner.jwk(rsa: TestTokenSigner.otherRSA.publicKey, kid: kid).mapValues { $0 as! String }) }
    }

    var keyReads: Int { state.withLock { $0.keyReads } }

    /// `endpoint` answers with `fault` from its next request on (nil: answers normally).
    func fail(_ endpoint: Endpoint, with fault: Fault?) { state.withLock { $0.faults[endpoint] = fault } }

    /// Requests that reached the provider, every endpoint's.
    var requestCount: Int { state.withLock { $0.requests.values.reduce(0, +) } }
    var tokenRequests: [[String: String]] { state.withLock { $0.tokenRequests } }

    /// What the provider's login page would do after `subject` signed in: a code for the
    /// authorization request in `url` (the app's redirect), and the `state` to send back.
    func issueCode(forAuthorizationURL url: String, subject: String = "sub-0001", preferredUsername: String = "Ada Lovelace") throws -> (code: String, state: String) {
        let query = Self.fields(URLComponents(string: url)?.percentEncodedQuery)
        guard query["response_type"] == "code", query["client_id"] == Self.clientID, query["code_challenge_method"] == "S256",
              let challenge = query["code_challenge"], let nonce = query["nonce"], let returned = query["state"],
              let redirectURI = query["redirect_uri"], query["scope"]?.split(separator: " ").contains("openid") == true
        else { throw TestSetupError(description: "not an authorization request: \(url)") }
        let code = "code-" + UUID().uuidString
        state.withLock {
            $0.grants[code] = Grant(subject: subject, preferredUsername: preferredUsername, nonce: nonce, challenge: challenge, redirectURI: redirectURI)
        }
        return (code, returned)
    }

    func run<Value: Sendable>(_ body: @Sendable (_ issuer: String) async throws -> Value) async throws -> Value {
        let router = Router()
        let issuerBox = Mutex("")
        router.get(".well-known/openid-configuration") { _, _ in
            if let failed = self.arrived(at: .discovery) { return failed }
            let issuer = issuerBox.withLock { $0 }
            let (token, keys) = self.state.withLock { state in
                (state.faults[.token] == .closedPort ? Self.closedPortURL : issuer, state.faults[.keys] == .closedPort ? Self.closedPortURL : issuer)
            }
            return try Self.json([
                "issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": token + "/token",
                "jwks_uri": keys + "/jwks", "response_types_supported": ["code"], "id_token_signing_alg_values_supported": ["RS256", "ES256"],
                "code_challenge_methods_supported": ["S256"],
            ])
        }
        router.get("jwks") { _, _ in
            if let failed = self.arrived(at: .keys) { return failed }
            let keys = self.state.withLock { state in
                state.keyReads += 1
                return state.keys
            }
            return try Self.json(["keys": keys])
        }
        router.post("token") { request, _ in
            let body = try await request.body.collect(upTo: 65_536)
            if let failed = self.arrived(at: .token) { return failed }
            return try self.token(form: Self.fields(String(buffer: body)), authorization: request.headers[.authorization], issuer: issuerBox.withLock { $0 })
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.serveAsFake { port in
            let issuer = "http://127.0.0.1:\(port)"
            issuerBox.withLock { $0 = issuer }
            return try await body(issuer)
        }
    }

    /// Counts the request; the fault's answer when `endpoint` has one.
    private func arrived(at endpoint: Endpoint) -> Response? {
        let fault = state.withLock { state in
            state.requests[endpoint, default: 0] += 1
            return state.faults[endpoint]
        }
        switch fault {
        case nil, .closedPort: return nil
        case .status(let status):
            return Response(
                status: .init(code: status), headers: [.contentType: "text/html"],
                body: .init(byteBuffer: ByteBuffer(string: "<html><body><h1>Error \(status)</h1></body></html>"))
            )
        case .garbage:
            return Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<html>Maintenance")))
        case .stalls:
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody { writer in
                // At most a minute; a client that hangs up at its timeout makes the next write fail.
                for _ in 0..<600 {
                    try await writer.write(ByteBuffer(string: " "))
                    try await Task.sleep(for: .milliseconds(100))
                }
                try await writer.finish(nil)
            })
        }
    }

    private func token(form: [String: String], authorization: String?, issuer: String) throws -> Response {
        let expected = "Basic " + Data("\(OpenIDProvider.formEncode(Self.clientID)):\(OpenIDProvider.formEncode(Self.clientSecret))".utf8).base64EncodedString()
        guard authorization == expected else { return try Self.json(["error": "invalid_client"], status: 401) }
        enum Outcome { case refused(String), issued(Token) }
        let outcome: Outcome = state.withLock { state in
            state.tokenRequests.append(form)
            guard form["grant_type"] == "authorization_code", let code = form["code"], var grant = state.grants[code] else {
                return .refused("invalid_grant")
            }
            guard !grant.used else { return .refused("invalid_grant") }
            grant.used = true
            state.grants[code] = grant
            let verifier = form["code_verifier"] ?? ""
            guard form["redirect_uri"] == grant.redirectURI,
                  Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8)))) == grant.challenge
            else { return .refused("invalid_grant") }
            let now = Int(clock.now().timeIntervalSince1970)
            var token = Token(claims: [
                "iss": issuer, "aud": Self.clientID, "sub": grant.subject, "nonce": grant.nonce, "iat": now, "exp": now + 300,
                "preferred_username": grant.preferredUsername, "email": "shared@example.org",
            ], signing: .rs256(kid: "rsa-1"))
            state.forge?(&token)
            return .issued(token)
        }
        switch outcome {
        case .refused(let error): return try Self.json(["error": error], status: 400)
        case .issued(let token):
            return try Self.json([
                "access_token": "access-" + UUID().uuidString, "token_type": "Bearer", "expires_in": 300,
                "id_token": TestTokenSigner.sign(token.claims.mapValues { $0 as Any }, token.signing),
            ])
        }
    }

    static func fields(_ query: String?) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decoded = parts.map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            fields[decoded[0]] = decoded.count > 1 ? decoded[1] : ""
        }
        return fields
    }

    static func json(_ object: [String: Any], status: Int = 200) throws -> Response {
        Response(
            status: .init(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
        )
    }
}
