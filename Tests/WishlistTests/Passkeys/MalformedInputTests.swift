import Testing
@testable import WishlistCore

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny generator whose whole output follows from its
/// seed, so a run that finds a crash can be repeated exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }
}

/// Damages valid messages the ways a buggy or hostile client could: flipped bits, changed bytes,
/// cut ends, repeated and inserted runs, and CBOR heads that declare enormous lengths.
struct ByteMutator {
    var generator: SplitMix64

    /// Bytes with special meaning to the parsers: heads with 1-, 2-, 4- and 8-byte arguments,
    /// indefinite lengths, break, tags, floats, empty containers, the flags' bits.
    static let interestingBytes: [UInt8] = [
        0x00, 0x01, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1f, 0x20, 0x40, 0x5b, 0x5f, 0x60, 0x7b, 0x7f,
        0x80, 0x9b, 0x9f, 0xa0, 0xbb, 0xbf, 0xc0, 0xd8, 0xf4, 0xf6, 0xf7, 0xf9, 0xfb, 0xff, 0x41, 0xc5,
    ]

    mutating func mutate(_ sample: [UInt8]) -> [UInt8] {
        var bytes = sample
        for _ in 0..<Int.random(in: 1...3, using: &generator) { mutateOnce(&bytes) }
        return bytes
    }

    private mutating func mutateOnce(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else {
            bytes = randomBytes(count: Int.random(in: 0...8, using: &generator))
            return
        }
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &generator)
        case 1: bytes[position] = UInt8.random(in: .min ... .max, using: &generator)
        case 2: bytes[position] = Self.interestingBytes.randomElement(using: &generator) ?? 0
        case 3: bytes.removeSubrange(position...)
        case 4: bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + 1 + randomLength())], at: position)
        case 5: bytes.insert(contentsOf: randomBytes(count: 1 + randomLength()), at: position)
        case 6: bytes.removeSubrange(position..<min(bytes.count, position + 1 + randomLength()))
        default: bytes.replaceSubrange(position..<position + 1, with: hugeLengthHead())
        }
    }

    private mutating func randomLength() -> Int {
        Int.random(in: 0..<16, using: &generator)
    }

    private mutating func randomBytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// A string, array or map head claiming 2^32 − 1, 2^63 or 2^64 − 1 items, or a credential id
    /// length field of 0xffff when it lands there.
    private mutating func hugeLengthHead() -> [UInt8] {
        let majorType = UInt8.random(in: 2...5, using: &generator) << 5
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return [majorType | 26, 0xff, 0xff, 0xff, 0xff]
        case 1: return [majorType | 27, 0x80, 0, 0, 0, 0, 0, 0, 0]
        case 2: return [majorType | 27] + [UInt8](repeating: 0xff, count: 8)
        default: return [0xff, 0xff]
        }
    }
}

/// A parser and a valid message for it.
struct FuzzTarget: Sendable, CustomStringConvertible {
    let description: String
    let seed: UInt64
    let sample: [UInt8]
    let parse: @Sendable ([UInt8]) throws(WebAuthnError) -> Void

    static let all: [FuzzTarget] = [
        FuzzTarget(description: "attestation object, ES256", seed: 1, sample: PasskeySamples.attestationObject()) { bytes throws(WebAuthnError) in
            _ = try AttestationObject(bytes: bytes)
        },
        FuzzTarget(description: "attestation object, RS256 and extensions", seed: 2, sample: PasskeySamples.attestationObject(
            authData: PasskeySamples.authenticatorData(
                flags: 0xc5, credentialID: PasskeySamples.credentialID, key: PasskeySamples.rs256Key, extensions: PasskeySamples.extensions
            )
        )) { bytes throws(WebAuthnError) in
            _ = try AttestationObject(bytes: bytes)
        },
        FuzzTarget(description: "assertion authenticator data", seed: 3, sample: PasskeySamples.authenticatorData(
            flags: 0x85, signCount: 42, extensions: PasskeySamples.extensions
        )) { bytes throws(WebAuthnError) in
            _ = try AuthenticatorData(bytes: bytes)
        },
        FuzzTarget(description: "COSE EC2 key", seed: 4, sample: PasskeySamples.es256Key) { bytes throws(WebAuthnError) in
            _ = try COSEKey(cbor: bytes)
        },
        FuzzTarget(description: "COSE RSA key", seed: 5, sample: PasskeySamples.rs256Key) { bytes throws(WebAuthnError) in
            _ = try COSEKey(cbor: bytes)
        },
        FuzzTarget(description: "client data JSON", seed: 6, sample: PasskeySamples.clientDataJSON()) { bytes throws(WebAuthnError) in
            _ = try ClientData(json: bytes)
        },
    ]

    /// Parses `count` mutants of the sample. The parsers' typed throws already guarantee that a
    /// refusal is a `WebAuthnError`; what this adds is that no input traps (overflow, index out
    /// of range, a huge allocation), which would end the test process.
    func run(mutations count: Int) -> (accepted: Int, refused: Int) {
        var mutator = ByteMutator(generator: SplitMix64(seed: seed))
        var accepted = 0
        for _ in 0..<count {
            do {
                try parse(mutator.mutate(sample))
                accepted += 1
            } catch {}
        }
        return (accepted, count - accepted)
    }
}

@Suite("Malformed passkey messages")
struct MalformedInputTests {
    @Test("random damage is refused or survives, never traps", arguments: FuzzTarget.all)
    func mutations(target: FuzzTarget) throws {
        try target.parse(target.sample)
        let outcome = target.run(mutations: 20_000)
        #expect(outcome.accepted > 0, "some damage lands where it changes nothing checkable, like a key coordinate")
        #expect(outcome.refused > 0)
    }
}
