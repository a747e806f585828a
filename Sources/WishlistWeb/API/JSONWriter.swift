import CivilTime
import Foundation

/// An answer of the API that writes itself as JSON (issue 54): its fields in the order it gives
/// them, which is their snake_case names sorted, as the answers have always been.
protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

/// JSON appended to bytes, with no reflection and no key conversion: Foundation's `JSONEncoder`
/// was a third of an API read's CPU. It writes what `APIResponse`'s former encoder wrote (keys
/// sorted and snake_cased, slashes unescaped, dates in ISO 8601 UTC, whole seconds), byte for
/// byte; `JSONWriterTests` compares the two for every answer.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next field of the open object follows another one, after a comma.
    private var afterField = false

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// `value`'s JSON.
    static func bytes(of value: some JSONWritable) -> [UInt8] {
        var json = JSONWriter()
        value.write(to: &json)
        return json.bytes
    }

    /// An object whose fields `fields` writes with ``field(_:_:)``, in order.
    mutating func object(_ fields: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        afterField = false
        fields(&self)
        bytes.append(UInt8(ascii: "}"))
    }

    /// `"key":value`; the key is written as given, already snake_cased.
    mutating func field(_ key: StaticString, _ value: some JSONWritable) {
        if afterField { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        value.write(to: &self)
        afterField = true
    }

    /// The field when there is a value; none at all for nil, as a synthesized `Encodable` leaves it out.
    mutating func fieldIfPresent(_ key: StaticString, _ value: (some JSONWritable)?) {
        if let value { field(key, value) }
    }

    mutating func array(_ elements: some Sequence<some JSONWritable>) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            element.write(to: &self)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A string escaped as `JSONEncoder` does with `.withoutEscapingSlashes`: the quote, the
    /// backslash and control characters; everything else, non-ASCII too, as it is.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        if text.utf8.allSatisfy(Self.isWrittenAsIs) {
            bytes.append(contentsOf: text.utf8)
        } else {
            escape(text)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func isWrittenAsIs(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    private mutating func escape(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case ..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(contentsOf: [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Text written as it is: `true`, `false`.
    mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(value.magnitude, width: 1)
    }

    /// `value` in decimal, zero-padded to `width` digits: the places are made, then filled from the right.
    private mutating func digits(_ value: UInt64, width: Int) {
        var count = 1
        var power: UInt64 = 10
        while count < 20, value >= power {
            count += 1
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        count = Swift.max(count, width)
        let end = bytes.count + count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var rest = value
        var index = end
        while rest > 0 {
            index -= 1
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// `2026-11-29T10:00:00Z`, as `.iso8601` writes it: UTC, the seconds rounded down. The app
    /// keeps no date before the year 1 (a year below it would print as 0000).
    mutating func date(_ date: Date) {
        let moment = CivilDateTime(date)
        bytes.append(UInt8(ascii: "\""))
        digits(UInt64(clamping: moment.year), width: 4)
        bytes.append(UInt8(ascii: "-"))
        digits(UInt64(moment.month), width: 2)
        bytes.append(UInt8(ascii: "-"))
        digits(UInt64(moment.day), width: 2)
        bytes.append(UInt8(ascii: "T"))
        digits(UInt64(moment.hour), width: 2)
        bytes.append(UInt8(ascii: ":"))
        digits(UInt64(moment.minute), width: 2)
        bytes.append(UInt8(ascii: ":"))
        digits(UInt64(moment.second), width: 2)
        literal("Z\"")
    }
}

extension String: JSONWritable {
    func write(to json: inout JSONWriter) { json.string(self) }
}

extension Int: JSONWritable {
    func write(to json: inout JSONWriter) { json.integer(Int64(self)) }
}

extension Int64: JSONWritable {
    func write(to json: inout JSONWriter) { json.integer(self) }
}

extension Bool: JSONWritable {
    func write(to json: inout JSONWriter) { json.literal(self ? "true" : "false") }
}

extension Date: JSONWritable {
    func write(to json: inout JSONWriter) { json.date(self) }
}

extension Array: JSONWritable where Element: JSONWritable {
    func write(to json: inout JSONWriter) { json.array(self) }
}
