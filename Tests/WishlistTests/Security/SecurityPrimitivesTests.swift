import Foundation
import NIOCore
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Digests, tokens, forms and local paths")
struct SecurityPrimitivesTests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("SHA-256 (swift-crypto, as the app calls it) matches the FIPS 180-4 examples", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256(message: String, digest: String) {
        #expect(hex(Digests.sha256(Array(message.utf8))) == digest)
    }

    @Test func sha256OfAMillionAs() {
        #expect(hex(Digests.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("HMAC-SHA-256 (swift-crypto, as the app calls it) matches RFC 4231")
    func hmac() {
        let case1 = Digests.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))
        #expect(hex(case1) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let case2 = Digests.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(hex(case2) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let longKey = Digests.hmacSHA256(
            key: [UInt8](repeating: 0xaa, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        )
        #expect(hex(longKey) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func tokensAre256BitBase64URLAndDistinct() {
        let tokens = (0..<100).map { _ in SecureRandom.token() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 43 && SessionCookies.isWellFormed($0) })
        #expect(Base64URL.encode(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw")
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
    }

    @Test func randomBytesComeInAnyCountAndSpreadOverEveryValue() {
        #expect([0, 1, 5, 13, 32].map { SecureRandom.bytes($0).count } == [0, 1, 5, 13, 32])
        // 4,096 uniform bytes miss one of the 256 values with probability about 256 × e^-16.
        #expect(Set(SecureRandom.bytes(4_096)).count == 256)
    }

    @Test func randomHexIsTwoLowercaseDigitsAByte() {
        #expect(SecureRandom.hex([0x00, 0x0F, 0xA0, 0xFF, 0x5C]) == "000fa0ff5c")
        #expect(SecureRandom.hex([]) == "")
        let ids = (0..<100).map { _ in SecureRandom.hex(byteCount: 6) }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { $0.utf8.count == 12 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } })
    }

    @Test func csrfTokensAreBoundToTheSession() {
        let csrf = CSRFProtection(key: SecureRandom.bytes(32))
        let session = SecureRandom.token()
        let token = csrf.token(forSession: session)
        #expect(csrf.isValid(token, forSession: session))
        #expect(!csrf.isValid(token, forSession: SecureRandom.token()))
        #expect(!csrf.isValid("", forSession: session))
        #expect(!csrf.isValid(token, forSession: ""))
        #expect(CSRFProtection(key: SecureRandom.bytes(32)).token(forSession: session) != token, "another server key, another token")
    }

    @Test("a session's token is the same each time it is asked for, and still its own after more sessions than the made tokens hold")
    func csrfTokensMadeOnceStayTheSame() {
        let key = SecureRandom.bytes(32)
        let csrf = CSRFProtection(key: key)
        let first = SecureRandom.token()
        let token = csrf.token(forSession: first)
        #expect(csrf.token(forSession: first) == token)
        let others = (0..<(MadeTokens.capacity + 10)).map { _ in SecureRandom.token() }
        let tokens = others.map { csrf.token(forSession: $0) }
        #expect(Set(tokens).count == others.count, "each session its own token")
        #expect(csrf.token(forSession: first) == token, "forgotten, then made again the same")
        let fresh = CSRFProtection(key: key)
        #expect(zip(others, tokens).allSatisfy { fresh.token(forSession: $0) == $1 }, "the same as a server that never made them")
    }

    @Test func madeTokensHoldNoMoreThanTheirCapacity() {
        let made = MadeTokens()
        for index in 0..<(MadeTokens.capacity * 2 + 1) { made.keep("t\(index)", forSession: "s\(index)") }
        #expect(made.count <= MadeTokens.capacity)
        #expect(made.token(forSession: "s\(MadeTokens.capacity * 2)") == "t\(MadeTokens.capacity * 2)")
    }

    @Test func formBodyDecodesPlusPercentAndUnicode() throws {
        let form = try FormBody(parsing: ByteBuffer(string: "name=J%C3%BCrgen+M%C3%BCller&empty=&flag&emoji=%F0%9F%98%80"))
        #expect(try form.text("name") == "Jürgen Müller")
        #expect(try form.text("empty") == "")
        #expect(try form.text("flag") == "")
        #expect(try form.text("missing") == "")
        #expect(try form.text("emoji") == "😀")
        #expect(throws: PageError.self) { try form.text("name", maxLength: 5) }
    }

    @Test("only local paths survive", arguments: [
        ("/lists", "/lists"), ("/a?b=c#d", "/a?b=c#d"), ("//evil", "/"), ("/\\evil", "/"), ("https://evil", "/"),
        ("evil", "/"), ("", "/"), ("/a\nb", "/"), ("/a b", "/"), ("/a\\b", "/"),
    ])
    func localPaths(candidate: String, expected: String) {
        #expect(LocalPath.validated(candidate) == expected)
    }

    @Test func browserNames() {
        #expect(BrowserName.describe("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0") == "Firefox on Linux")
        #expect(BrowserName.describe("Mozilla/5.0 (Windows NT 10.0) AppleWebKit Chrome/120 Safari/537.36 Edg/120") == "Edge on Windows")
        #expect(BrowserName.describe("") == "An unknown browser")
    }
}
