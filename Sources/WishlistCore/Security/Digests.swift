import Crypto

/// SHA-256 and HMAC-SHA-256 over byte arrays, as the app uses them (token fingerprints, CSRF
/// tokens, stable names), from swift-crypto.
enum Digests {
    static func sha256(_ message: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: message))
    }

    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}
