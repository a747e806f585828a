// A strict decoder for the subset of CBOR (RFC 8949) that WebAuthn uses: integers, byte and text
// strings, arrays, maps, false, true, null and undefined, all with definite lengths. Everything
// else is refused rather than skipped, because the bytes come from a browser we do not control and
// a lenient parser is one more place for two readings of the same bytes to disagree.

/// One decoded CBOR data item.
enum CBORValue: Sendable, Hashable {
    case unsigned(UInt64)
    /// The negative integer −1 − n, kept as n so that the whole range CBOR allows fits.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    case map(CBORMap)
    case bool(Bool)
    case null
    case undefined

    /// The integer's value when it fits in an `Int64`; nil for other kinds of item.
    var integer: Int64? {
        switch self {
        case .unsigned(let value): return value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): return value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: return nil
        }
    }

    var byteString: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    var textString: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var mapValue: CBORMap? {
        if case .map(let value) = self { return value }
        return nil
    }
}

/// A CBOR map in the order its entries were encoded. Keys are unique: the decoder refuses a
/// repeated key, since which of the two values counts would otherwise be up to the reader.
struct CBORMap: Sendable, Hashable {
    struct Entry: Sendable, Hashable {
        let key: CBORValue
        let value: CBORValue
    }

    let entries: [Entry]

    /// The value under an integer key, such as a COSE key's labels (1 for the key type, 3 for the
    /// algorithm, −2 for x). A key encoded in more bytes than needed still matches.
    subscript(int key: Int64) -> CBORValue? {
        entries.first { $0.key.integer == key }?.value
    }

    /// The value under a text key, such as an attestation object's "fmt".
    subscript(text key: String) -> CBORValue? {
        entries.first { $0.key.textString == key }?.value
    }
}

/// Why bytes are not a CBOR item this decoder accepts.
public enum CBORError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ends inside an item, or a declared length or count runs past its end.
    case truncated
    /// An indefinite-length string, array or map, or a lone "break" byte.
    case indefiniteLength
    /// Additional information 28, 29 or 30, which RFC 8949 reserves.
    case reservedAdditionalInformation
    /// A tag (major type 6); WebAuthn's structures never carry one.
    case tag
    /// A half, single or double precision float.
    case floatingPoint
    /// A simple value other than false, true, null and undefined.
    case unsupportedSimpleValue(UInt8)
    /// Arrays and maps nested deeper than `CBOR.maximumDepth`.
    case tooDeep
    /// An array or map declaring more than `CBOR.maximumItemsPerContainer` items.
    case tooManyItems
    /// A map holding the same key twice.
    case duplicateKey
    /// A text string that is not valid UTF-8.
    case invalidUTF8
    /// Bytes left over after the item, when the whole input was meant to be one item.
    case trailingBytes(count: Int)

    public var description: String {
        switch self {
        case .truncated: return "CBOR input ends inside an item"
        case .indefiniteLength: return "CBOR indefinite length or break byte"
        case .reservedAdditionalInformation: return "CBOR reserved additional information (28-30)"
        case .tag: return "CBOR tag"
        case .floatingPoint: return "CBOR floating-point value"
        case .unsupportedSimpleValue(let value): return "CBOR simple value \(value)"
        case .tooDeep: return "CBOR nested deeper than \(CBOR.maximumDepth) levels"
        case .tooManyItems: return "CBOR container with more than \(CBOR.maximumItemsPerContainer) items"
        case .duplicateKey: return "CBOR map with a duplicate key"
        case .invalidUTF8: return "CBOR text string that is not UTF-8"
        case .trailingBytes(let count): return "\(count.bytesPhrase) after the CBOR item"
        }
    }
}

extension Int {
    /// "1 byte", "2 bytes": counts in error messages.
    var bytesPhrase: String { self == 1 ? "1 byte" : "\(self) bytes" }
}

/// Decodes WebAuthn's CBOR.
enum CBOR {
    /// Deep enough for an attestation object (a map holding a map) and any extension WebAuthn
    /// defines; shallow enough that recursion can never exhaust the stack.
    static let maximumDepth = 8
    /// Far more than any WebAuthn map or array holds (a COSE key has five entries).
    static let maximumItemsPerContainer = 1024

    /// Decodes input that must be exactly one item.
    static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, byteCount) = try decodePrefix(bytes)
        guard byteCount == bytes.count else { throw .trailingBytes(count: bytes.count - byteCount) }
        return value
    }

    /// Decodes the item at the start of the input and says how many bytes it took, for formats
    /// that put other data after it (authenticator data holds a COSE key, then extensions).
    static func decodePrefix(_ bytes: [UInt8]) throws(CBORError) -> (value: CBORValue, byteCount: Int) {
        var reader = CBORReader(bytes: bytes)
        let value = try reader.readItem(depth: 1)
        return (value, reader.position)
    }
}

/// Walks the bytes once. Every length read from the input is compared with the bytes that remain
/// before it is used, so a declared length of 2^64 − 1 fails as `truncated` without a large
/// allocation or an overflowing sum.
private struct CBORReader {
    let bytes: [UInt8]
    private(set) var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var remaining: Int { bytes.count - position }

    mutating func readItem(depth: Int) throws(CBORError) -> CBORValue {
        let initial = try readByte()
        let majorType = initial >> 5
        let additional = initial & 0x1f
        if majorType == 7 { return try readSimple(additional) }
        let argument = try readArgument(additional)
        switch majorType {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try readBytes(argument))
        case 3: return .text(try readText(argument))
        case 4: return .array(try readArray(count: argument, depth: depth))
        case 5: return .map(try readMap(count: argument, depth: depth))
        default: throw .tag
        }
    }

    private mutating func readByte() throws(CBORError) -> UInt8 {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    /// The integer, length or count that follows the initial byte (RFC 8949 §3).
    private mutating func readArgument(_ additional: UInt8) throws(CBORError) -> UInt64 {
        switch additional {
        case 0...23: return UInt64(additional)
        case 24: return try readBigEndian(byteCount: 1)
        case 25: return try readBigEndian(byteCount: 2)
        case 26: return try readBigEndian(byteCount: 4)
        case 27: return try readBigEndian(byteCount: 8)
        case 28...30: throw .reservedAdditionalInformation
        default: throw .indefiniteLength
        }
    }

    private mutating func readBigEndian(byteCount: Int) throws(CBORError) -> UInt64 {
        guard byteCount <= remaining else { throw .truncated }
        var value: UInt64 = 0
        for _ in 0..<byteCount { value = value << 8 | UInt64(try readByte()) }
        return value
    }

    /// Major type 7. Floats are refused here too: WebAuthn has no use for them, and refusing them
    /// spares the question of which NaN equals which.
    private mutating func readSimple(_ additional: UInt8) throws(CBORError) -> CBORValue {
        switch additional {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 0...19: throw .unsupportedSimpleValue(additional)
        case 24: throw .unsupportedSimpleValue(try readByte())
        case 25...27: throw .floatingPoint
        case 28...30: throw .reservedAdditionalInformation
        default: throw .indefiniteLength
        }
    }

    /// Checks that `length` bytes are really there, then returns how many as an `Int`.
    private func availableLength(_ length: UInt64) throws(CBORError) -> Int {
        guard length <= UInt64(remaining) else { throw .truncated }
        return Int(length)
    }

    private mutating func readBytes(_ length: UInt64) throws(CBORError) -> [UInt8] {
        let count = try availableLength(length)
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    private mutating func readText(_ length: UInt64) throws(CBORError) -> String {
        let utf8 = try readBytes(length)
        guard let text = String(validating: utf8, as: UTF8.self) else { throw .invalidUTF8 }
        return text
    }

    /// Checks a container's declared count against the limits and against the bytes left, each
    /// item taking at least one byte, before anything is read or reserved.
    private func checkedCount(_ count: UInt64, bytesPerItem: UInt64, depth: Int) throws(CBORError) -> Int {
        guard depth <= CBOR.maximumDepth else { throw .tooDeep }
        guard count <= UInt64(CBOR.maximumItemsPerContainer) else { throw .tooManyItems }
        guard count * bytesPerItem <= UInt64(remaining) else { throw .truncated }
        return Int(count)
    }

    private mutating func readArray(count declared: UInt64, depth: Int) throws(CBORError) -> [CBORValue] {
        let count = try checkedCount(declared, bytesPerItem: 1, depth: depth)
        var items: [CBORValue] = []
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try readItem(depth: depth + 1)) }
        return items
    }

    private mutating func readMap(count declared: UInt64, depth: Int) throws(CBORError) -> CBORMap {
        let count = try checkedCount(declared, bytesPerItem: 2, depth: depth)
        var entries: [CBORMap.Entry] = []
        entries.reserveCapacity(count)
        var keys: Set<CBORValue> = []
        for _ in 0..<count {
            let key = try readItem(depth: depth + 1)
            guard keys.insert(key).inserted else { throw .duplicateKey }
            entries.append(CBORMap.Entry(key: key, value: try readItem(depth: depth + 1)))
        }
        return CBORMap(entries: entries)
    }
}
