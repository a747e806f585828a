import Crypto
import Foundation
import GRDB
import Testing
import _CryptoExtras
@testable import WishlistCore

/// An authenticator in software: makes a passkey (ES256 or RS256) and signs assertions, with every
/// field it sends open to a test that wants it wrong.
struct SoftwareAuthenticator {
    enum Key {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    let key: Key
    let credentialID: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }
    var rpID = "wishlist.example"
    var origin = "https://wishlist.example"
    var signCount: UInt32 = 0
    var userHandle: [UInt8] = []

    static func es256() -> SoftwareAuthenticator { SoftwareAuthenticator(key: .p256(P256.Signing.PrivateKey())) }
    static func rs256() throws -> SoftwareAuthenticator { SoftwareAuthenticator(key: .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048))) }

    var coseKey: [UInt8] {
        switch key {
        case .p256(let privateKey):
            let raw = Array(privateKey.publicKey.rawRepresentation)
            return CBORTestEncoder.encode(.map([
                .int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1), .int(-2): .bytes(Array(raw[..<32])), .int(-3): .bytes(Array(raw[32...])),
            ]))
        case .rsa(let privateKey):
            let primitives = try! privateKey.publicKey.getKeyPrimitives()
            return CBORTestEncoder.encode(.map([
                .int(1): .int(3), .int(3): .int(-257), .int(-1): .bytes(Array(primitives.modulus)), .int(-2): .bytes(Array(primitives.publicExponent)),
            ]))
        }
    }

    static let presentAndVerified: UInt8 = 0x05

    func clientData(_ type: String, _ challenge: [UInt8]) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    func authenticatorData(flags: UInt8, attested: Bool) -> [UInt8] {
        var bytes = Array(SHA256.hash(data: Array(rpID.utf8))) + [flags | (attested ? 0x40 : 0)]
            + CBORTestEncoder.bigEndian(UInt64(signCount), byteCount: 4)
        if attested {
            bytes += [UInt8](repeating: 0, count: 16) + CBORTestEncoder.bigEndian(UInt64(credentialID.count), byteCount: 2) + credentialID + coseKey
        }
        return bytes
    }

    func registration(challenge: [UInt8], flags: UInt8 = presentAndVerified, type: String = "webauthn.create") -> (clientData: [UInt8], attestation: [UInt8]) {
        let attestation = CBORTestEncoder.encode(.map([
            .text("fmt"): .text("none"), .text("attStmt"): .map([:]), .text("authData"): .bytes(authenticatorData(flags: flags, attested: true)),
        ]))
        return (clientData(type, challenge), attestation)
    }

    struct Assertion {
        var credentialID: [UInt8]
        var clientData: [UInt8]
        var authenticatorData: [UInt8]
        var signature: [UInt8]
        var userHandle: [UInt8]?
    }

    /// Signs an assertion, counting up first (as authenticators with a counter do).
    mutating func assertion(challenge: [UInt8], flags: UInt8 = presentAndVerified, type: String = "webauthn.get", countsUp: Bool = true) throws -> Assertion {
        if countsUp { signCount += 1 }
        let clientData = clientData(type, challenge)
        let data = authenticatorData(flags: flags, attested: false)
        let signed = data + Array(SHA256.hash(data: clientData))
        let signature: [UInt8] = switch key {
        case .p256(let privateKey): Array(try privateKey.signature(for: signed).derRepresentation)
        case .rsa(let privateKey): Array(try privateKey.signature(for: signed, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
        return Assertion(credentialID: credentialID, clientData: clientData, authenticatorData: data, signature: signature, userHandle: userHandle)
    }
}

@Suite("Passkeys: the relying party's checks", .removesTemporaryDirectories)
struct RelyingPartyTests {
    struct Party {
        let rp: RelyingParty
        let database: AppDatabase
        let time: ManualClock
        let userID: UserID
        let otherUserID: UserID
    }

    static func party() async throws -> Party {
        let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("passkeys.sqlite").path)
        let time = ManualClock()
        let ids = try await database.pool.write { db -> [UserID] in
            for name in ["maya", "noor"] {
                try db.execute(
                    sql: "INSERT INTO user (username, username_key, password_hash, created_at) VALUES (?, ?, 'x', ?)",
                    arguments: [name, name, time.clock.now()]
                )
            }
            return try UserID.fetchAll(db, sql: "SELECT id FROM user ORDER BY id")
        }
        let rp = RelyingParty(publicURL: URL(string: "https://wishlist.example")!, database: database, clock: time.clock)
        return Party(rp: rp, database: database, time: time, userID: ids[0], otherUserID: ids[1])
    }

    /// Registers `authenticator` for `userID` and returns it with the user's handle set.
    static func registered(_ authenticator: SoftwareAuthenticator, _ party: Party, userID: UserID? = nil) async throws -> SoftwareAuthenticator {
        var authenticator = authenticator
        let userID = userID ?? party.userID
        let options = try await party.rp.registrationOptions(userID: userID, username: "maya")
        let (clientData, attestation) = authenticator.registration(challenge: options.challenge)
        try await party.rp.register(userID: userID, name: "Phone", clientDataJSON: clientData, attestationObject: attestation)
        authenticator.userHandle = options.userHandle
        return authenticator
    }

    static func signIn(_ party: Party, _ assertion: SoftwareAuthenticator.Assertion) async throws -> UserID {
        try await party.rp.signIn(
            credentialID: assertion.credentialID, clientDataJSON: assertion.clientData, authenticatorData: assertion.authenticatorData,
            signature: assertion.signature, userHandle: assertion.userHandle
        )
    }

    static func refusal(_ work: () async throws -> Void) async -> PasskeyRefusal? {
        do {
            try await work()
            return nil
        } catch let refusal as PasskeyRefusal {
            return refusal
        } catch {
            Issue.record("not a refusal: \(error)")
            return nil
        }
    }

    // MARK: The good path

    @Test(arguments: ["ES256", "RS256"])
    func aPasskeyRegistersAndSignsInItsUser(algorithm: String) async throws {
        let party = try await Self.party()
        var authenticator = try await Self.registered(algorithm == "ES256" ? .es256() : try .rs256(), party)
        let challenge = try await party.rp.signInChallenge()
        #expect(try await Self.signIn(party, try authenticator.assertion(challenge: challenge)) == party.userID)
        let stored = try #require(try await party.rp.store.passkeys(userID: party.userID).first)
        #expect(stored.name == "Phone")
        #expect(stored.lastUsedAt != nil)
    }

    @Test func anAuthenticatorWithoutACounterSignsInAgainAndAgain() async throws {
        let party = try await Self.party()
        var authenticator = try await Self.registered(.es256(), party)
        for _ in 0..<3 {
            let assertion = try authenticator.assertion(challenge: try await party.rp.signInChallenge(), countsUp: false)
            #expect(try await Self.signIn(party, assertion) == party.userID, "a count of 0 on both sides is allowed")
        }
    }

    // MARK: Registration refusals

    @Test func registrationRefusesEveryWrongField() async throws {
        let party = try await Self.party()
        var authenticator = SoftwareAuthenticator.es256()
        func register(_ make: (inout SoftwareAuthenticator, [UInt8]) -> ([UInt8], [UInt8]), userID: UserID? = nil) async -> PasskeyRefusal? {
            var copy = authenticator
            let challenge: [UInt8]
            do { challenge = try await party.rp.registrationOptions(userID: party.userID, username: "maya").challenge } catch { return nil }
            let (clientData, attestation) = make(&copy, challenge)
            return await Self.refusal {
                try await party.rp.register(userID: userID ?? party.userID, name: "Phone", clientDataJSON: clientData, attestationObject: attestation)
            }
        }
        #expect(await register { a, c in a.registration(challenge: c, type: "webauthn.get") } == .wrongType)
        #expect(await register { a, _ in a.registration(challenge: Array(repeating: 7, count: 32)) } == .challengeNotValid)
        #expect(await register { a, c in a.origin = "https://evil.example"; return a.registration(challenge: c) } == .wrongOrigin)
        #expect(await register { a, c in a.origin = "http://wishlist.example"; return a.registration(challenge: c) } == .wrongOrigin)
        #expect(await register { a, c in a.rpID = "evil.example"; return a.registration(challenge: c) } == .wrongRelyingParty)
        #expect(await register { a, c in a.registration(challenge: c, flags: 0x04) } == .userNotPresent)
        #expect(await register { a, c in a.registration(challenge: c, flags: 0x01) } == .userNotVerified)
        #expect(await register({ a, c in a.registration(challenge: c) }, userID: party.otherUserID) == .challengeNotValid, "another user's challenge")
        let packed = await register { a, c in
            (a.clientData("webauthn.create", c), CBORTestEncoder.encode(.map([
                .text("fmt"): .text("packed"), .text("attStmt"): .map([:]), .text("authData"): .bytes(a.authenticatorData(flags: 5, attested: true)),
            ])))
        }
        #expect(packed == .malformed(.attestationNotNone(format: "packed")))
        #expect(try await party.rp.store.passkeys(userID: party.userID).isEmpty, "nothing refused was stored")

        authenticator = try await Self.registered(authenticator, party)
        #expect(await register { a, c in a.registration(challenge: c) } == .credentialAlreadyRegistered)
    }

    @Test func aChallengeIsSingleUseAndLastsFiveMinutes() async throws {
        let party = try await Self.party()
        let authenticator = SoftwareAuthenticator.es256()
        let options = try await party.rp.registrationOptions(userID: party.userID, username: "maya")
        party.time.advance(by: RelyingParty.challengeLifetime + 1)
        let (late, lateAttestation) = authenticator.registration(challenge: options.challenge)
        #expect(await Self.refusal {
            try await party.rp.register(userID: party.userID, name: "Phone", clientDataJSON: late, attestationObject: lateAttestation)
        } == .challengeNotValid)
        #expect(await Self.refusal {
            try await party.rp.register(userID: party.userID, name: "Phone", clientDataJSON: late, attestationObject: lateAttestation)
        } == .challengeNotValid, "spent by the first try, even though it failed")
    }

    @Test(arguments: ["", "   ", String(repeating: "x", count: 61), "Phone\u{1}"])
    func aPasskeyNeedsAName(name: String) async throws {
        let party = try await Self.party()
        let options = try await party.rp.registrationOptions(userID: party.userID, username: "maya")
        let (clientData, attestation) = SoftwareAuthenticator.es256().registration(challenge: options.challenge)
        let refusal = await Self.refusal {
            try await party.rp.register(userID: party.userID, name: name, clientDataJSON: clientData, attestationObject: attestation)
        }
        guard case .invalidName? = refusal else { Issue.record("\(String(describing: refusal))"); return }
    }

    // MARK: Sign-in refusals

    @Test func signInRefusesEveryWrongField() async throws {
        let party = try await Self.party()
        let authenticator = try await Self.registered(.es256(), party)
        func signIn(_ change: (inout SoftwareAuthenticator, [UInt8]) throws -> SoftwareAuthenticator.Assertion) async throws -> PasskeyRefusal? {
            var copy = authenticator
            let assertion = try change(&copy, try await party.rp.signInChallenge())
            return await Self.refusal { _ = try await Self.signIn(party, assertion) }
        }
        #expect(try await signIn { a, c in try a.assertion(challenge: c, type: "webauthn.create") } == .wrongType)
        #expect(try await signIn { a, _ in try a.assertion(challenge: Array(repeating: 1, count: 32)) } == .challengeNotValid)
        #expect(try await signIn { a, c in a.origin = "https://wishlist.example:8443"; return try a.assertion(challenge: c) } == .wrongOrigin)
        #expect(try await signIn { a, c in a.rpID = "example"; return try a.assertion(challenge: c) } == .wrongRelyingParty)
        #expect(try await signIn { a, c in try a.assertion(challenge: c, flags: 0x04) } == .userNotPresent)
        #expect(try await signIn { a, c in try a.assertion(challenge: c, flags: 0x01) } == .userNotVerified)
        #expect(try await signIn { a, c in
            var assertion = try a.assertion(challenge: c)
            assertion.signature[assertion.signature.count - 3] ^= 0x40
            return assertion
        } == .badSignature)
        #expect(try await signIn { a, c in
            var assertion = try a.assertion(challenge: c)
            assertion.authenticatorData[33] ^= 0x08  // a flag bit the signature covers
            return assertion
        } == .badSignature)
        #expect(try await signIn { a, c in
            var assertion = try a.assertion(challenge: c)
            assertion.credentialID = Array(repeating: 9, count: 16)
            return assertion
        } == .unknownCredential)
        #expect(try await signIn { a, c in
            var assertion = try a.assertion(challenge: c)
            assertion.userHandle = Array(repeating: 3, count: 32)
            return assertion
        } == .anotherUsersCredential)
        #expect(try await signIn { a, c in
            var assertion = try a.assertion(challenge: c)
            assertion.signature = Array("not DER".utf8)
            return assertion
        } == .badSignature)
    }

    @Test func aReplayedAssertionIsRefused() async throws {
        let party = try await Self.party()
        var authenticator = try await Self.registered(.es256(), party)
        let assertion = try authenticator.assertion(challenge: try await party.rp.signInChallenge())
        #expect(try await Self.signIn(party, assertion) == party.userID)
        #expect(await Self.refusal { _ = try await Self.signIn(party, assertion) } == .challengeNotValid)
    }

    @Test func aCounterThatDoesNotMoveForwardIsRefused() async throws {
        let party = try await Self.party()
        var authenticator = try await Self.registered(.es256(), party)
        authenticator.signCount = 10
        #expect(try await Self.signIn(party, try authenticator.assertion(challenge: try await party.rp.signInChallenge())) == party.userID)
        var clone = authenticator
        clone.signCount = 5
        #expect(await Self.refusal {
            _ = try await Self.signIn(party, try clone.assertion(challenge: try await party.rp.signInChallenge()))
        } == .signCountNotIncreasing)
        #expect(await Self.refusal {
            _ = try await Self.signIn(party, try authenticator.assertion(challenge: try await party.rp.signInChallenge(), countsUp: false))
        } == .signCountNotIncreasing, "the same count again")
    }

    @Test func aRemovedPasskeyNoLongerSignsIn() async throws {
        let party = try await Self.party()
        var authenticator = try await Self.registered(.es256(), party)
        let passkey = try #require(try await party.rp.store.passkeys(userID: party.userID).first)
        #expect(try await party.rp.store.remove(passkeyID: passkey.id, userID: party.otherUserID) == false, "not someone else's")
        #expect(try await party.rp.store.remove(passkeyID: passkey.id, userID: party.userID))
        #expect(await Self.refusal {
            _ = try await Self.signIn(party, try authenticator.assertion(challenge: try await party.rp.signInChallenge()))
        } == .unknownCredential)
    }

    @Test func theRelyingPartyIsThePublicURLsHostAndOrigin() async throws {
        let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("rp.sqlite").path)
        let local = RelyingParty(publicURL: URL(string: "http://localhost:8080")!, database: database, clock: .system)
        #expect(local.id == "localhost" && local.origin == "http://localhost:8080")
        let proxied = RelyingParty(publicURL: URL(string: "https://Books.Example.org:443/")!, database: database, clock: .system)
        #expect(proxied.id == "books.example.org" && proxied.origin == "https://books.example.org")
    }
}

/// The ceremonies as one browser runs them: these tests are about the messages, not who asks
/// (`PasskeyChallengeTests` is about that).
extension RelyingParty {
    static let testBrowser = PasskeyStore.Asker(cookieToken: "the test browser", address: "127.0.0.1")

    func registrationOptions(userID: UserID, username: String) async throws -> RegistrationOptions {
        try await registrationOptions(userID: userID, username: username, for: Self.testBrowser)
    }

    func register(userID: UserID, name: String, clientDataJSON: [UInt8], attestationObject: [UInt8]) async throws {
        try await register(userID: userID, name: name, clientDataJSON: clientDataJSON, attestationObject: attestationObject, from: Self.testBrowser)
    }

    func signInChallenge() async throws -> [UInt8] {
        try await signInChallenge(for: Self.testBrowser)
    }

    func signIn(
        credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?
    ) async throws -> UserID {
        try await signIn(
            credentialID: credentialID, clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature,
            userHandle: userHandle, from: Self.testBrowser
        )
    }
}
