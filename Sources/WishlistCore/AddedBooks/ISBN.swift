/// An ISBN as a person types it: 10 or 13 digits (the ISBN-10's last may be X), with any hyphens
/// and spaces, and a check digit that must agree. Kept as the ISBN-13, the form the NYT's lists
/// carry as a book's id, so a book added here and the same book on a list later are one record.
public struct ISBN: Sendable, Hashable, CustomStringConvertible {
    /// Thirteen digits.
    public let isbn13: String

    /// Why typed text is no ISBN; the web layer words each.
    public enum Problem: Error, Equatable, Sendable {
        /// Not 10 or 13 characters once hyphens and spaces are gone, or a letter where a digit goes.
        case malformed
        /// The right shape, but a digit is mistyped: the check digit disagrees.
        case checkDigit
    }

    public init(_ typed: String) throws(Problem) {
        guard let characters = Self.significant(typed) else { throw .malformed }
        switch characters.count {
        case 10: isbn13 = try Self.isbn13(fromISBN10: characters)
        case 13:
            guard characters.allSatisfy(\.isASCIIDigit) else { throw .malformed }
            let digits = characters.map(\.digitValue)
            guard Self.ean13CheckDigit(digits.prefix(12)) == digits[12] else { throw .checkDigit }
            isbn13 = String(decoding: characters, as: UTF8.self)
        default: throw .malformed
        }
    }

    /// The typed characters that can belong to an ISBN, as ASCII, hyphens and spaces left out and
    /// x read as X; nil when any other is there, which no ISBN has. Read scalar by scalar rather
    /// than as Characters: an import parses two for every book it adds (issue 58).
    private static func significant(_ typed: String) -> [UInt8]? {
        var characters: [UInt8] = []
        characters.reserveCapacity(13)
        for scalar in typed.unicodeScalars {
            switch scalar {
            case "-", " ", "\u{2010}", "\u{2011}": continue
            case "0"..."9", "X": characters.append(UInt8(scalar.value))
            case "x": characters.append(UInt8(ascii: "X"))
            default: return nil
            }
        }
        return characters
    }

    /// The ISBN of a book's barcode: an EAN-13 is a book's only when it starts with 978 or 979
    /// (the prefixes GS1 gave books) and its check digit holds; any other EAN is another product's.
    public init?(barcode digits: String) {
        guard digits.utf8.count == 13, digits.hasPrefix("978") || digits.hasPrefix("979"), let isbn = try? ISBN(digits) else { return nil }
        self = isbn
    }

    /// The ISBN-10 of a 978 ISBN-13 (979 ones have none).
    public var isbn10: String? {
        guard isbn13.hasPrefix("978") else { return nil }
        let body = Array(isbn13.dropFirst(3).prefix(9)).map(\.digitValue)
        let sum = body.enumerated().reduce(0) { $0 + (10 - $1.offset) * $1.element }
        let check = (11 - sum % 11) % 11
        return String(isbn13.dropFirst(3).prefix(9)) + (check == 10 ? "X" : String(check))
    }

    public var description: String { isbn13 }

    private static func isbn13(fromISBN10 characters: [UInt8]) throws(Problem) -> String {
        guard characters.prefix(9).allSatisfy(\.isASCIIDigit) else { throw .malformed }
        let values = characters.map { $0 == UInt8(ascii: "X") ? 10 : $0.digitValue }
        let sum = values.enumerated().reduce(0) { $0 + (10 - $1.offset) * $1.element }
        guard sum % 11 == 0 else { throw .checkDigit }
        let digits = [9, 7, 8] + values.prefix(9)
        return (digits + [ean13CheckDigit(digits[...])]).map(String.init).joined()
    }

    /// Weights 1 and 3 alternately; the check digit brings the sum to a multiple of 10.
    private static func ean13CheckDigit(_ digits: ArraySlice<Int>) -> Int {
        let sum = digits.enumerated().reduce(0) { $0 + ($1.offset % 2 == 0 ? 1 : 3) * $1.element }
        return (10 - sum % 10) % 10
    }
}

private extension Character {
    /// 0 to 9 for an ASCII digit; only called on characters checked to be one.
    var digitValue: Int { Int(asciiValue! - 48) }
}

private extension UInt8 {
    var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    /// 0 to 9 for an ASCII digit; only called on characters checked to be one.
    var digitValue: Int { Int(self - UInt8(ascii: "0")) }
}
