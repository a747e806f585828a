import Crypto
import Foundation
import _CryptoExtras

/// Why a passkey ceremony was refused, as a sentence for the person at the browser. Which check
/// failed is in the case, for the log and the tests.
public enum PasskeyRefusal: Error, Equatable, Sendable {
    case malformed(WebAuthnError)
    case wrongType
    case challengeNotValid
    case wrongOrigin
    case wrongRelyingParty
    case userNotPresent
    case userNotVerified
    case credentialAlreadyRegistered
    case unknownCredential
    case anotherUsersCredential
    case badSignature
    case signCountNotIncreasing
    case invalidName(String)
    /// The client's address holds too many live challenges: someone asks in a loop.
    case busy

    public var message: String {
        switch self {
        case .malformed(let error): error.message
        case .wrongType, .wrongOrigin, .wrongRelyingParty:
            "The passkey answered for another site or another request. Reload this page and try again."
        case .challengeNotValid: "The passkey request expired or was already used. Try again."
        case .userNotPresent, .userNotVerified:
            "Your passkey did not confirm it was you (with a fingerprint, face or PIN). Try again and confirm when asked."
        case .credentialAlreadyRegistered: "This passkey is already registered here."
        case .unknownCredential, .anotherUsersCredential:
            "This passkey is not registered here: it may have been removed. Sign in with your password."
        case .badSignature: "The passkey’s signature did not check out. Try again."
        case .signCountNotIncreasing:
            "This passkey’s use counter went backwards, which a copied passkey does. Sign in with your password, and remove and add the passkey again."
        case .invalidName(let problem): problem
        case .busy: "Too many passkey requests came from your network just now. Try again in a few minutes."
        }
    }
}

/// What `navigator.credentials.create` needs to make a passkey for the user.
public struct RegistrationOptions: Sendable, Equatable {
    public let challenge: [UInt8]
    public let relyingPartyID: String
    public let userHandle: [UInt8]
    public let username: String
    public let excludedCredentials: [[UInt8]]
}

/// The WebAuthn relying party (Level 2): passkey registration and sign-in for `server.publicURL`,
/// with attestation `none`, ES256 and RS256, user verification required, single-use challenges of
/// five minutes, and every field of the browser's answer checked.
public struct RelyingParty: Sendable {
    public static let challengeLifetime: TimeInterval = 5 * 60
    public static let nameLengths = 1...60

    /// The host of the public URL: the relying-party id the passkeys are bound to.
    public let id: String
    /// Scheme, host and port of the public URL, as browsers write `origin` in client data.
    public let origin: String
    public let store: PasskeyStore
    let users: UserStore
    let clock: WallClock

    public init(publicURL: URL, database: AppDatabase, clock: WallClock) {
        id = publicURL.host?.lowercased() ?? "localhost"
        origin = Self.origin(of: publicURL)
        store = PasskeyStore(database: database)
        users = UserStore(database: database, clock: clock)
        self.clock = clock
    }

    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "http"
        let host = url.host?.lowercased() ?? "localhost"
        let isDefaultPort = url.port == nil || (scheme == "http" && url.port == 80) || (scheme == "https" && url.port == 443)
        return "\(scheme)://\(host)" + (isDefaultPort ? "" : ":\(url.port!)")
    }

    // MARK: Registration

    public func registrationOptions(userID: UserID, username: String, for asker: PasskeyStore.Asker) async throws -> RegistrationOptions {
        RegistrationOptions(
            challenge: try await challenge(.registration, userID: userID, for: asker), relyingPartyID: id,
            userHandle: try await store.userHandle(userID: userID), username: username,
            excludedCredentials: try await store.credentialIDs(userID: userID)
        )
    }

    /// Checks a new passkey's registration and stores it under `name`.
    public func register(userID: UserID, name: String, clientDataJSON: [UInt8], attestationObject: [UInt8], from asker: PasskeyStore.Asker) async throws {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Self.nameLengths.contains(name.count), !name.unicodeScalars.contains(where: \.isForbiddenControlCharacter) else {
            throw PasskeyRefusal.invalidName("Name the passkey with 1 to \(Self.nameLengths.upperBound) characters, such as “Phone”.")
        }
        let clientData = try parsed { try ClientData(json: clientDataJSON) }
        try check(clientData, type: "webauthn.create")
        guard try await store.spendChallenge(clientData.challenge, .registration, userID: userID, browser: asker.browser, now: clock.now()) else {
            throw PasskeyRefusal.challengeNotValid
        }
        let attestation = try parsed { try AttestationObject(bytes: attestationObject) }
        try check(attestation.authenticatorData)
        do {
            try await store.add(
                userID: userID, name: name, credentialID: attestation.credential.credentialID,
                publicKey: attestation.credential.publicKey, signCount: attestation.authenticatorData.signCount, at: clock.now()
            )
        } catch PasskeyStore.Conflict.credentialRegistered {
            throw PasskeyRefusal.credentialAlreadyRegistered
        }
    }

    // MARK: Sign-in

    /// A challenge for a sign-in with a discoverable passkey: no user is named before it.
    public func signInChallenge(for asker: PasskeyStore.Asker) async throws -> [UInt8] {
        try await challenge(.signIn, userID: nil, for: asker)
    }

    /// Checks a sign-in assertion; returns the user it signs in. The caller still refuses a
    /// disabled account, with the same answer as any refusal.
    public func signIn(
        credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?,
        from asker: PasskeyStore.Asker
    ) async throws -> UserID {
        let clientData = try parsed { try ClientData(json: clientDataJSON) }
        try check(clientData, type: "webauthn.get")
        guard try await store.spendChallenge(clientData.challenge, .signIn, userID: nil, browser: asker.browser, now: clock.now()) else {
            throw PasskeyRefusal.challengeNotValid
        }
        guard let credential = try await store.credential(id: credentialID) else { throw PasskeyRefusal.unknownCredential }
        if let userHandle, userHandle != credential.userHandle { throw PasskeyRefusal.anotherUsersCredential }
        let data = try parsed { try AuthenticatorData(bytes: authenticatorData) }
        try check(data)
        let signed = authenticatorData + Array(SHA256.hash(data: clientDataJSON))
        guard credential.publicKey.isValidSignature(signature, for: signed) else { throw PasskeyRefusal.badSignature }
        // A counter that does not move forward (when either side counts) means a cloned authenticator.
        if credential.signCount != 0 || data.signCount != 0, data.signCount <= credential.signCount {
            throw PasskeyRefusal.signCountNotIncreasing
        }
        guard try await store.recordUse(passkeyID: credential.id, previousCount: credential.signCount, newCount: data.signCount, at: clock.now()) else {
            throw PasskeyRefusal.signCountNotIncreasing
        }
        return credential.userID
    }

    // MARK: Checks

    private func challenge(_ purpose: PasskeyStore.Purpose, userID: UserID?, for asker: PasskeyStore.Asker) async throws -> [UInt8] {
        let now = clock.now()
        do {
            return try await store.issueChallenge(
                purpose, userID: userID, for: asker, expiresAt: now.addingTimeInterval(Self.challengeLifetime), now: now
            )
        } catch PasskeyStore.Conflict.tooManyChallenges {
            throw PasskeyRefusal.busy
        }
    }

    /// A parse whose failure is a refusal: the message could not be read.
    private func parsed<Value>(_ parse: () throws -> Value) throws -> Value {
        do { return try parse() } catch let error as WebAuthnError { throw PasskeyRefusal.malformed(error) }
    }

    private func check(_ clientData: ClientData, type: String) throws(PasskeyRefusal) {
        guard clientData.type == type else { throw .wrongType }
        guard clientData.origin == origin, clientData.crossOrigin != true else { throw .wrongOrigin }
    }

    private func check(_ data: AuthenticatorData) throws(PasskeyRefusal) {
        guard data.rpIDHash == Array(SHA256.hash(data: Array(id.utf8))) else { throw .wrongRelyingParty }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        guard data.flags.contains(.userVerified) else { throw .userNotVerified }
    }
}

extension COSEKey {
    /// Whether `signature` is this key's signature of `message`: ES256 (ECDSA P-256, DER-encoded
    /// signature) or RS256 (RSASSA-PKCS1-v1_5), both over SHA-256.
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch parameters {
        case .es256(let x, let y):
            guard let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                  let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(ecdsa, for: message)
        case .rs256(let modulus, let exponent):
            guard let key = try? _RSA.Signing.PublicKey(n: modulus, e: exponent) else { return false }
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5)
        }
    }
}
