import NIOCore
import WishlistLanguages

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The parts of a `multipart/form-data` body (RFC 7578), split once on arrival.
///
/// The body is read where it lies and each part's content is a slice of it, sharing its storage:
/// an 8 MB picture is held once, by the request, while it waits its turn in the picture
/// processor, not once more as an array of its own (issue 34).
public struct MultipartForm: Sendable {
    /// One field or file of the form.
    public struct Part: Sendable, Equatable {
        public let name: String
        /// The file's name as the browser sent it ("" when a file input was left empty); nil for a plain field.
        public let filename: String?
        /// The part's Content-Type header as sent, if any.
        public let contentType: String?
        /// A slice of the request's body: no bytes of its own.
        public let body: ByteBuffer

        public init(name: String, filename: String?, contentType: String?, body: ByteBuffer) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.body = body
        }
    }

    /// Why a body could not be read: `sentence` is the catalog's key (English) of what the page
    /// says, in the reader's language (issue 53), its placeholders filled by `values`.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case notMultipartFormData
        case missingBoundary
        case invalidBoundary
        case noClosingDelimiter
        case malformedPartHeader
        case partWithoutName
        case headerSectionTooLarge
        case tooManyParts

        var sentence: String {
            switch self {
            case .notMultipartFormData:
                Translations.marked("The form was not sent as a file upload. Reload the page and try again.")
            case .missingBoundary, .invalidBoundary:
                Translations.marked("The upload was garbled on its way here (its boundary is missing or invalid). Reload the page and try again.")
            case .noClosingDelimiter:
                Translations.marked("The upload was cut short before its end. Try uploading the file again.")
            case .malformedPartHeader:
                Translations.marked("The upload was garbled on its way here (a part has an unreadable header). Reload the page and try again.")
            case .partWithoutName:
                Translations.marked("The upload has a part without a field name. Reload the page and try again.")
            case .headerSectionTooLarge:
                Translations.marked("The upload has a part whose headers are over {size} KiB. Reload the page and try again.")
            case .tooManyParts:
                Translations.marked("The upload has more than {maximum} parts. Reload the page and try again.")
            }
        }

        /// The sentence's placeholders: small numbers, written alike in every language.
        var values: [String: String] {
            switch self {
            case .headerSectionTooLarge: ["size": String(MultipartForm.maximumHeaderBytes / 1024)]
            case .tooManyParts: ["maximum": String(MultipartForm.maximumParts)]
            default: [:]
            }
        }

        /// The sentence in English, for the log and the tests.
        public var message: String { Translations().text(sentence, values: values) }

        public var description: String { message }
    }

    /// More parts than this are refused: our forms have a handful, so more is not a browser.
    public static let maximumParts = 20
    /// The most bytes one part's header section (its header lines and their CRLFs) may take.
    public static let maximumHeaderBytes = 8 * 1024

    public let parts: [Part]

    /// `contentType` is the request's Content-Type header (must be multipart/form-data with a
    /// boundary parameter, quoted or not, 1–70 chars).
    public init(body: ByteBuffer, contentType: String) throws {
        let boundary = try Self.boundary(fromContentType: contentType)
        let sections = try body.withUnsafeReadableBytes { bytes in
            try MultipartBodyParser(body: bytes, boundary: boundary).parts()
        }
        // A section lies within the readable bytes the parser was given, so its slice exists.
        parts = sections.map { section in
            Part(
                name: section.name, filename: section.filename, contentType: section.contentType,
                body: body.getSlice(at: body.readerIndex + section.content.lowerBound, length: section.content.count)!
            )
        }
    }

    /// The text of a field (UTF-8; nil if absent or not valid UTF-8). Files are not fields.
    public func text(_ name: String) -> String? {
        guard let part = parts.first(where: { $0.name == name && $0.filename == nil }) else { return nil }
        return String(validating: part.body.readableBytesView, as: UTF8.self)
    }

    /// The first part named `name` that carries a filename.
    public func file(_ name: String) -> Part? {
        parts.first { $0.name == name && $0.filename != nil }
    }

    private static func boundary(fromContentType contentType: String) throws(Error) -> [UInt8] {
        let header = HeaderValueWithParameters(contentType)
        guard header.value == "multipart/form-data" else { throw .notMultipartFormData }
        guard let parameters = header.parameters else { throw .invalidBoundary }
        guard let boundary = parameters["boundary"] else { throw .missingBoundary }
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count), bytes.allSatisfy(isBoundaryByte), bytes.last != UInt8(ascii: " ") else {
            throw .invalidBoundary
        }
        return bytes
    }

    private static let boundaryPunctuation = Set("'()+_,-./:=? ".utf8)

    /// RFC 2046 `bchars`: letters, digits and `'()+_,-./:=? ` (space).
    private static func isBoundaryByte(_ byte: UInt8) -> Bool {
        byte.isASCIILetter || byte.isASCIIDigit || boundaryPunctuation.contains(byte)
    }
}

/// Walks a multipart body from delimiter to delimiter.
///
/// A part ends right before CRLF "--" boundary, and only where that is followed by "--" (the
/// close delimiter) or optional spaces and CRLF: boundary-like bytes anywhere else are content.
///
/// It reads the body through a pointer that is only valid while `ByteBuffer.withUnsafeReadableBytes`
/// runs, so it hands back where each part's content is, never the bytes.
private struct MultipartBodyParser {
    private typealias Header = (name: String, value: String)

    /// A part's headers, read, and where its content lies in the body.
    struct Section {
        let name: String
        let filename: String?
        let contentType: String?
        let content: Range<Int>
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]
    private static let dashes: [UInt8] = [UInt8(ascii: "-"), UInt8(ascii: "-")]

    private let body: UnsafeRawBufferPointer
    /// "--" + boundary, which opens the body when there is no preamble.
    private let dashBoundary: [UInt8]
    /// CRLF "--" boundary, which ends every part.
    private let delimiter: [UInt8]

    init(body: UnsafeRawBufferPointer, boundary: [UInt8]) {
        self.body = body
        dashBoundary = Self.dashes + boundary
        delimiter = Self.crlf + dashBoundary
    }

    func parts() throws(MultipartForm.Error) -> [Section] {
        var position = try openingDelimiterEnd()
        var parts: [Section] = []
        while !body[position...].starts(with: Self.dashes) {
            position = afterTransportPadding(position) + Self.crlf.count
            guard parts.count < MultipartForm.maximumParts else { throw .tooManyParts }
            let (headers, bodyStart) = try headerSection(from: position)
            let bodyEnd = try delimiterStart(from: bodyStart)
            parts.append(try Self.section(headers: headers, content: bodyStart..<bodyEnd))
            position = bodyEnd + delimiter.count
        }
        return parts
    }

    /// Where the first delimiter ends, after any preamble (which RFC 2046 says to ignore).
    private func openingDelimiterEnd() throws(MultipartForm.Error) -> Int {
        if body.starts(with: dashBoundary), endsDelimiter(at: dashBoundary.count) {
            return dashBoundary.count
        }
        return try delimiterStart(from: 0) + delimiter.count
    }

    /// The start of the next CRLF "--" boundary at or after `start` that really is a delimiter.
    private func delimiterStart(from start: Int) throws(MultipartForm.Error) -> Int {
        var searchStart = start
        while let found = firstIndex(of: delimiter, in: searchStart..<body.count) {
            if endsDelimiter(at: found + delimiter.count) { return found }
            searchStart = found + 1
        }
        throw .noClosingDelimiter
    }

    /// Whether a boundary ending at `position` is followed by "--" or by spaces and CRLF.
    private func endsDelimiter(at position: Int) -> Bool {
        body[position...].starts(with: Self.dashes) || body[afterTransportPadding(position)...].starts(with: Self.crlf)
    }

    /// RFC 2046 lets senders put spaces and tabs between a boundary and its CRLF.
    private func afterTransportPadding(_ position: Int) -> Int {
        body[position...].firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? body.endIndex
    }

    /// The header lines of the part starting at `start`, and where its body begins.
    private func headerSection(from start: Int) throws(MultipartForm.Error) -> (headers: [Header], bodyStart: Int) {
        if body[start...].starts(with: Self.crlf) { return ([], start + Self.crlf.count) }
        // Only look one blank line's worth past the limit, so an endless header costs no more than that.
        let windowEnd = min(body.count, start + MultipartForm.maximumHeaderBytes + 2 * Self.crlf.count)
        guard let end = firstIndex(of: Self.crlf + Self.crlf, in: start..<windowEnd) else {
            throw windowEnd < body.count ? .headerSectionTooLarge : .noClosingDelimiter
        }
        guard end + Self.crlf.count - start <= MultipartForm.maximumHeaderBytes else { throw .headerSectionTooLarge }
        var headers: [Header] = []
        for line in body[start..<end].split(separator: Self.crlf, omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { throw .malformedPartHeader }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingHTTPWhitespace
            headers.append((name, value))
        }
        return (headers, end + 2 * Self.crlf.count)
    }

    /// Where `pattern` first starts within `range` of the body. Jumps between occurrences of its
    /// first byte with `memchr`, far faster than a general subsequence search, and in a debug
    /// build as in a release one (8 MB of a picture, read through a raw pointer).
    private func firstIndex(of pattern: [UInt8], in range: Range<Int>) -> Int? {
        let lastStart = range.upperBound - pattern.count
        guard let start = body.baseAddress else { return nil }
        var candidate = range.lowerBound
        while candidate <= lastStart, let found = memchr(start + candidate, Int32(pattern[0]), lastStart - candidate + 1) {
            if memcmp(found, pattern, pattern.count) == 0 { return start.distance(to: found) }
            candidate = start.distance(to: found) + 1
        }
        return nil
    }

    private static func section(headers: [Header], content: Range<Int>) throws(MultipartForm.Error) -> Section {
        guard let dispositionText = headers.first(where: { $0.name == "content-disposition" })?.value else {
            throw .partWithoutName
        }
        let disposition = HeaderValueWithParameters(dispositionText)
        guard let parameters = disposition.parameters else { throw .malformedPartHeader }
        guard disposition.value == "form-data", let name = parameters["name"] else { throw .partWithoutName }
        return Section(
            name: name,
            filename: parameters["filename"],
            contentType: headers.first(where: { $0.name == "content-type" })?.value,
            content: content
        )
    }
}

/// A header value of the form `value; name=token; name="quoted string"` (Content-Type,
/// Content-Disposition): the value lowercased, parameter names lowercased, the first of a name kept.
private struct HeaderValueWithParameters {
    let value: String
    /// Nil when the parameters cannot be read: one has no `=`, or a quoted string is not closed.
    let parameters: [String: String]?

    init(_ text: String) {
        let scalars = Substring(text).unicodeScalars
        value = String(scalars.prefix(while: { $0 != ";" })).trimmingHTTPWhitespace.lowercased()
        parameters = Self.parameters(scalars.drop(while: { $0 != ";" }))
    }

    private static func parameters(_ text: Substring.UnicodeScalarView) -> [String: String]? {
        var scanner = text
        var parameters: [String: String] = [:]
        while scanner.first == ";" {
            scanner.removeFirst()
            let nameText = String(scanner.prefix(while: { $0 != "=" && $0 != ";" }))
            scanner = scanner.dropFirst(nameText.unicodeScalars.count)
            let name = nameText.trimmingHTTPWhitespace.lowercased()
            guard scanner.first == "=" else {
                // An empty segment, as in a trailing ";", is harmless; a bare word is not.
                if name.isEmpty { continue }
                return nil
            }
            scanner.removeFirst()
            scanner = scanner.drop(while: { $0 == " " || $0 == "\t" })
            let parameterValue: String
            if scanner.first == "\"" {
                guard let (quoted, rest) = quotedString(scanner.dropFirst()) else { return nil }
                parameterValue = quoted
                scanner = rest.drop(while: { $0 == " " || $0 == "\t" })
                guard scanner.isEmpty || scanner.first == ";" else { return nil }
            } else {
                parameterValue = String(scanner.prefix(while: { $0 != ";" })).trimmingHTTPWhitespace
                scanner = scanner.drop(while: { $0 != ";" })
            }
            if !name.isEmpty, parameters[name] == nil { parameters[name] = parameterValue }
        }
        return parameters
    }

    /// Reads up to the closing quote. Only `\"` and `\\` are escapes: browsers send other
    /// backslashes as they are (old ones even send Windows paths like `C:\fakepath\a.csv`).
    private static func quotedString(
        _ scalars: Substring.UnicodeScalarView
    ) -> (String, Substring.UnicodeScalarView)? {
        var result = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar == "\"" { return (String(result), scalars[next...]) }
            if scalar == "\\", next != scalars.endIndex, scalars[next] == "\"" || scalars[next] == "\\" {
                result.append(scalars[next])
                index = scalars.index(after: next)
            } else {
                result.append(scalar)
                index = next
            }
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate var trimmingHTTPWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[first...last])
    }
}
