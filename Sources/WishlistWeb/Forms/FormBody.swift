import Hummingbird
import NIOCore
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The fields of an `application/x-www-form-urlencoded` body, checked once on arrival: valid
/// UTF-8, no control characters other than tab and line breaks, each field at most once but
/// those a form of checkboxes repeats (``repeatable``).
public struct FormBody: Sendable {
    /// Bodies over this many bytes are refused with 413, but those of the routes that take a file
    /// (``Route/Body/upload(_:)``).
    public static let maximumBytes = 64 * 1024
    /// The fields a form may send several times: `list`, the lists a want is on (issue 51).
    static let repeatable: Set<String> = ["list"]

    private var fields: [String: String] = [:]
    private var repeated: [String: [String]] = [:]

    public init() {}

    /// Parses a body; every problem is a 400 page that names it.
    public init(parsing body: ByteBuffer) throws {
        try self.init(encoded: body.readableBytesView)
    }

    private init(encoded: some Collection<UInt8>) throws {
        for pair in encoded.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            if Self.repeatable.contains(name) {
                repeated[name, default: []].append(value)
                fields[name] = fields[name] ?? value
                continue
            }
            guard fields.updateValue(value, forKey: name) == nil else {
                throw PageError.badRequest(
                    Translations.marked("The form sent the field “{field}” more than once. Reload the page and try again."),
                    values: ["field": String(name.prefix(40))]
                )
            }
        }
    }

    /// The plain fields of a multipart upload (a child's profile sends her name beside her
    /// picture), checked as a URL-encoded form's are; each name appears once (``CSRFMiddleware``).
    init(multipart: MultipartForm) throws {
        for part in multipart.parts where part.filename == nil {
            fields[part.name] = try Self.checked(Array(part.body.readableBytesView))
        }
    }

    /// The query string of a URL, read by the same rules as a form (`+` is a space).
    public init(query: String?) throws {
        // Read in place: a page with a query parses it on every request.
        try self.init(encoded: (query ?? "").utf8)
    }

    /// The field's text ("" when absent), refused with 400 when longer than `maxLength` characters.
    public func text(_ name: String, maxLength: Int = 200) throws -> String {
        guard let value = fields[name] else { return "" }
        guard repeated[name, default: []].count <= 1 else {
            throw PageError.badRequest(
                Translations.marked("The form sent the field “{field}” more than once. Reload the page and try again."),
                values: ["field": String(name.prefix(40))]
            )
        }
        guard value.count <= maxLength else {
            throw PageError.badRequest(
                Translations.marked("The field “{field}” is longer than {maximum} characters. Shorten it and try again."),
                values: ["field": String(name), "maximum": String(maxLength)]
            )
        }
        return value
    }

    /// Every value of a repeatable field, in the order sent (none when absent), each refused with
    /// 400 when longer than `maxLength` characters, and the lot when more than `maxCount`.
    public func values(_ name: String, maxLength: Int = 200, maxCount: Int = 1000) throws -> [String] {
        let values = repeated[name] ?? []
        guard values.count <= maxCount, values.allSatisfy({ $0.count <= maxLength }) else {
            throw PageError.badRequest(
                Translations.marked("The form sent more in “{field}” than it ever holds. Reload the page and try again."),
                values: ["field": String(name.prefix(40))]
            )
        }
        return values
    }

    /// A checkbox sent as `value="yes"`: ticked, or absent; anything else is a form that was
    /// changed on its way here (a 400).
    public func checkbox(_ name: String) throws -> Bool {
        switch try text(name, maxLength: 10) {
        case "": return false
        case "yes": return true
        default: throw PageError.badRequest(Translations.marked("The form sent “{field}” with a value its checkbox never has. Reload the page and try again."), values: ["field": String(name)])
        }
    }

        /// Decodes `+` and `%XX`, then checks the result is text a person could have typed.
    private static func decode(_ encoded: some Collection<UInt8>) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index != encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                let high = encoded.index(after: index)
                guard high != encoded.endIndex, encoded.index(after: high) != encoded.endIndex,
                      let value = hexValue(encoded[high], encoded[encoded.index(after: high)])
                else {
                    throw PageError.badRequest(Translations.marked("The form was garbled on its way here (a broken %-escape). Reload the page and try again."))
                }
                bytes.append(value)
                index = encoded.index(after: high)
            } else {
                bytes.append(byte)
            }
            index = encoded.index(after: index)
        }
        return try checked(bytes)
    }

    /// The decoded bytes as text a person could have typed.
    private static func checked(_ bytes: [UInt8]) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PageError.badRequest(Translations.marked("The form contained bytes that aren’t valid UTF-8 text. Retype the text and try again."))
        }
        if text.unicodeScalars.contains(where: \.isForbiddenControlCharacter) {
            throw PageError.badRequest(Translations.marked("The form contained control characters (such as NUL) that can’t be stored. Retype the text and try again."))
        }
        return text
    }

    private static func hexValue(_ high: UInt8, _ low: UInt8) -> UInt8? {
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        guard let high = nibble(high), let low = nibble(low) else { return nil }
        return high << 4 | low
    }
}

extension Request {
    /// The query parameter `name`, trimmed; a value over 200 characters or one that is not text
    /// is a 400.
    func queryText(_ name: String) throws -> String {
        // Most page requests carry no query: nothing to parse.
        guard let query = uri.query, !query.isEmpty else { return "" }
        let value = try FormBody(query: query).text(name, maxLength: 200)
        return value.isEmpty ? value : value.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
