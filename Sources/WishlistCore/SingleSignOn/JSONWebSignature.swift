import Crypto
import Foundation
import _CryptoExtras

/// Why an ID token was refused. Each case's sentence is for the log and the refusal page; none
/// quotes the token.
public enum TokenRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not three base64url parts, or a header or payload that is not a JSON object.
    case malformed
    /// `alg` is not RS256 or ES256 (`none`, HS256 and the rest are never accepted).
    case algorithm(String)
    /// No key of the provider's set has the token's `kid` (after reading the set again).
    case unknownKey
    case badSignature
    case claim(String)

    public var description: String {
        switch self {
        case .malformed: "the ID token could not be read"
        case .algorithm(let name): "the ID token is signed with \(name.isEmpty ? "no algorithm" : name), and only RS256 and ES256 are accepted"
        case .unknownKey: "the ID token is signed with a key the provider does not list"
        case .badSignature: "the ID token's signature does not verify"
        case .claim(let problem): "the ID token \(problem)"
        }
    }
}

/// The algorithms an ID token may be signed with. A key is used only with the algorithm of its
/// type, so a public key can never serve as an HMAC secret (the "HS256 with the public key" attack).
public enum SignatureAlgorithm: String, Sendable {
    case rs256 = "RS256"
    case es256 = "ES256"
}

/// One public key of a provider's JWKS (RFC 7517): RSA (`n`, `e`) or P-256 (`x`, `y`).
public struct JSONWebKey: Sendable, Equatable {
    public enum Material: Sendable, Equatable {
        case rsa(modulus: [UInt8], exponent: [UInt8])
        case p256(x: [UInt8], y: [UInt8])
    }

    public let id: String?
    public let material: Material

    /// The key from its JSON object; nil for a key of another type or curve, or one meant for
    /// encryption (`use: enc`), which a set may carry and which is then skipped.
    init?(_ object: [String: Any]) {
        if let use = object["use"] as? String, use != "sig" { return nil }
        id = object["kid"] as? String
        switch object["kty"] as? String {
        case "RSA":
            guard let n = (object["n"] as? String).flatMap(Base64URL.decode), let e = (object["e"] as? String).flatMap(Base64URL.decode),
                  (256...1024).contains(n.count), (1...8).contains(e.count) else { return nil }
            material = .rsa(modulus: n, exponent: e)
        case "EC":
            guard object["crv"] as? String == "P-256",
                  let x = (object["x"] as? String).flatMap(Base64URL.decode), let y = (object["y"] as? String).flatMap(Base64URL.decode),
                  x.count == 32, y.count == 32 else { return nil }
            material = .p256(x: x, y: y)
        default:
            return nil
        }
    }

    public init(id: String?, material: Material) {
        self.id = id
        self.material = material
    }

    var algorithm: SignatureAlgorithm {
        switch material {
        case .rsa: .rs256
        case .p256: .es256
        }
    }

    /// Whether `signature` is this key's signature of `message` under `algorithm`; false when
    /// the algorithm is not this key's.
    func verifies(_ signature: [UInt8], of message: [UInt8], algorithm: SignatureAlgorithm) -> Bool {
        guard algorithm == self.algorithm else { return false }
        switch material {
        case .rsa(let modulus, let exponent):
            guard let key = try? _RSA.Signing.PublicKey(n: modulus, e: exponent) else { return false }
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5)
        case .p256(let x, let y):
            // A JWS carries ES256 as r ‖ s, 64 bytes (RFC 7518 §3.4), not DER.
            guard signature.count == 64, let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                  let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: message)
        }
    }
}

/// A provider's key set (`jwks_uri`).
public struct JSONWebKeySet: Sendable, Equatable {
    public let keys: [JSONWebKey]

    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// The usable keys of a JWKS document; nil when it is not one.
    public init?(json: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              let keys = object["keys"] as? [[String: Any]] else { return nil }
        self.keys = keys.compactMap(JSONWebKey.init)
    }

    /// The keys that may have signed a token with `keyID` and `algorithm`: the one with that
    /// id, or, for a token without one, every key of the algorithm's type.
    func candidates(keyID: String?, algorithm: SignatureAlgorithm) -> [JSONWebKey] {
        keys.filter { $0.algorithm == algorithm && (keyID == nil || $0.id == keyID) }
    }
}

/// A JWS in compact serialization (RFC 7515), read but not yet trusted.
public struct JSONWebSignature: Sendable {
    public let algorithm: SignatureAlgorithm
    public let keyID: String?
    /// The payload's bytes (for an ID token, its claims as JSON).
    public let payload: [UInt8]
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// Reads the three parts and the header; refuses any algorithm but RS256 and ES256 here,
    /// before a key is looked at.
    public init(compact: String) throws(TokenRefusal) {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard compact.utf8.count <= 16_384, parts.count == 3,
              let headerBytes = Base64URL.decode(String(parts[0])), let payload = Base64URL.decode(String(parts[1])),
              let signature = Base64URL.decode(String(parts[2])),
              let header = try? JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any],
              JSONMemberNames.haveDuplicates(headerBytes) == false
        else { throw .malformed }
        let name = header["alg"] as? String ?? ""
        guard let algorithm = SignatureAlgorithm(rawValue: name) else { throw .algorithm(name) }
        // A critical extension we do not understand must not be ignored (RFC 7515 §4.1.11).
        guard header["crit"] == nil else { throw .malformed }
        self.algorithm = algorithm
        self.keyID = header["kid"] as? String
        self.payload = payload
        self.signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        self.signature = signature
    }

    /// Whether a key of `keys` that may have signed it verifies the signature; `.unknownKey`
    /// when no key could have (the caller then reads the set again once).
    public func verify(with keys: JSONWebKeySet) throws(TokenRefusal) {
        let candidates = keys.candidates(keyID: keyID, algorithm: algorithm)
        guard !candidates.isEmpty else { throw .unknownKey }
        guard candidates.contains(where: { $0.verifies(signature, of: signingInput, algorithm: algorithm) }) else { throw .badSignature }
    }
}
