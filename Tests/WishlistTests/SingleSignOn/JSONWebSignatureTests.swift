import Foundation
import Testing
@testable import WishlistCore

/// The JWS and JWK parsing behind ID tokens, without a provider.
@Suite("JWS and JWK: parsing, algorithms, signatures, claims")
struct JSONWebSignatureTests {
    static let keys = JSONWebKeySet(json: Array(try! JSONSerialization.data(withJSONObject: ["keys": [
        TestTokenSigner.jwk(rsa: TestTokenSigner.rsa.publicKey, kid: "rsa-1"),
        TestTokenSigner.jwk(p256: TestTokenSigner.p256.publicKey, kid: "ec-1"),
        ["kty": "oct", "kid": "secret", "k": "c2VjcmV0"],
        ["kty": "RSA", "kid": "enc", "use": "enc", "n": "AQAB", "e": "AQAB"],
        ["kty": "EC", "crv": "P-384", "kid": "p384", "x": "AA", "y": "AA"],
    ]])))!

    static var claims: [String: Any] { ["iss": "https://id.example", "sub": "s"] }

    @Test func aKeySetKeepsOnlyTheSigningKeysItCanUse() {
        #expect(Self.keys.keys.map(\.id) == ["rsa-1", "ec-1"])
        #expect(JSONWebKeySet(json: Array("not json".utf8)) == nil)
        #expect(JSONWebKeySet(json: Array(#"{"keys": 3}"#.utf8)) == nil)
    }

    @Test func rs256AndES256SignaturesVerifyWithTheirKeys() throws {
        for signing in [TestTokenSigner.Signing.rs256(kid: "rsa-1"), .es256(kid: "ec-1"), .rs256(kid: nil)] {
            let token = try JSONWebSignature(compact: TestTokenSigner.sign(Self.claims, signing))
            try token.verify(with: Self.keys)
            #expect(try JSONSerialization.jsonObject(with: Data(token.payload)) as? [String: String] == ["iss": "https://id.example", "sub": "s"])
        }
    }

    @Test func onlyRS256AndES256AreRead() {
        #expect(throws: TokenRefusal.algorithm("none")) { try JSONWebSignature(compact: TestTokenSigner.sign(Self.claims, .none)) }
        #expect(throws: TokenRefusal.algorithm("HS256")) {
            try JSONWebSignature(compact: TestTokenSigner.sign(Self.claims, .hs256WithPublicKey(kid: "rsa-1")))
        }
    }

    @Test func aSignatureByAnotherKeyOrUnderAnotherKeysIdIsRefused() throws {
        #expect(throws: TokenRefusal.badSignature) {
            try JSONWebSignature(compact: TestTokenSigner.sign(Self.claims, .rs256WithUnpublishedKey(kid: "rsa-1"))).verify(with: Self.keys)
        }
        #expect(throws: TokenRefusal.unknownKey) {
            try JSONWebSignature(compact: TestTokenSigner.sign(Self.claims, .es256(kid: "rsa-1"))).verify(with: Self.keys)
        }
        #expect(throws: TokenRefusal.unknownKey) {
            try JSONWebSignature(compact: TestTokenSigner.sign(Self.claims, .rs256(kid: "rotated"))).verify(with: Self.keys)
        }
    }

    @Test func aTamperedPayloadNoLongerVerifies() throws {
        let parts = TestTokenSigner.sign(Self.claims, .rs256(kid: "rsa-1")).split(separator: ".")
        let forged = parts[0] + "." + TestTokenSigner.encode(["iss": "https://id.example", "sub": "admin"]) + "." + parts[2]
        #expect(throws: TokenRefusal.badSignature) { try JSONWebSignature(compact: String(forged)).verify(with: Self.keys) }
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "!!.e30.", "e30.e30.", "W10.e30.", String(repeating: "a", count: 20_000) + ".e30."])
    func malformedCompactTokensAreRefused(_ text: String) {
        #expect(throws: TokenRefusal.self) { try JSONWebSignature(compact: text) }
    }

    @Test func aCriticalHeaderWeDoNotKnowIsRefused() {
        let header = TestTokenSigner.encode(["alg": "RS256", "crit": ["exp"], "exp": 1])
        #expect(throws: TokenRefusal.malformed) { try JSONWebSignature(compact: header + ".e30.AA") }
    }

    // MARK: ES256's two signatures (issue 50, docs/decisions/es256-either-s.md)

    /// P-256's group order n, and n / 2: a signature's `s` above it is "high".
    static let p256Order: [UInt8] = hex("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")
    static let p256HalfOrder: [UInt8] = hex("7FFFFFFF800000007FFFFFFFFFFFFFFFDE737D56D38BCF4279DCE5617E3192A8")

    static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
    }

    /// `a − b` of two 32-byte big-endian numbers, `a` the larger.
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var borrow = 0
        return zip(a, b).reversed().map { x, y -> UInt8 in
            let difference = Int(x) - Int(y) - borrow
            borrow = difference < 0 ? 1 : 0
            return UInt8((difference + 256) % 256)
        }.reversed()
    }

    /// Kept on purpose: (r, n − s) verifies like (r, s), so one of the two has a high `s`. It is
    /// a second signature of the same header and claims, not of anything else, and the ID token
    /// reaches us only from the provider's token endpoint, for one sign-in's nonce.
    @Test func anES256SignatureWithItsSFlippedStillVerifies() throws {
        let token = TestTokenSigner.sign(Self.claims, .es256(kid: "ec-1"))
        let parts = token.split(separator: ".").map(String.init)
        let signature = try #require(Base64URL.decode(parts[2]))
        let twin = Array(signature[..<32]) + Self.subtract(Self.p256Order, Array(signature[32...]))
        #expect(twin != signature)
        try JSONWebSignature(compact: token).verify(with: Self.keys)
        try JSONWebSignature(compact: parts[0] + "." + parts[1] + "." + Base64URL.encode(twin)).verify(with: Self.keys)
    }

    /// Why "low-S only" is no option: signing libraries (this one, BoringSSL's, like OpenSSL's,
    /// Go's and Node's) give a high `s` about half the time, and such tokens are a provider's own.
    @Test func aSignerGivesAHighSAboutHalfTheTimeAndThoseVerify() throws {
        var high = 0
        for _ in 0..<64 {
            let token = TestTokenSigner.sign(Self.claims, .es256(kid: "ec-1"))
            let s = Array(try #require(Base64URL.decode(String(token.split(separator: ".")[2])))[32...])
            if s.lexicographicallyPrecedes(Self.p256HalfOrder) == false {
                high += 1
                try JSONWebSignature(compact: token).verify(with: Self.keys)
            }
        }
        #expect(high > 0 && high < 64, "\(high) of 64 signatures were high-S")
    }

    // MARK: Claims

    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let expected = IDToken.Expectation(issuer: "https://id.example", clientID: "app", nonce: "n-1", now: now)

    static func token(_ change: (inout [String: Any]) -> Void = { _ in }) -> [UInt8] {
        var claims: [String: Any] = [
            "iss": "https://id.example", "aud": "app", "sub": "s-1", "nonce": "n-1", "iat": 1_790_000_000, "exp": 1_790_000_300,
            "preferred_username": "ada",
        ]
        change(&claims)
        return Array(try! JSONSerialization.data(withJSONObject: claims))
    }

    @Test func theClaimsOfAGoodTokenAreRead() throws {
        let token = try IDToken(payload: Self.token(), expecting: Self.expected)
        #expect(token.subject == "s-1" && token.preferredUsername == "ada")
    }

    @Test(arguments: [
        ("iss", "https://id.example/", "comes from another issuer"), ("aud", "other", "is meant for another client"),
        ("nonce", "n-2", "its nonce differs"), ("sub", "", "names no subject"), ("exp", "soon", "has no expiry"),
    ])
    func aWrongClaimIsRefused(claim: String, value: String, problem: String) {
        let error = #expect(throws: TokenRefusal.self) { try IDToken(payload: Self.token { $0[claim] = value }, expecting: Self.expected) }
        #expect(error?.description.contains(problem) == true, "\(error.map(String.init(describing:)) ?? "")")
    }

    @Test func expiryAndIssueTimeHaveSixtySecondsOfLeewayAndNoMore() throws {
        _ = try IDToken(payload: Self.token { $0["exp"] = 1_790_000_000 - 59; $0["iat"] = 1_790_000_000 + 60 }, expecting: Self.expected)
        #expect(throws: TokenRefusal.claim("has expired")) {
            try IDToken(payload: Self.token { $0["exp"] = 1_790_000_000 - 60 }, expecting: Self.expected)
        }
        #expect(throws: TokenRefusal.claim("was issued in the future")) {
            try IDToken(payload: Self.token { $0["iat"] = 1_790_000_000 + 61 }, expecting: Self.expected)
        }
    }

    @Test func severalAudiencesNeedOurAuthorizedParty() throws {
        _ = try IDToken(payload: Self.token { $0["aud"] = ["app", "api"]; $0["azp"] = "app" }, expecting: Self.expected)
        #expect(throws: TokenRefusal.self) { try IDToken(payload: Self.token { $0["aud"] = ["app", "api"] }, expecting: Self.expected) }
        #expect(throws: TokenRefusal.self) { try IDToken(payload: Self.token { $0["azp"] = "api" }, expecting: Self.expected) }
    }

    /// Found by the `jws` fuzz target in CI's smoke: with `"sub"` written twice JSONSerialization
    /// and JSONDecoder read different subjects, so which member a token names would depend on who
    /// reads it. RFC 7519 §4 lets a parser refuse such a token, and we do; a header too (RFC 7515 §5.2).
    @Test(arguments: [
        #"{"iss": "https://id.example", "aud": "app", "sub": "s-1", "nonce": "n-1", "iat": 1790000000, "exp": 1790000300, "sub": "s-2"}"#,
        #"{"iss": "https://id.example", "aud": "app", "sub": "s-1", "nonce": "n-1", "iat": 1790000000, "exp": 1790000300, "s\u0075b": "s-2"}"#,
        #"{"iss": "https://id.example", "aud": ["app", "x"], "azp": "app", "sub": "s-1", "nonce": "n-1", "iat": 1790000000, "exp": 1790000300, "exp": 1790000030.5}"#,
    ])
    func claimsNamedTwiceAreRefused(_ payload: String) {
        #expect(throws: TokenRefusal.malformed) { try IDToken(payload: Array(payload.utf8), expecting: Self.expected) }
    }

    @Test func claimsNamedOnceAreReadWhateverTheirValuesHold() throws {
        let payload = #"{"iss": "https://id.example", "aud": ["app"], "sub": "s-1", "nonce": "n-1", "iat": 1790000000, "exp": 1790000300,"#
            + #" "extra": {"sub": "nested", "list": [1, {"sub": 2}, "a\"b", true, null, -1.5e3]}, "name": "Zoë \ud83d\udcda"}"#
        #expect(try IDToken(payload: Array(payload.utf8), expecting: Self.expected).subject == "s-1")
        #expect(JSONMemberNames.haveDuplicates(Array(payload.utf8)) == false)
    }

    @Test func aHeaderNamingAParameterTwiceIsRefused() {
        let header = Base64URL.encode(Array(#"{"alg": "RS256", "kid": "a", "kid": "b"}"#.utf8))
        #expect(throws: TokenRefusal.malformed) { try JSONWebSignature(compact: header + ".e30.AA") }
    }
}
