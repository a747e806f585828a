@testable import WishlistCore

/// Writes CBOR in preferred (shortest) form, so tests can build inputs from values instead of hex.
/// Only the tests need it: the app decodes CBOR and never writes any.
enum CBORTestEncoder {
    static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let number): return head(majorType: 0, argument: number)
        case .negative(let number): return head(majorType: 1, argument: number)
        case .bytes(let bytes): return head(majorType: 2, argument: UInt64(bytes.count)) + bytes
        case .text(let text): return head(majorType: 3, argument: UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): return head(majorType: 4, argument: UInt64(items.count)) + items.flatMap(encode)
        case .map(let map):
            return head(majorType: 5, argument: UInt64(map.entries.count))
                + map.entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let flag): return [flag ? 0xf5 : 0xf4]
        case .null: return [0xf6]
        case .undefined: return [0xf7]
        }
    }

    /// The initial byte and argument of an item, in as few bytes as the argument allows.
    static func head(majorType: UInt8, argument: UInt64) -> [UInt8] {
        let type = majorType << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<0x100: return [type | 24] + bigEndian(argument, byteCount: 1)
        case 0x100..<0x1_0000: return [type | 25] + bigEndian(argument, byteCount: 2)
        case 0x1_0000..<0x1_0000_0000: return [type | 26] + bigEndian(argument, byteCount: 4)
        default: return [type | 27] + bigEndian(argument, byteCount: 8)
        }
    }

    static func bigEndian(_ value: UInt64, byteCount: Int) -> [UInt8] {
        (0..<byteCount).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
    }
}

extension CBORValue {
    static func int(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    static func map(_ pairs: KeyValuePairs<CBORValue, CBORValue>) -> CBORValue {
        .map(CBORMap(entries: pairs.map { CBORMap.Entry(key: $0.key, value: $0.value) }))
    }
}

/// Well-formed WebAuthn messages shaped like a browser's, for the parsers' tests.
enum PasskeySamples {
    static let rpIDHash: [UInt8] = (0..<32).map { UInt8($0 * 7 & 0xff) }
    static let credentialID: [UInt8] = (0..<16).map { UInt8(0xc0 + $0) }
    static let x: [UInt8] = .init(repeating: 0x11, count: 32)
    static let y: [UInt8] = .init(repeating: 0x22, count: 32)
    /// A 2048-bit modulus with its top bit set, as RSA keys have.
    static let modulus: [UInt8] = [0xc5] + (1..<256).map { UInt8($0 & 0xff) }
    static let exponent: [UInt8] = [0x01, 0x00, 0x01]

    static let es256KeyValue: CBORValue = .map([
        .int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1), .int(-2): .bytes(x), .int(-3): .bytes(y),
    ])
    static let rs256KeyValue: CBORValue = .map([
        .int(1): .int(3), .int(3): .int(-257), .int(-1): .bytes(modulus), .int(-2): .bytes(exponent),
    ])
    static let es256Key = CBORTestEncoder.encode(es256KeyValue)
    static let rs256Key = CBORTestEncoder.encode(rs256KeyValue)
    /// `credProtect` and `hmac-secret` outputs, the extensions authenticators most often return.
    static let extensions = CBORTestEncoder.encode(.map([.text("credProtect"): .int(2), .text("hmac-secret"): .bool(true)]))

    static let userPresent: UInt8 = 0x01
    static let userVerified: UInt8 = 0x04
    static let attested: UInt8 = 0x40
    static let extensionData: UInt8 = 0x80

    /// Fixed fields, then the credential (AAGUID of zeros, as "none" attestation leaves it) and the
    /// extensions when given; the flags are passed as they are, so tests can make them disagree.
    static func authenticatorData(
        flags: UInt8, signCount: UInt32 = 0, credentialID: [UInt8]? = nil, key: [UInt8]? = nil, extensions: [UInt8]? = nil
    ) -> [UInt8] {
        var bytes = rpIDHash + [flags] + CBORTestEncoder.bigEndian(UInt64(signCount), byteCount: 4)
        if let credentialID {
            bytes += [UInt8](repeating: 0, count: 16) + CBORTestEncoder.bigEndian(UInt64(credentialID.count), byteCount: 2) + credentialID
        }
        bytes += (key ?? []) + (extensions ?? [])
        return bytes
    }

    static func registrationData(key: [UInt8] = es256Key) -> [UInt8] {
        authenticatorData(flags: userPresent | userVerified | attested, credentialID: credentialID, key: key)
    }

    static let assertionData = authenticatorData(flags: userPresent | userVerified, signCount: 7)

    static func attestationObject(
        format: String = "none", statement: CBORValue = .map([:]), authData: [UInt8]? = registrationData()
    ) -> [UInt8] {
        var entries: [CBORMap.Entry] = [
            .init(key: .text("fmt"), value: .text(format)),
            .init(key: .text("attStmt"), value: statement),
        ]
        if let authData { entries.append(.init(key: .text("authData"), value: .bytes(authData))) }
        return CBORTestEncoder.encode(.map(CBORMap(entries: entries)))
    }

    static let challenge: [UInt8] = (0..<32).map { UInt8(255 - $0) }

    static func clientDataJSON(type: String = "webauthn.create", extra: String = "") -> [UInt8] {
        let challengeText = Base64URL.encode(challenge)
        return Array(#"{"type":"\#(type)","challenge":"\#(challengeText)","origin":"https://wishlist.example","crossOrigin":false\#(extra)}"#.utf8)
    }
}
