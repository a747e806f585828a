import Foundation
import WishlistCore

/// What an OpenID provider sends: the first byte picks the parser, the rest is its input. No
/// input can hold a signature by a key the fuzzer lacks the private half of, so a token that
/// verifies is a forgery the verifier let through.
@Sendable func fuzzJWS(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let input = Array(bytes.dropFirst())
    switch selector % 4 {
    case 0:
        // A compact token, checked against the provider's published keys.
        requireNotVerified(String(decoding: input, as: UTF8.self), with: providerKeys)
    case 1:
        // A JWKS document.
        checkKeys(JSONWebKeySet(json: input))
    case 2:
        // The claims of a token whose signature verified.
        checkClaims(input)
    default:
        // A JWKS document on the first line and a token on the second: the forger picks the keys too.
        let newline = input.firstIndex(of: UInt8(ascii: "\n")) ?? input.endIndex
        let keys = JSONWebKeySet(json: Array(input[..<newline]))
        checkKeys(keys)
        if let keys { requireNotVerified(String(decoding: input[min(newline + 1, input.endIndex)...], as: UTF8.self), with: keys) }
    }
}

/// The public halves of an RSA and a P-256 key made for these seeds; the private halves were
/// used to sign the seed tokens (whose signatures were then spoilt) and thrown away.
private let providerKeys = JSONWebKeySet(json: Array(#"""
    {"keys": [
     {"kty": "RSA", "kid": "rsa-1", "use": "sig", "e": "AQAB", "n": "uY4p90Jq5umPO5L6MQO4uADGoXY-Yb-H7VDe8PMZhKShJdjRNYVrHJtELQ8d6G7VH1qdeQf1If0F5qs3S62WJhUzuKjOe-krhdla5We7hiqVZQzF_iwB_pV5PY1QH9iLc37-zEzJ74bqnYazwa7h-Rb15q4Ek7L876KC42hRFqbnzMqg1bImwLiULe1VUuUotSsp5agE5Bhh7jR927rrsLoPj0a3AL7vkF1P5Wr0pvNmLz5gOWG9r_JfSanuEJqhUqeI4FeOsJWZTF57SH8K3rECKW_rItMoM2kh5ZsStd-ogJCVba6D75QXAPWd_K5eLdChIv6rFBKq3Oyy-rD4_w"},
     {"kty": "EC", "kid": "ec-1", "crv": "P-256", "x": "cj5vvR5Cap1dR7Nj9YIYz-0dyT3yf9s6_IkOpPP89x0", "y": "EGg073sN3Rj-qCuMmyObAbapU3CVcv8S-EBaT9q-D1Q"}
    ]}
    """#.utf8))!

private func requireNotVerified(_ compact: String, with keys: JSONWebKeySet) {
    guard let token = try? JSONWebSignature(compact: compact) else { return }
    require((try? token.verify(with: keys)) == nil, "a token verified without its key's private half")
}

/// A set keeps only signing keys of the sizes the verifier can use.
private func checkKeys(_ keys: JSONWebKeySet?) {
    for key in keys?.keys ?? [] {
        switch key.material {
        case .rsa(let modulus, let exponent):
            require((256...1024).contains(modulus.count) && (1...8).contains(exponent.count), "an RSA key of \(modulus.count) and \(exponent.count) bytes")
        case .p256(let x, let y):
            require(x.count == 32 && y.count == 32, "a P-256 key of \(x.count) and \(y.count) bytes")
        }
    }
}

/// The claims the app acts on, read a second way (JSONDecoder rather than JSONSerialization):
/// both readings of an accepted token agree.
private func checkClaims(_ payload: [UInt8]) {
    let expected = IDToken.Expectation(issuer: "https://id.example", clientID: "app", nonce: "n-1", now: Date(timeIntervalSince1970: 1_790_000_000))
    guard let token = try? IDToken(payload: payload, expecting: expected) else { return }
    require((1...255).contains(token.subject.utf8.count), "a subject of \(token.subject.utf8.count) bytes")
    guard let claims = try? JSONDecoder().decode(ClaimsReadAgain.self, from: Data(payload)) else { return }
    require(claims.iss == expected.issuer && claims.nonce == expected.nonce && claims.sub == token.subject, "two readings of the claims disagree")
    require(Double(expected.now.timeIntervalSince1970) < claims.exp + IDToken.leeway, "an expired token accepted")
}

private struct ClaimsReadAgain: Decodable {
    let iss: String
    let sub: String
    let nonce: String
    let exp: Double
}
