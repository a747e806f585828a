import Foundation

/// The claims of an ID token this app uses, read only after its signature and every rule of
/// OpenID Connect Core §3.1.3.7 that applies to us were checked.
public struct IDToken: Sendable, Equatable {
    /// The provider's name for the person, unique and never reassigned within its issuer.
    public let subject: String
    /// What the person would like to be called; only a suggestion for a new account's name.
    public let preferredUsername: String?

    /// Clocks of two machines disagree a little; this much either way is forgiven.
    public static let leeway: TimeInterval = 60

    /// What a token must say to be ours: from `issuer`, for `clientID`, carrying `nonce`.
    public struct Expectation: Sendable {
        public let issuer: String
        public let clientID: String
        public let nonce: String
        public let now: Date

        public init(issuer: String, clientID: String, nonce: String, now: Date) {
            self.issuer = issuer
            self.clientID = clientID
            self.nonce = nonce
            self.now = now
        }
    }

    /// Checks `iss`, `aud` (and `azp` when there are several audiences or it is present),
    /// `exp`, `iat`, `nonce` and `sub` of a payload whose signature was verified.
    public init(payload: [UInt8], expecting expected: Expectation) throws(TokenRefusal) {
        guard let claims = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
              JSONMemberNames.haveDuplicates(payload) == false
        else { throw .malformed }
        guard claims["iss"] as? String == expected.issuer else { throw .claim("comes from another issuer") }
        let audiences = (claims["aud"] as? String).map { [$0] } ?? (claims["aud"] as? [String]) ?? []
        guard audiences.contains(expected.clientID) else { throw .claim("is meant for another client") }
        if audiences.count > 1 || claims["azp"] != nil {
            guard claims["azp"] as? String == expected.clientID else { throw .claim("was handed to another client") }
        }
        guard let expiry = Self.time(claims["exp"]), let issued = Self.time(claims["iat"]) else { throw .claim("has no expiry or issue time") }
        guard expected.now.timeIntervalSince1970 < expiry + Self.leeway else { throw .claim("has expired") }
        guard issued <= expected.now.timeIntervalSince1970 + Self.leeway else { throw .claim("was issued in the future") }
        guard let nonce = claims["nonce"] as? String, constantTimeEquals(Array(nonce.utf8), Array(expected.nonce.utf8)) else {
            throw .claim("does not belong to this sign-in (its nonce differs)")
        }
        guard let subject = claims["sub"] as? String, (1...255).contains(subject.utf8.count) else { throw .claim("names no subject") }
        self.subject = subject
        self.preferredUsername = claims["preferred_username"] as? String
    }

    /// A NumericDate: seconds since 1970, a JSON number (JSONSerialization gives an NSNumber).
    private static func time(_ value: Any?) -> TimeInterval? {
        guard let seconds = (value as? NSNumber)?.doubleValue else { return nil }
        return seconds.isFinite ? seconds : nil
    }
}
