import Crypto
import Foundation
import _CryptoExtras
@testable import WishlistCore

/// Keys and signing for tests of ID tokens: an RSA and a P-256 key the fake provider publishes,
/// and the ways an attacker would sign instead.
enum TestTokenSigner {
    /// Made once: a 2048-bit RSA key takes a moment to generate.
    static let rsa = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let otherRSA = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    /// Kept as bytes, which are Sendable; the key is made from them when used.
    static let p256Bytes = P256.Signing.PrivateKey().rawRepresentation
    static var p256: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: p256Bytes) }

    enum Signing: Sendable {
        case rs256(kid: String?)
        case es256(kid: String?)
        /// RS256 with a key the provider does not publish, under the published key's id.
        case rs256WithUnpublishedKey(kid: String)
        /// `alg: none` and an empty signature.
        case none
        /// HS256 keyed with the provider's RSA public key, as its JWKS spells the modulus.
        case hs256WithPublicKey(kid: String)
    }

    static func jwk(rsa key: _RSA.Signing.PublicKey, kid: String) -> [String: Any] {
        let primitives = try! key.getKeyPrimitives()
        return ["kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
                "n": Base64URL.encode(Array(primitives.modulus)), "e": Base64URL.encode(Array(primitives.publicExponent))]
    }

    static func jwk(p256 key: P256.Signing.PublicKey, kid: String) -> [String: Any] {
        let raw = Array(key.rawRepresentation)
        return ["kty": "EC", "crv": "P-256", "kid": kid, "use": "sig", "alg": "ES256",
                "x": Base64URL.encode(Array(raw[0..<32])), "y": Base64URL.encode(Array(raw[32..<64]))]
    }

    static func encode(_ object: [String: Any]) -> String {
        Base64URL.encode(Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
    }

    /// A compact JWS of `claims`, signed as `signing` says.
    static func sign(_ claims: [String: Any], _ signing: Signing) -> String {
        var header: [String: Any] = ["typ": "JWT"]
        switch signing {
        case .rs256(let kid): header["alg"] = "RS256"; header["kid"] = kid
        case .es256(let kid): header["alg"] = "ES256"; header["kid"] = kid
        case .rs256WithUnpublishedKey(let kid): header["alg"] = "RS256"; header["kid"] = kid
        case .none: header["alg"] = "none"
        case .hs256WithPublicKey(let kid): header["alg"] = "HS256"; header["kid"] = kid
        }
        let input = encode(header) + "." + encode(claims)
        let message = Data(input.utf8)
        let signature: [UInt8] = switch signing {
        case .rs256: Array(try! rsa.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
        case .rs256WithUnpublishedKey: Array(try! otherRSA.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
        case .es256: Array(try! p256.signature(for: message).rawRepresentation)
        case .none: []
        case .hs256WithPublicKey:
            Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Array(try! rsa.publicKey.getKeyPrimitives().modulus))))
        }
        return input + "." + Base64URL.encode(signature)
    }
}
