import Foundation

/// Turns `Encodable` view models into ``TemplateValue``s.
///
/// Structs and other keyed values become dictionaries, arrays become arrays,
/// `Date` becomes `.date`, ``TrustedHTML`` becomes `.html`, `URL` becomes its
/// absolute string, `Decimal` a double, and a `nil` optional becomes `.null`
/// (its key is kept, unlike with `JSONEncoder`).
public struct TemplateValueEncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> TemplateValue {
        try EncodedValue.make(from: value, codingPath: []).value
    }
}

/// A value under construction. Containers are classes so that nested containers,
/// which Codable hands out before they are filled, can be filled later.
private enum EncodedValue {
    case finished(TemplateValue)
    case keyed(KeyedStorage)
    case unkeyed(UnkeyedStorage)
    /// A `superEncoder()` whose content is encoded after it is handed out.
    case deferred(ValueEncoder)

    var value: TemplateValue {
        switch self {
        case .finished(let value): value
        case .keyed(let storage): .dictionary(storage.entries.mapValues(\.value))
        case .unkeyed(let storage): .array(storage.elements.map(\.value))
        case .deferred(let encoder): encoder.result?.value ?? .null
        }
    }

    static func make<T: Encodable>(from value: T, codingPath: [any CodingKey]) throws -> EncodedValue {
        switch value {
        case let date as Date: return .finished(.date(date))
        case let html as TrustedHTML: return .finished(.html(html))
        case let url as URL: return .finished(.string(url.absoluteString))
        case let decimal as Decimal: return .finished(.double(NSDecimalNumber(decimal: decimal).doubleValue))
        default:
            let encoder = ValueEncoder(codingPath: codingPath)
            try value.encode(to: encoder)
            return encoder.result ?? .finished(.null)
        }
    }

    static func integer(_ value: some BinaryInteger) -> EncodedValue {
        .finished(Int(exactly: value).map(TemplateValue.int) ?? .double(Double(value)))
    }
}

private final class KeyedStorage {
    var entries: [String: EncodedValue] = [:]
}

private final class UnkeyedStorage {
    var elements: [EncodedValue] = []
}

private final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]
    var result: EncodedValue?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let storage: KeyedStorage
        if case .keyed(let existing) = result {
            storage = existing
        } else {
            storage = KeyedStorage()
            result = .keyed(storage)
        }
        return KeyedEncodingContainer(KeyedContainer(storage: storage, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let storage: UnkeyedStorage
        if case .unkeyed(let existing) = result {
            storage = existing
        } else {
            storage = UnkeyedStorage()
            result = .unkeyed(storage)
        }
        return UnkeyedContainer(storage: storage, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: KeyedStorage
    let codingPath: [any CodingKey]

    private func set(_ value: EncodedValue, _ key: Key) {
        storage.entries[key.stringValue] = value
    }

    mutating func encodeNil(forKey key: Key) throws { set(.finished(.null), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.finished(.bool(value)), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.finished(.string(value)), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.finished(.double(value)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(.finished(.double(Double(value))), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.integer(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try .make(from: value, codingPath: codingPath + [key]), key)
    }

    // Synthesized Codable skips nil optionals; templates should see the key as null instead.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value {
            try encode(value, forKey: key)
        } else {
            try encodeNil(forKey: key)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = KeyedStorage()
        set(.keyed(nested), key)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(storage: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = UnkeyedStorage()
        set(.unkeyed(nested), key)
        return UnkeyedContainer(storage: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue)
    }

    private func superEncoder(named name: String) -> any Encoder {
        let encoder = ValueEncoder(codingPath: codingPath)
        storage.entries[name] = .deferred(encoder)
        return encoder
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let storage: UnkeyedStorage
    let codingPath: [any CodingKey]

    var count: Int { storage.elements.count }

    private func append(_ value: EncodedValue) {
        storage.elements.append(value)
    }

    /// The coding key of the next element, as Codable error messages expect.
    private var nextKey: IndexKey { IndexKey(intValue: count) }

    mutating func encodeNil() throws { append(.finished(.null)) }
    mutating func encode(_ value: Bool) throws { append(.finished(.bool(value))) }
    mutating func encode(_ value: String) throws { append(.finished(.string(value))) }
    mutating func encode(_ value: Double) throws { append(.finished(.double(value))) }
    mutating func encode(_ value: Float) throws { append(.finished(.double(Double(value)))) }
    mutating func encode(_ value: Int) throws { append(.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(.integer(value)) }
    mutating func encode(_ value: Int16) throws { append(.integer(value)) }
    mutating func encode(_ value: Int32) throws { append(.integer(value)) }
    mutating func encode(_ value: Int64) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt16) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt32) throws { append(.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try .make(from: value, codingPath: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = KeyedStorage()
        let path = codingPath + [nextKey]
        append(.keyed(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(storage: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = UnkeyedStorage()
        let path = codingPath + [nextKey]
        append(.unkeyed(nested))
        return UnkeyedContainer(storage: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = ValueEncoder(codingPath: codingPath + [nextKey])
        append(.deferred(encoder))
        return encoder
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: EncodedValue) {
        encoder.result = value
    }

    mutating func encodeNil() throws { set(.finished(.null)) }
    mutating func encode(_ value: Bool) throws { set(.finished(.bool(value))) }
    mutating func encode(_ value: String) throws { set(.finished(.string(value))) }
    mutating func encode(_ value: Double) throws { set(.finished(.double(value))) }
    mutating func encode(_ value: Float) throws { set(.finished(.double(Double(value)))) }
    mutating func encode(_ value: Int) throws { set(.integer(value)) }
    mutating func encode(_ value: Int8) throws { set(.integer(value)) }
    mutating func encode(_ value: Int16) throws { set(.integer(value)) }
    mutating func encode(_ value: Int32) throws { set(.integer(value)) }
    mutating func encode(_ value: Int64) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt16) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt32) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt64) throws { set(.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        set(try .make(from: value, codingPath: codingPath))
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }

    init(intValue: Int) {
        self.intValue = intValue
    }

    init?(stringValue: String) {
        guard let index = Int(stringValue) else { return nil }
        self.intValue = index
    }
}
