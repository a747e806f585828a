import Testing
@testable import WishlistCore

@Suite("CBOR decoding (RFC 8949 subset)")
struct CBORTests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0 }
    }

    @Test("integers from RFC 8949 Appendix A", arguments: [
        ("00", CBORValue.unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)),
        ("1818", .unsigned(24)), ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)),
        ("1a000f4240", .unsigned(1_000_000)), ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsigned(.max)), ("3bffffffffffffffff", .negative(.max)),
        ("20", .int(-1)), ("29", .int(-10)), ("3863", .int(-100)), ("3903e7", .int(-1000)),
    ])
    func integers(hex: String, expected: CBORValue) throws {
        #expect(try CBOR.decode(Self.bytes(hex)) == expected)
    }

    @Test func integerAccessorCoversInt64AndNoMore() throws {
        #expect(try CBOR.decode(Self.bytes("3b7fffffffffffffff")).integer == .min)
        #expect(try CBOR.decode(Self.bytes("1b7fffffffffffffff")).integer == .max)
        #expect(try CBOR.decode(Self.bytes("3b8000000000000000")).integer == nil)
        #expect(try CBOR.decode(Self.bytes("1b8000000000000000")).integer == nil)
        #expect(CBORValue.text("1").integer == nil)
    }

    @Test("simple values and strings from RFC 8949 Appendix A", arguments: [
        ("f4", CBORValue.bool(false)), ("f5", .bool(true)), ("f6", .null), ("f7", .undefined),
        ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])),
        ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")), ("62225c", .text("\"\\")),
        ("62c3bc", .text("\u{00fc}")), ("63e6b0b4", .text("\u{6c34}")), ("64f0908591", .text("\u{10151}")),
    ])
    func scalars(hex: String, expected: CBORValue) throws {
        #expect(try CBOR.decode(Self.bytes(hex)) == expected)
    }

    @Test func arraysFromAppendixA() throws {
        #expect(try CBOR.decode(Self.bytes("80")) == .array([]))
        #expect(try CBOR.decode(Self.bytes("83010203")) == .array([.int(1), .int(2), .int(3)]))
        #expect(try CBOR.decode(Self.bytes("8301820203820405"))
            == .array([.int(1), .array([.int(2), .int(3)]), .array([.int(4), .int(5)])]))
        let twentyFive = "98190102030405060708090a0b0c0d0e0f101112131415161718181819"
        #expect(try CBOR.decode(Self.bytes(twentyFive)) == .array((Int64(1)...25).map { .int($0) }))
    }

    @Test func mapsFromAppendixAKeepTheirOrder() throws {
        #expect(try CBOR.decode(Self.bytes("a0")) == .map([:]))
        #expect(try CBOR.decode(Self.bytes("a201020304")) == .map([.int(1): .int(2), .int(3): .int(4)]))
        #expect(try CBOR.decode(Self.bytes("a26161016162820203"))
            == .map([.text("a"): .int(1), .text("b"): .array([.int(2), .int(3)])]))
        #expect(try CBOR.decode(Self.bytes("826161a161626163")) == .array([.text("a"), .map([.text("b"): .text("c")])]))
        let fiveLetters = try #require(CBOR.decode(Self.bytes("a56161614161626142616361436164614461656145")).mapValue)
        #expect(fiveLetters.entries.map(\.key) == ["a", "b", "c", "d", "e"].map(CBORValue.text))
        #expect(fiveLetters[text: "c"] == .text("C"))
        #expect(fiveLetters[text: "f"] == nil)
    }

    @Test func mapLookupByIntegerKeyIgnoresTheEncodingWidth() throws {
        let map = try #require(CBOR.decode(Self.bytes("a3012018250239010002")).mapValue)
        #expect(map[int: 1] == .int(-1))
        #expect(map[int: 37] == .int(2))
        #expect(map[int: -257] == .int(2))
        #expect(map[int: 2] == nil)
        #expect(map[text: "1"] == nil)
    }

    @Test func encoderAndDecoderAgree() throws {
        for sample in [PasskeySamples.es256KeyValue, PasskeySamples.rs256KeyValue] {
            #expect(try CBOR.decode(CBORTestEncoder.encode(sample)) == sample)
        }
    }

    @Test("refused items", arguments: [
        // Floats and tags from Appendix A: outside the subset.
        ("f90000", CBORError.floatingPoint), ("fa47c35000", .floatingPoint), ("fb3ff199999999999a", .floatingPoint),
        ("c074323031332d30332d32315432303a30343a30305a", .tag), ("c11a514b67b0", .tag),
        ("c249010000000000000000", .tag), ("d74401020304", .tag),
        ("f0", .unsupportedSimpleValue(16)), ("f8ff", .unsupportedSimpleValue(255)), ("f818", .unsupportedSimpleValue(24)),
        // Indefinite lengths, and a break with nothing to end.
        ("5f42010243030405ff", .indefiniteLength), ("7f657374726561646d696e67ff", .indefiniteLength),
        ("9fff", .indefiniteLength), ("bf61610161629f0203ffff", .indefiniteLength), ("ff", .indefiniteLength),
        ("1f", .indefiniteLength),
        // Reserved additional information.
        ("1c", .reservedAdditionalInformation), ("3d", .reservedAdditionalInformation), ("5e", .reservedAdditionalInformation),
        ("fc", .reservedAdditionalInformation),
        // Maps whose keys repeat, even when spelt differently.
        ("a201020103", .duplicateKey), ("a20102180103", .duplicateKey), ("a2616101616102", .duplicateKey),
        // Text that is not UTF-8: a lone continuation byte, a bad second byte, an overlong form, a surrogate.
        ("6180", .invalidUTF8), ("62c328", .invalidUTF8), ("62c080", .invalidUTF8), ("63eda080", .invalidUTF8),
        // Trailing bytes.
        ("0100", .trailingBytes(count: 1)), ("80f6f6", .trailingBytes(count: 2)),
    ])
    func refusals(hex: String, error: CBORError) {
        #expect(throws: error) { try CBOR.decode(Self.bytes(hex)) }
    }

    @Test("declared lengths beyond the input fail without allocating", arguments: [
        "5bffffffffffffffff", "5b8000000000000000", "7bffffffffffffffff", "5affffffff", "5903e8", "58ff00",
        "7a7fffffff00", "98ff", "9903e8", "a9000300", "b803" + "0102",
    ])
    func hugeDeclaredLengths(hex: String) {
        #expect(throws: CBORError.truncated) { try CBOR.decode(Self.bytes(hex)) }
    }

    @Test func containerCountsAreLimited() throws {
        #expect(throws: CBORError.tooManyItems) { try CBOR.decode(Self.bytes("9bffffffffffffffff")) }
        #expect(throws: CBORError.tooManyItems) { try CBOR.decode(Self.bytes("bb8000000000000000")) }
        let limit = UInt64(CBOR.maximumItemsPerContainer)
        let full = CBORTestEncoder.head(majorType: 4, argument: limit) + [UInt8](repeating: 0xf6, count: Int(limit))
        #expect(try CBOR.decode(full) == .array(Array(repeating: .null, count: Int(limit))))
        let over = CBORTestEncoder.head(majorType: 4, argument: limit + 1) + [UInt8](repeating: 0xf6, count: Int(limit) + 1)
        #expect(throws: CBORError.tooManyItems) { try CBOR.decode(over) }
    }

    @Test func nestingIsLimited() throws {
        let deepest = [UInt8](repeating: 0x81, count: CBOR.maximumDepth) + [0x00]
        #expect(throws: Never.self) { try CBOR.decode(deepest) }
        #expect(throws: CBORError.tooDeep) { try CBOR.decode([0x81] + deepest) }
        #expect(throws: CBORError.tooDeep) { try CBOR.decode([UInt8](repeating: 0xa1, count: 100_000) + [0]) }
        #expect(throws: CBORError.tooDeep) { try CBOR.decode([UInt8](repeating: 0x81, count: 100_000)) }
    }

    @Test func everyPrefixOfAnItemIsTruncated() {
        let sample = CBORTestEncoder.encode(.array([
            PasskeySamples.rs256KeyValue, .text("wünsch"), .int(-1_000_000_000_000), .bytes([1, 2]), .null, .map([:]),
        ]))
        for length in 0..<sample.count {
            #expect(throws: CBORError.truncated, "prefix of \(length) bytes") { try CBOR.decode(Array(sample[..<length])) }
        }
    }

    @Test func prefixDecodingReportsTheBytesUsed() throws {
        let key = PasskeySamples.es256Key
        let decoded = try CBOR.decodePrefix(key + PasskeySamples.extensions)
        #expect(decoded.value == PasskeySamples.es256KeyValue)
        #expect(decoded.byteCount == key.count)
        #expect(try CBOR.decodePrefix([0x00, 0xff]).byteCount == 1)
        #expect(throws: CBORError.truncated) { try CBOR.decodePrefix([]) }
    }
}
