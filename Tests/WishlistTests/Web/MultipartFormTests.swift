import NIOCore
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("multipart/form-data uploads")
struct MultipartFormTests {
    private static let boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
    private static let contentType = "multipart/form-data; boundary=" + boundary

    /// A body as a browser lays it out: each part opened by CRLF--boundary (no CRLF before the
    /// first), headers, a blank line, the content, and a closing --boundary-- CRLF.
    private static func body(
        boundary: String = boundary, parts: [(headers: [String], content: [UInt8])],
        preamble: String = "", epilogue: String = ""
    ) -> [UInt8] {
        var bytes = Array(preamble.utf8)
        for (index, part) in parts.enumerated() {
            bytes += Array(((index == 0 && preamble.isEmpty ? "" : "\r\n") + "--\(boundary)\r\n").utf8)
            for header in part.headers { bytes += Array((header + "\r\n").utf8) }
            bytes += Array("\r\n".utf8)
            bytes += part.content
        }
        bytes += Array("\r\n--\(boundary)--\r\n\(epilogue)".utf8)
        return bytes
    }

    private static func field(_ name: String, _ value: String) -> (headers: [String], content: [UInt8]) {
        (["Content-Disposition: form-data; name=\"\(name)\""], Array(value.utf8))
    }

    private static func error(body: [UInt8], contentType: String = contentType) -> MultipartForm.Error? {
        do {
            _ = try MultipartForm(body: ByteBuffer(bytes: body), contentType: contentType)
            return nil
        } catch let error as MultipartForm.Error {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func browserUploadWithCSRFTokenAndFile() throws {
        let csv = Array("Title,Author\r\n\"Dune\",Frank Herbert\r\n".utf8)
        let body = Self.body(parts: [
            Self.field("csrf_token", "k3J9-token_value"),
            (["Content-Disposition: form-data; name=\"csv\"; filename=\"goodreads_library_export.csv\"", "Content-Type: text/csv"], csv),
        ])
        let form = try MultipartForm(body: ByteBuffer(bytes: body), contentType: Self.contentType)
        #expect(form.parts.count == 2)
        #expect(form.text("csrf_token") == "k3J9-token_value")
        let file = try #require(form.file("csv"))
        #expect(file == MultipartForm.Part(name: "csv", filename: "goodreads_library_export.csv", contentType: "text/csv", body: ByteBuffer(bytes: csv)))
        #expect(form.text("csv") == nil, "a file is not a text field")
        #expect(form.file("csrf_token") == nil, "a text field is not a file")
        #expect(form.text("missing") == nil)
    }

    @Test func emptyFileInputHasAnEmptyFilenameAndBody() throws {
        let body = Self.body(parts: [
            (["Content-Disposition: form-data; name=\"csv\"; filename=\"\"", "Content-Type: application/octet-stream"], []),
        ])
        let file = try #require(MultipartForm(body: ByteBuffer(bytes: body), contentType: Self.contentType).file("csv"))
        #expect(file.filename == "")
        #expect(file.body.readableBytes == 0)
    }

    @Test("Boundaries are read quoted or not, whatever the parameter's case and place", arguments: [
        ("multipart/form-data; boundary=simple", "simple"),
        ("multipart/form-data; boundary=\"simple\"", "simple"),
        ("Multipart/Form-Data; charset=utf-8; BOUNDARY=\"with space:and=equals?\"", "with space:and=equals?"),
        ("multipart/form-data;boundary=\(String(repeating: "b", count: 70))", String(repeating: "b", count: 70)),
        ("multipart/form-data ; boundary = x ; charset=utf-8", "x"),
    ])
    func boundaries(contentType: String, boundary: String) throws {
        let body = Self.body(boundary: boundary, parts: [Self.field("a", "1"), Self.field("b", "2")])
        let form = try MultipartForm(body: ByteBuffer(bytes: body), contentType: contentType)
        #expect(form.text("a") == "1")
        #expect(form.text("b") == "2")
    }

    @Test func boundaryLookalikesInsideAFileAreContent() throws {
        let b = Self.boundary
        let content = Array("--\(b)\r\nstarts like a delimiter without CRLF before it\n--\(b)\nafter a bare LF\r\nmid-line --\(b)--\r\n--\(b)x and a longer boundary".utf8)
        let body = Self.body(parts: [
            (["content-disposition: form-data; name=\"csv\"; filename=\"tricky.csv\""], content),
            Self.field("after", "still found"),
        ])
        let form = try MultipartForm(body: ByteBuffer(bytes: body), contentType: Self.contentType)
        #expect(form.file("csv")?.body == ByteBuffer(bytes: content))
        #expect(form.text("after") == "still found")
    }

    @Test func preambleEpilogueAndTransportPaddingAreIgnored() throws {
        let body = Array("This is a preamble.\r\n--XYZ  \t\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n--XYZ--\r\nThis is an epilogue.".utf8)
        let form = try MultipartForm(body: ByteBuffer(bytes: body), contentType: "multipart/form-data; boundary=XYZ")
        #expect(form.parts == [MultipartForm.Part(name: "a", filename: nil, contentType: nil, body: ByteBuffer(string: "value"))])
    }

    @Test func headerNamesAreCaseInsensitiveAndParametersMayBeEscaped() throws {
        let body = Self.body(parts: [
            (["CONTENT-TYPE:text/plain", "content-DISPOSITION:Form-Data;filename=\"C:\\fakepath\\say \\\"hi\\\".csv\";NAME=upload"], Array("x".utf8)),
        ])
        let part = try #require(MultipartForm(body: ByteBuffer(bytes: body), contentType: Self.contentType).parts.first)
        #expect(part.name == "upload")
        #expect(part.filename == "C:\\fakepath\\say \"hi\".csv")
        #expect(part.contentType == "text/plain")
    }

    @Test func textMustBeValidUTF8() throws {
        let body = Self.body(parts: [(["Content-Disposition: form-data; name=\"bad\""], [0x66, 0xFF, 0x6F]), Self.field("good", "héllo ✓")])
        let form = try MultipartForm(body: ByteBuffer(bytes: body), contentType: Self.contentType)
        #expect(form.text("bad") == nil)
        #expect(form.text("good") == "héllo ✓")
    }

    /// An 8 MB picture is read where it lies: its part is the body's own bytes, exact to the byte,
    /// not a copy that a waiting upload would hold as well (issue 34); and so from a buffer whose
    /// first bytes were read already.
    @Test func aLargeFileIsASliceOfTheBodyExactToTheByte() throws {
        // Bytes 0 to 250 over and over, CRs and LFs among them, then a delimiter that is not one ("x" follows it).
        let content = (0..<PictureProcessor.maximumBytes).map { UInt8(truncatingIfNeeded: $0 % 251) }
            + Array("\r\n--\(Self.boundary)x".utf8)
        let alreadyRead = "bytes read before the form"
        var body = ByteBuffer(string: alreadyRead)
        body.writeBytes(Self.body(parts: [
            Self.field("csrf_token", "k3J9"),
            (["Content-Disposition: form-data; name=\"picture\"; filename=\"camera.jpg\"", "Content-Type: image/jpeg"], content),
        ]))
        body.moveReaderIndex(forwardBy: alreadyRead.utf8.count)
        let form = try MultipartForm(body: body, contentType: Self.contentType)
        #expect(form.text("csrf_token") == "k3J9")
        let file = try #require(form.file("picture"))
        #expect(file.body == ByteBuffer(bytes: content))
        let closeDelimiter = "\r\n--\(Self.boundary)--\r\n".utf8.count
        body.withUnsafeReadableBytes { whole in
            file.body.withUnsafeReadableBytes { part in
                #expect(part.baseAddress == whole.baseAddress! + (whole.count - closeDelimiter - content.count), "the body's own bytes")
            }
        }
    }

    @Test func twentyPartsAreAllowed() throws {
        let parts = (1...20).map { Self.field("f\($0)", "\($0)") }
        #expect(try MultipartForm(body: ByteBuffer(bytes: Self.body(parts: parts)), contentType: Self.contentType).parts.count == 20)
    }

    // MARK: Errors

    @Test("Content types that are not multipart/form-data with a usable boundary", arguments: [
        ("application/x-www-form-urlencoded", MultipartForm.Error.notMultipartFormData),
        ("multipart/mixed; boundary=x", .notMultipartFormData),
        ("multipart/form-data", .missingBoundary),
        ("multipart/form-data; charset=utf-8", .missingBoundary),
        ("multipart/form-data; boundary=\"\"", .invalidBoundary),
        ("multipart/form-data; boundary=\(String(repeating: "b", count: 71))", .invalidBoundary),
        ("multipart/form-data; boundary=\"a@b\"", .invalidBoundary),
        ("multipart/form-data; boundary=\"trailing \"", .invalidBoundary),
        ("multipart/form-data; boundary=\"unclosed", .invalidBoundary),
        ("multipart/form-data; boundary", .invalidBoundary),
    ])
    func badContentTypes(contentType: String, expected: MultipartForm.Error) {
        #expect(Self.error(body: Self.body(parts: [Self.field("a", "1")]), contentType: contentType) == expected)
    }

    @Test func bodiesWithoutAClosingDelimiter() {
        let complete = Self.body(parts: [Self.field("a", "1")])
        #expect(Self.error(body: Array(complete.dropLast(4))) == .noClosingDelimiter, "cut off inside the close delimiter")
        #expect(Self.error(body: Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1".utf8)) == .noClosingDelimiter)
        #expect(Self.error(body: Array("--\(Self.boundary)\r\nContent-Disposition: form-data".utf8)) == .noClosingDelimiter, "cut off in the headers")
        #expect(Self.error(body: Array("no delimiter anywhere".utf8)) == .noClosingDelimiter)
        #expect(Self.error(body: []) == .noClosingDelimiter)
    }

    @Test("Parts without a form-data name", arguments: [
        ["Content-Type: text/plain"],
        ["Content-Disposition: attachment; name=\"a\""],
        ["Content-Disposition: form-data; filename=\"a.csv\""],
        [],
    ])
    func partsWithoutName(headers: [String]) {
        #expect(Self.error(body: Self.body(parts: [(headers, Array("x".utf8))])) == .partWithoutName)
    }

    @Test("Part headers that cannot be read", arguments: [
        ["Content-Disposition: form-data; name=\"a\"", "no colon here"],
        ["Content-Disposition: form-data; name=\"unclosed"],
        ["Content-Disposition: form-data; name"],
        [": no name"],
    ])
    func malformedHeaders(headers: [String]) {
        #expect(Self.error(body: Self.body(parts: [(headers, Array("x".utf8))])) == .malformedPartHeader)
    }

    @Test func headerSectionsOverEightKiB() throws {
        let disposition = "Content-Disposition: form-data; name=\"a\""
        // The header section counts each line with its CRLF: two lines, exactly 8 KiB in all.
        let filler = "X-Filler: " + String(repeating: "f", count: 8192 - (disposition.utf8.count + 2) - 12)
        let fits = Self.body(parts: [([disposition, filler], Array("1".utf8))])
        #expect(try MultipartForm(body: ByteBuffer(bytes: fits), contentType: Self.contentType).text("a") == "1")
        let tooLarge = Self.body(parts: [([disposition, filler + "f"], Array("1".utf8))])
        #expect(Self.error(body: tooLarge) == .headerSectionTooLarge)
        let endless = Array("--\(Self.boundary)\r\nX-Filler: ".utf8) + [UInt8](repeating: UInt8(ascii: "f"), count: 100_000)
        #expect(Self.error(body: endless) == .headerSectionTooLarge)
    }

    @Test func moreThanTwentyParts() {
        let parts = (1...21).map { Self.field("f\($0)", "\($0)") }
        #expect(Self.error(body: Self.body(parts: parts)) == .tooManyParts)
    }

    @Test("Every error is a sentence for the user", arguments: [
        MultipartForm.Error.notMultipartFormData, .missingBoundary, .invalidBoundary, .noClosingDelimiter,
        .malformedPartHeader, .partWithoutName, .headerSectionTooLarge, .tooManyParts,
    ])
    func messages(error: MultipartForm.Error) {
        #expect(error.message.first?.isUppercase == true)
        #expect(error.message.hasSuffix("."))
        #expect(error.description == error.message)
    }

    @Test func limitsAreNamedInTheirMessages() {
        #expect(MultipartForm.Error.headerSectionTooLarge.message.contains("8 KiB"))
        #expect(MultipartForm.Error.tooManyParts.message.contains("20 parts"))
    }
}
