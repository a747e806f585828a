import Testing
@testable import WishlistCore

@Suite("WebAuthn messages")
struct WebAuthnMessagesTests {
    typealias Samples = PasskeySamples

    // MARK: Base64URL

    @Test func base64URLDecodesWhatItEncodes() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) & 0xff) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.decode("YW55IGNhcm5hbCBwbGVhcw") == Array("any carnal pleas".utf8))
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("YQ==") == [0x61])
        #expect(Base64URL.decode("YWI=") == [0x61, 0x62])
    }

    @Test("base64url refusals", arguments: [
        "Y", "YWJjZ", "YW+i", "YW/i", "YW i", "YW\ni", "YQ=", "Y===", "YQ==YQ", "=YWJ", "YR", "YWJ", "YWK", "é",
    ])
    func base64URLRefusals(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    // MARK: Client data

    @Test func clientDataFields() throws {
        let clientData = try ClientData(json: Samples.clientDataJSON(extra: #","topOrigin":"x","other":[1,{"a":null}]"#))
        #expect(clientData.type == "webauthn.create")
        #expect(clientData.challenge == Samples.challenge)
        #expect(clientData.origin == "https://wishlist.example")
        #expect(clientData.crossOrigin == false)
    }

    @Test func crossOriginIsOptional() throws {
        let json = #"{"type":"webauthn.get","challenge":"AQID","origin":"http://localhost:8080"}"#
        let clientData = try ClientData(json: Array(json.utf8))
        #expect(clientData.crossOrigin == nil)
        #expect(clientData.challenge == [1, 2, 3])
        let withNull = #"{"type":"webauthn.get","challenge":"AQID","origin":"o","crossOrigin":null}"#
        #expect(try ClientData(json: Array(withNull.utf8)).crossOrigin == nil)
    }

    @Test("client data refusals", arguments: [
        (#"{"type":"webauthn.get","challenge":"AQID"}"#, WebAuthnError.missingField("origin", in: .clientData)),
        (#"{"challenge":"AQID","origin":"o"}"#, .missingField("type", in: .clientData)),
        (#"{"type":"t","origin":"o"}"#, .missingField("challenge", in: .clientData)),
        (#"{"type":1,"challenge":"AQID","origin":"o"}"#, .wrongFieldType("type", in: .clientData)),
        (#"{"type":"t","challenge":["AQID"],"origin":"o"}"#, .wrongFieldType("challenge", in: .clientData)),
        (#"{"type":"t","challenge":"AQID","origin":null}"#, .wrongFieldType("origin", in: .clientData)),
        (#"{"type":"t","challenge":"AQID","origin":"o","crossOrigin":1}"#, .wrongFieldType("crossOrigin", in: .clientData)),
        (#"{"type":"t","challenge":"AQID","origin":"o","crossOrigin":"true"}"#, .wrongFieldType("crossOrigin", in: .clientData)),
        (#"{"type":"t","challenge":"AQ+D","origin":"o"}"#, .invalidChallenge),
        (#"{"type":"t","challenge":"A","origin":"o"}"#, .invalidChallenge),
        (#"{"type":"t","challenge":"AQID","origin":"o""#, .unreadable(.clientData)),
        (#"["t","AQID","o"]"#, .unreadable(.clientData)),
        (#""webauthn.get""#, .unreadable(.clientData)),
        ("", .unreadable(.clientData)),
        ("not json", .unreadable(.clientData)),
    ])
    func clientDataRefusals(json: String, error: WebAuthnError) {
        #expect(throws: error) { try ClientData(json: Array(json.utf8)) }
    }

    @Test func clientDataMustBeUTF8() {
        var json = Samples.clientDataJSON()
        json.insert(contentsOf: [0xc3, 0x28], at: json.count - 2)
        #expect(throws: WebAuthnError.self) { try ClientData(json: json) }
    }

    // MARK: COSE keys

    @Test func es256Key() throws {
        let key = try COSEKey(cbor: Samples.es256Key)
        #expect(key.parameters == .es256(x: Samples.x, y: Samples.y))
        #expect(key.coseBytes == Samples.es256Key)
    }

    @Test func rs256Key() throws {
        let key = try COSEKey(cbor: Samples.rs256Key)
        #expect(key.parameters == .rs256(modulus: Samples.modulus, exponent: Samples.exponent))
        #expect(try COSEKey(cbor: key.coseBytes) == key, "what the database stores reads back the same")
    }

    @Test func keysAcceptTheLimitsOfTheirSizesAndIgnoreOtherLabels() throws {
        for modulusLength in [256, 512] {
            let key = CBORValue.map([
                .int(1): .int(3), .int(3): .int(-257), .int(-1): .bytes(Array(repeating: 0xff, count: modulusLength)),
                .int(-2): .bytes(Array(repeating: 0x01, count: 8)), .int(2): .bytes([1, 2, 3]),
            ])
            #expect(throws: Never.self) { try COSEKey(cbor: CBORTestEncoder.encode(key)) }
        }
    }

    static func ec2Key(
        kty: CBORValue = .int(2), alg: CBORValue? = .int(-7), crv: CBORValue = .int(1),
        x: CBORValue? = .bytes(PasskeySamples.x), y: CBORValue = .bytes(PasskeySamples.y)
    ) -> [UInt8] {
        var entries = [CBORMap.Entry(key: .int(1), value: kty)]
        if let alg { entries.append(.init(key: .int(3), value: alg)) }
        entries.append(.init(key: .int(-1), value: crv))
        if let x { entries.append(.init(key: .int(-2), value: x)) }
        entries.append(.init(key: .int(-3), value: y))
        return CBORTestEncoder.encode(.map(CBORMap(entries: entries)))
    }

    static func rsaKey(alg: Int64 = -257, n: Int = 256, e: Int = 3) -> [UInt8] {
        CBORTestEncoder.encode(.map([
            .int(1): .int(3), .int(3): .int(alg),
            .int(-1): .bytes(Array(repeating: 0xc1, count: n)), .int(-2): .bytes(Array(repeating: 0x01, count: e)),
        ]))
    }

    @Test("COSE key refusals", arguments: [
        (ec2Key(kty: .int(1)), WebAuthnError.unsupportedKeyType(1)),
        (ec2Key(kty: .int(4)), .unsupportedKeyType(4)),
        (ec2Key(kty: .text("EC2")), .wrongFieldType("kty", in: .publicKey)),
        (ec2Key(alg: .int(-8)), .unsupportedAlgorithm(-8)),
        (ec2Key(alg: .int(-257)), .unsupportedAlgorithm(-257)),
        (ec2Key(alg: .int(-35)), .unsupportedAlgorithm(-35)),
        (ec2Key(alg: nil), .missingField("alg", in: .publicKey)),
        (ec2Key(crv: .int(2)), .unsupportedCurve(2)),
        (ec2Key(x: .bytes(Array(repeating: 1, count: 31))), .invalidKeyParameter("x")),
        (ec2Key(y: .bytes(Array(repeating: 1, count: 33))), .invalidKeyParameter("y")),
        (ec2Key(x: nil), .missingField("x", in: .publicKey)),
        (ec2Key(y: .text("y")), .wrongFieldType("y", in: .publicKey)),
        (rsaKey(alg: -7), .unsupportedAlgorithm(-7)),
        (rsaKey(alg: -37), .unsupportedAlgorithm(-37)),
        (rsaKey(n: 255), .invalidKeyParameter("n")),
        (rsaKey(n: 513), .invalidKeyParameter("n")),
        (rsaKey(e: 0), .invalidKeyParameter("e")),
        (rsaKey(e: 9), .invalidKeyParameter("e")),
        (CBORTestEncoder.encode(.map([.int(3): .int(-7)])), .missingField("kty", in: .publicKey)),
        (CBORTestEncoder.encode(.array([.int(1), .int(2)])), .unreadable(.publicKey)),
        (PasskeySamples.es256Key + [0x00], .malformedCBOR(.trailingBytes(count: 1))),
        (Array(PasskeySamples.es256Key.dropLast()), .malformedCBOR(.truncated)),
        ([], .malformedCBOR(.truncated)),
    ])
    func coseKeyRefusals(bytes: [UInt8], error: WebAuthnError) {
        #expect(throws: error) { try COSEKey(cbor: bytes) }
    }

    // MARK: Authenticator data

    @Test func assertionDataWithoutCredential() throws {
        let data = try AuthenticatorData(bytes: Samples.authenticatorData(flags: 0x05, signCount: 0x0102_0304))
        #expect(data.rpIDHash == Samples.rpIDHash)
        #expect(data.flags == [.userPresent, .userVerified])
        #expect(!data.flags.contains(.attestedCredentialData))
        #expect(data.signCount == 0x0102_0304)
        #expect(data.attestedCredential == nil)
        #expect(data.bytes.count == 37)
    }

    @Test func registrationDataWithCredential() throws {
        let bytes = Samples.registrationData()
        let data = try AuthenticatorData(bytes: bytes)
        let credential = try #require(data.attestedCredential)
        #expect(credential.aaguid == Array(repeating: 0, count: 16))
        #expect(credential.credentialID == Samples.credentialID)
        #expect(credential.publicKey.parameters == .es256(x: Samples.x, y: Samples.y))
        #expect(credential.publicKey.coseBytes == Samples.es256Key)
        #expect(data.bytes == bytes)
    }

    @Test func extensionsAfterTheCredentialOrAlone() throws {
        let flags = Samples.userPresent | Samples.userVerified | Samples.attested | Samples.extensionData
        let registration = try AuthenticatorData(bytes: Samples.authenticatorData(
            flags: flags, credentialID: Samples.credentialID, key: Samples.rs256Key, extensions: Samples.extensions
        ))
        #expect(registration.attestedCredential?.publicKey.coseBytes == Samples.rs256Key)
        #expect(registration.flags.contains(.extensionData))
        let assertion = try AuthenticatorData(bytes: Samples.authenticatorData(flags: 0x81, extensions: Samples.extensions))
        #expect(assertion.attestedCredential == nil)
    }

    @Test func credentialIDLengthLimits() throws {
        let flags = Samples.userPresent | Samples.attested
        let longest = [UInt8](repeating: 7, count: 1023)
        let accepted = try AuthenticatorData(bytes: Samples.authenticatorData(flags: flags, credentialID: longest, key: Samples.es256Key))
        #expect(accepted.attestedCredential?.credentialID == longest)
        #expect(throws: WebAuthnError.invalidCredentialIDLength(1024)) {
            try AuthenticatorData(bytes: Samples.authenticatorData(flags: flags, credentialID: longest + [7], key: Samples.es256Key))
        }
        #expect(throws: WebAuthnError.invalidCredentialIDLength(0)) {
            try AuthenticatorData(bytes: Samples.authenticatorData(flags: flags, credentialID: [], key: Samples.es256Key))
        }
    }

    @Test("authenticator data refusals", arguments: [
        (Array(Samples.assertionData.prefix(36)), WebAuthnError.authenticatorDataTruncated),
        ([], .authenticatorDataTruncated),
        (Samples.assertionData + [0], .trailingAuthenticatorData(count: 1)),
        (Samples.registrationData() + [0xa0], .trailingAuthenticatorData(count: 1)),
        (Samples.authenticatorData(flags: 0x41), .authenticatorDataTruncated),
        (Array(Samples.registrationData().prefix(37 + 18 + 5)), .authenticatorDataTruncated),
        (Samples.authenticatorData(flags: 0x41, credentialID: [1, 2]), .malformedCBOR(.truncated)),
        (Samples.authenticatorData(flags: 0x41, credentialID: [1, 2], key: [0xa1, 0x01]), .malformedCBOR(.truncated)),
        (Samples.authenticatorData(flags: 0x41, credentialID: [1, 2], key: [0x01]), .unreadable(.publicKey)),
        (Samples.authenticatorData(flags: 0x81), .malformedCBOR(.truncated)),
        (Samples.authenticatorData(flags: 0x81, extensions: [0x80]), .extensionsNotAMap),
        (Samples.authenticatorData(flags: 0x81, extensions: Samples.extensions + [0]), .malformedCBOR(.trailingBytes(count: 1))),
        (Samples.authenticatorData(flags: 0x01, extensions: Samples.extensions), .trailingAuthenticatorData(count: Samples.extensions.count)),
    ])
    func authenticatorDataRefusals(bytes: [UInt8], error: WebAuthnError) {
        #expect(throws: error) { try AuthenticatorData(bytes: bytes) }
    }

    @Test func everyPrefixOfRegistrationDataIsRefused() {
        let bytes = Samples.authenticatorData(
            flags: 0xc5, credentialID: Samples.credentialID, key: Samples.es256Key, extensions: Samples.extensions
        )
        for length in 0..<bytes.count {
            #expect(throws: WebAuthnError.self, "prefix of \(length) bytes") { try AuthenticatorData(bytes: Array(bytes[..<length])) }
        }
    }

    // MARK: Attestation objects

    @Test func noneAttestationIsAccepted() throws {
        let object = try AttestationObject(bytes: Samples.attestationObject(authData: Samples.registrationData(key: Samples.rs256Key)))
        #expect(object.credential.credentialID == Samples.credentialID)
        #expect(object.credential.publicKey.parameters == .rs256(modulus: Samples.modulus, exponent: Samples.exponent))
        #expect(object.authenticatorData.attestedCredential == object.credential)
        #expect(object.authenticatorData.flags.contains(.userVerified))
    }

    @Test("attestation object refusals", arguments: [
        (Samples.attestationObject(format: "packed"), WebAuthnError.attestationNotNone(format: "packed")),
        (Samples.attestationObject(format: "tpm", statement: .map([.text("ver"): .text("2.0")])), .attestationNotNone(format: "tpm")),
        (Samples.attestationObject(statement: .map([.text("alg"): .int(-7)])), .attestationStatementNotEmpty),
        (Samples.attestationObject(statement: .array([])), .wrongFieldType("attStmt", in: .attestationObject)),
        (Samples.attestationObject(authData: nil), .missingField("authData", in: .attestationObject)),
        (Samples.attestationObject(authData: Samples.assertionData), .missingAttestedCredential),
        (Samples.attestationObject(authData: []), .authenticatorDataTruncated),
        (CBORTestEncoder.encode(.map([.text("fmt"): .text("none"), .text("attStmt"): .map([:]), .text("authData"): .text("x")])),
         .wrongFieldType("authData", in: .attestationObject)),
        (CBORTestEncoder.encode(.map([.text("attStmt"): .map([:])])), .missingField("fmt", in: .attestationObject)),
        (CBORTestEncoder.encode(.map([.text("fmt"): .text("none")])), .missingField("attStmt", in: .attestationObject)),
        (CBORTestEncoder.encode(.map([.text("fmt"): .int(0)])), .wrongFieldType("fmt", in: .attestationObject)),
        (CBORTestEncoder.encode(.array([])), .unreadable(.attestationObject)),
        (Samples.attestationObject() + [0], .malformedCBOR(.trailingBytes(count: 1))),
        ([0xa3, 0x63, 0x66, 0x6d, 0x74], .malformedCBOR(.truncated)),
    ])
    func attestationObjectRefusals(bytes: [UInt8], error: WebAuthnError) {
        #expect(throws: error) { try AttestationObject(bytes: bytes) }
    }

    @Test func refusedFormatNamesAreShortAndPrintable() {
        let format = "pa\u{0}\ncked\u{1b}[31m" + String(repeating: "x", count: 100)
        #expect(throws: WebAuthnError.attestationNotNone(format: "packed[31m" + String(repeating: "x", count: 22))) {
            try AttestationObject(bytes: Samples.attestationObject(format: format))
        }
    }

    // MARK: Messages

    @Test("messages are plain sentences", arguments: [
        WebAuthnError.unreadable(.clientData), .unreadable(.attestationObject), .unreadable(.publicKey),
        .malformedCBOR(.duplicateKey), .missingField("origin", in: .clientData), .missingField("authData", in: .attestationObject),
        .wrongFieldType("kty", in: .publicKey), .invalidChallenge, .authenticatorDataTruncated, .invalidCredentialIDLength(0),
        .trailingAuthenticatorData(count: 3), .extensionsNotAMap, .missingAttestedCredential, .unsupportedKeyType(1),
        .unsupportedAlgorithm(-8), .unsupportedCurve(2), .invalidKeyParameter("n"), .attestationNotNone(format: "packed"),
        .attestationStatementNotEmpty,
    ])
    func messages(error: WebAuthnError) throws {
        let first = try #require(error.message.first)
        #expect(first.isUppercase)
        #expect(error.message.hasSuffix("."))
        for jargon in ["CBOR", "COSE", "kty", "origin", "authData", "attestation", "packed", "-8", "base64"] {
            #expect(!error.message.contains(jargon))
        }
        #expect(error.description.hasPrefix(error.message))
    }

    @Test func logDescriptionsNameTheDetail() {
        #expect(WebAuthnError.malformedCBOR(.tag).description.contains("CBOR tag"))
        #expect(WebAuthnError.unsupportedAlgorithm(-8).description.contains("alg -8"))
        #expect(WebAuthnError.missingField("origin", in: .clientData).description.contains("missing origin"))
        #expect(WebAuthnError.attestationNotNone(format: "packed").description.contains("packed"))
    }
}
