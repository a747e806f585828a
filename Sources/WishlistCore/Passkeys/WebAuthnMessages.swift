import Foundation

// What a browser sends when a passkey is registered or used (WebAuthn Level 2), parsed from bytes
// into values and checked for shape only. Whether the challenge, origin, relying-party hash, flags
// and signature are the right ones is the ceremony's business, not the parser's.

/// Why a passkey message was refused. `message` is a sentence for the person signing in;
/// `description` adds the detail a log needs.
public enum WebAuthnError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message a field belongs to, named in the sentence that reports it.
    public enum Document: Sendable, Equatable {
        case clientData
        case attestationObject
        case publicKey
    }

    /// Not JSON or CBOR at all, or not the object or map the message must be.
    case unreadable(Document)
    /// CBOR this site does not accept (see `CBORError`).
    case malformedCBOR(CBORError)
    case missingField(String, in: Document)
    case wrongFieldType(String, in: Document)
    /// The client data's challenge is not unpadded base64url.
    case invalidChallenge
    /// Authenticator data that ends before its fixed fields or its credential do.
    case authenticatorDataTruncated
    /// A credential id of 0 bytes or more than 1,023.
    case invalidCredentialIDLength(Int)
    /// Bytes after the authenticator data's last field when no extensions are announced.
    case trailingAuthenticatorData(count: Int)
    /// Extension data that is well-formed CBOR but not a map.
    case extensionsNotAMap
    /// A registration whose authenticator data holds no credential.
    case missingAttestedCredential
    /// A COSE key type (`kty`) other than EC2 (2) and RSA (3).
    case unsupportedKeyType(Int64)
    /// A COSE algorithm other than ES256 (−7) for EC2 keys and RS256 (−257) for RSA keys.
    case unsupportedAlgorithm(Int64)
    /// An EC2 curve other than P-256 (1).
    case unsupportedCurve(Int64)
    /// A key coordinate, modulus or exponent of the wrong size.
    case invalidKeyParameter(String)
    /// An attestation format other than "none" (the name kept short and printable for logs).
    case attestationNotNone(format: String)
    /// A "none" attestation whose statement is not the empty map.
    case attestationStatementNotEmpty

    public var message: String {
        switch self {
        case .unreadable(let document): return "\(document.phrase.capitalizedFirst) could not be read."
        case .malformedCBOR: return "The passkey’s answer could not be read."
        case .missingField(_, let document): return "\(document.phrase.capitalizedFirst) is incomplete."
        case .wrongFieldType(_, let document): return "\(document.phrase.capitalizedFirst) is malformed."
        case .invalidChallenge: return "The browser’s description of the passkey request holds a garbled challenge."
        case .authenticatorDataTruncated: return "The passkey’s answer is shorter than it should be."
        case .invalidCredentialIDLength(let length): return "The passkey’s identifier is \(length.bytesPhrase) long; it must be 1 to 1023 bytes."
        case .trailingAuthenticatorData(let count): return "The passkey’s answer ends with \(count.bytesPhrase) too many."
        case .extensionsNotAMap: return "The passkey’s answer holds extra data in a form this site does not understand."
        case .missingAttestedCredential: return "The new passkey’s registration does not include its public key."
        case .unsupportedKeyType, .unsupportedCurve: return "This passkey uses a kind of key this site does not support."
        case .unsupportedAlgorithm: return "This passkey uses a signature algorithm this site does not support."
        case .invalidKeyParameter: return "The passkey’s public key is malformed."
        case .attestationNotNone, .attestationStatementNotEmpty:
            return "The new passkey came with a certificate from its maker, which this site does not ask for and cannot accept."
        }
    }

    /// The message, then in brackets what a developer reading the log needs and a person
    /// signing in does not: which field, which algorithm, which CBOR rule.
    public var description: String {
        guard let detail else { return message }
        return "\(message) (\(detail))"
    }

    private var detail: String? {
        switch self {
        case .malformedCBOR(let error): return error.description
        case .missingField(let name, _): return "missing \(name)"
        case .wrongFieldType(let name, _): return "\(name) of the wrong type"
        case .invalidKeyParameter(let name): return "\(name) of the wrong length"
        case .unsupportedKeyType(let value): return "COSE kty \(value)"
        case .unsupportedAlgorithm(let value): return "COSE alg \(value)"
        case .unsupportedCurve(let value): return "COSE crv \(value)"
        case .attestationNotNone(let format): return "attestation format \(format)"
        case .attestationStatementNotEmpty: return "non-empty statement for attestation format none"
        default: return nil
        }
    }
}

extension WebAuthnError.Document {
    var phrase: String {
        switch self {
        case .clientData: return "the browser's description of the passkey request"
        case .attestationObject: return "the new passkey's registration"
        case .publicKey: return "the passkey's public key"
        }
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

extension Base64URL {
    /// Decodes unpadded base64url, as WebAuthn writes challenges and credential ids. Correct `=`
    /// padding is tolerated; any other character, an impossible length or non-zero leftover bits
    /// give nil, so each byte string has exactly one accepted spelling.
    public static func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        if characters.count % 4 == 0 {
            for _ in 0..<2 where characters.last == UInt8(ascii: "=") { characters.removeLast() }
        }
        guard characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var pendingBits = 0
        for character in characters {
            guard let sextet = sextet(character) else { return nil }
            accumulator = accumulator << 6 | sextet
            pendingBits += 6
            if pendingBits >= 8 {
                pendingBits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(pendingBits)))
                accumulator &= (1 << UInt32(pendingBits)) - 1
            }
        }
        return accumulator == 0 ? output : nil
    }

    private static func sextet(_ character: UInt8) -> UInt32? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}

/// The browser's `clientDataJSON`: what it was asked to do, for which challenge, from which origin.
/// The ceremony hashes the original bytes, so this value is only for the checks.
public struct ClientData: Sendable, Equatable {
    /// "webauthn.create" or "webauthn.get".
    public let type: String
    public let challenge: [UInt8]
    public let origin: String
    public let crossOrigin: Bool?

    public init(json: [UInt8]) throws(WebAuthnError) {
        let fields = try Self.decodeFields(json)
        guard let challenge = Base64URL.decode(fields.challenge) else { throw .invalidChallenge }
        self.type = fields.type
        self.challenge = challenge
        self.origin = fields.origin
        self.crossOrigin = fields.crossOrigin
    }

    /// Other members (`topOrigin`, `tokenBinding`, anything a browser adds later) are ignored,
    /// as the specification asks.
    private struct Fields: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
    }

    /// JSONDecoder rather than JSONSerialization: it refuses `1` for a Bool and `2` for a String on
    /// every platform, where bridging through NSNumber would not.
    private static func decodeFields(_ json: [UInt8]) throws(WebAuthnError) -> Fields {
        do {
            return try JSONDecoder().decode(Fields.self, from: Data(json))
        } catch let error as DecodingError {
            throw refusal(for: error)
        } catch {
            throw .unreadable(.clientData)
        }
    }

    private static func refusal(for error: DecodingError) -> WebAuthnError {
        switch error {
        case .keyNotFound(let key, _):
            return .missingField(key.stringValue, in: .clientData)
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            guard let field = context.codingPath.last else { return .unreadable(.clientData) }
            return .wrongFieldType(field.stringValue, in: .clientData)
        default:
            return .unreadable(.clientData)
        }
    }
}

/// A credential public key in COSE form (RFC 9052/9053), limited to what this site verifies:
/// ES256 on P-256 and RS256 with a 2048- to 4096-bit modulus.
public struct COSEKey: Sendable, Equatable {
    public enum Parameters: Sendable, Equatable {
        /// The P-256 point's coordinates, 32 bytes each, big-endian.
        case es256(x: [UInt8], y: [UInt8])
        /// The RSA modulus (256 to 512 bytes) and public exponent (1 to 8 bytes), big-endian.
        case rs256(modulus: [UInt8], exponent: [UInt8])
    }

    public let parameters: Parameters
    /// The key exactly as the authenticator encoded it: what the database stores, and what
    /// `init(cbor:)` reads back.
    public let coseBytes: [UInt8]

    /// Reads a stored key.
    public init(cbor bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBOR.decode(bytes) } catch { throw .malformedCBOR(error) }
        try self.init(value, coseBytes: bytes)
    }

    init(_ value: CBORValue, coseBytes: [UInt8]) throws(WebAuthnError) {
        guard let map = value.mapValue else { throw .unreadable(.publicKey) }
        let keyType = try Self.integer(map, label: 1, name: "kty")
        guard keyType == 2 || keyType == 3 else { throw .unsupportedKeyType(keyType) }
        let algorithm = try Self.integer(map, label: 3, name: "alg")
        switch (keyType, algorithm) {
        case (2, -7): parameters = try Self.es256(map)
        case (3, -257): parameters = try Self.rs256(map)
        default: throw .unsupportedAlgorithm(algorithm)
        }
        self.coseBytes = coseBytes
    }

    private static func es256(_ map: CBORMap) throws(WebAuthnError) -> Parameters {
        let curve = try integer(map, label: -1, name: "crv")
        guard curve == 1 else { throw .unsupportedCurve(curve) }
        let x = try byteString(map, label: -2, name: "x", sizes: 32...32)
        let y = try byteString(map, label: -3, name: "y", sizes: 32...32)
        return .es256(x: x, y: y)
    }

    private static func rs256(_ map: CBORMap) throws(WebAuthnError) -> Parameters {
        let modulus = try byteString(map, label: -1, name: "n", sizes: 256...512)
        let exponent = try byteString(map, label: -2, name: "e", sizes: 1...8)
        return .rs256(modulus: modulus, exponent: exponent)
    }

    private static func integer(_ map: CBORMap, label: Int64, name: String) throws(WebAuthnError) -> Int64 {
        guard let value = map[int: label] else { throw .missingField(name, in: .publicKey) }
        guard let integer = value.integer else { throw .wrongFieldType(name, in: .publicKey) }
        return integer
    }

    private static func byteString(
        _ map: CBORMap, label: Int64, name: String, sizes: ClosedRange<Int>
    ) throws(WebAuthnError) -> [UInt8] {
        guard let value = map[int: label] else { throw .missingField(name, in: .publicKey) }
        guard let bytes = value.byteString else { throw .wrongFieldType(name, in: .publicKey) }
        guard sizes.contains(bytes.count) else { throw .invalidKeyParameter(name) }
        return bytes
    }
}

/// The authenticator's signed statement (WebAuthn §6.1): which relying party, what the user did,
/// the signature counter, and at registration the new credential.
public struct AuthenticatorData: Sendable, Equatable {
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8

        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        public static let userPresent = Flags(rawValue: 1 << 0)
        public static let userVerified = Flags(rawValue: 1 << 2)
        public static let attestedCredentialData = Flags(rawValue: 1 << 6)
        public static let extensionData = Flags(rawValue: 1 << 7)
    }

    /// The credential a registration creates.
    public struct AttestedCredential: Sendable, Equatable {
        /// The authenticator model's id; all zeros under "none" attestation.
        public let aaguid: [UInt8]
        public let credentialID: [UInt8]
        public let publicKey: COSEKey
    }

    /// Longest credential id WebAuthn Level 2 allows.
    package static let maximumCredentialIDLength = 1023
    private static let fixedLength = 37

    /// The bytes as received: an assertion's signature covers them, not this parsed form.
    public let bytes: [UInt8]
    /// SHA-256 of the relying-party id the authenticator used.
    public let rpIDHash: [UInt8]
    public let flags: Flags
    public let signCount: UInt32
    /// Present exactly when `flags` has `attestedCredentialData`.
    public let attestedCredential: AttestedCredential?

    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= Self.fixedLength else { throw .authenticatorDataTruncated }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var end = Self.fixedLength
        if flags.contains(.attestedCredentialData) {
            let credential = try Self.attestedCredential(in: bytes, from: end)
            attestedCredential = credential.value
            end = credential.end
        } else {
            attestedCredential = nil
        }
        try Self.checkExtensions(Array(bytes[end...]), announced: flags.contains(.extensionData))
    }

    /// AAGUID (16 bytes), credential id length (2 bytes, big-endian), credential id, COSE key.
    private static func attestedCredential(
        in bytes: [UInt8], from start: Int
    ) throws(WebAuthnError) -> (value: AttestedCredential, end: Int) {
        guard bytes.count - start >= 18 else { throw .authenticatorDataTruncated }
        let aaguid = Array(bytes[start..<start + 16])
        let idLength = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        guard (1...maximumCredentialIDLength).contains(idLength) else { throw .invalidCredentialIDLength(idLength) }
        let idStart = start + 18
        guard bytes.count - idStart >= idLength else { throw .authenticatorDataTruncated }
        let credentialID = Array(bytes[idStart..<idStart + idLength])
        let keyStart = idStart + idLength
        let (publicKey, keyLength) = try coseKey(Array(bytes[keyStart...]))
        let credential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: publicKey)
        return (credential, keyStart + keyLength)
    }

    private static func coseKey(_ rest: [UInt8]) throws(WebAuthnError) -> (COSEKey, Int) {
        let decoded: (value: CBORValue, byteCount: Int)
        do { decoded = try CBOR.decodePrefix(rest) } catch { throw .malformedCBOR(error) }
        let key = try COSEKey(decoded.value, coseBytes: Array(rest[0..<decoded.byteCount]))
        return (key, decoded.byteCount)
    }

    /// Extension outputs are decoded only to prove them well-formed: this site requests none.
    private static func checkExtensions(_ rest: [UInt8], announced: Bool) throws(WebAuthnError) {
        guard announced else {
            guard rest.isEmpty else { throw .trailingAuthenticatorData(count: rest.count) }
            return
        }
        let extensions: CBORValue
        do { extensions = try CBOR.decode(rest) } catch { throw .malformedCBOR(error) }
        guard extensions.mapValue != nil else { throw .extensionsNotAMap }
    }
}

/// What `navigator.credentials.create()` returns in `attestationObject`. This site asks for no
/// attestation, so only the "none" format, with its empty statement, is accepted.
public struct AttestationObject: Sendable, Equatable {
    public let authenticatorData: AuthenticatorData
    /// The new credential; a registration without one is refused.
    public let credential: AuthenticatorData.AttestedCredential

    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do { value = try CBOR.decode(bytes) } catch { throw .malformedCBOR(error) }
        guard let map = value.mapValue else { throw .unreadable(.attestationObject) }
        try Self.checkNoneAttestation(map)
        let authenticatorData = try AuthenticatorData(bytes: Self.field(map, "authData", \.byteString))
        guard let credential = authenticatorData.attestedCredential else { throw .missingAttestedCredential }
        self.authenticatorData = authenticatorData
        self.credential = credential
    }

    private static func checkNoneAttestation(_ map: CBORMap) throws(WebAuthnError) {
        let format = try field(map, "fmt", \.textString)
        guard format == "none" else { throw .attestationNotNone(format: printable(format)) }
        guard try field(map, "attStmt", \.mapValue).entries.isEmpty else { throw .attestationStatementNotEmpty }
    }

    private static func field<Value>(
        _ map: CBORMap, _ name: String, _ extract: (CBORValue) -> Value?
    ) throws(WebAuthnError) -> Value {
        guard let value = map[text: name] else { throw .missingField(name, in: .attestationObject) }
        guard let extracted = extract(value) else { throw .wrongFieldType(name, in: .attestationObject) }
        return extracted
    }

    /// Format names are short ASCII words ("packed", "android-key"); anything else is cut down
    /// before it reaches a log line or a page.
    private static func printable(_ format: String) -> String {
        String(String.UnicodeScalarView(format.unicodeScalars.filter { (0x21...0x7e).contains($0.value) }.prefix(32)))
    }
}
