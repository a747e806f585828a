import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import WishlistCore

/// The JSON answers of the API: snake_case field names (as the forms' fields are), dates in
/// ISO 8601 UTC, keys sorted so that the same data is the same bytes, each written by its type
/// (``JSONWritable``). A read carries a strong
/// `ETag` of its bytes and answers `304 Not Modified` to an `If-None-Match` that holds it; a paged
/// read carries RFC 8288 `Link`s to its first, previous, next and last pages.
enum APIResponse {
    /// `value` as JSON with `status`; a GET's answer is checked against `If-None-Match`.
    static func json(
        _ value: some JSONWritable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], for request: Request
    ) -> Response {
        let data = JSONWriter.bytes(of: value)
        var headers = headers
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "private, no-cache"
        guard request.method == .get else {
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        let tag = etag(of: data)
        headers[.eTag] = tag
        if let wanted = request.headers[.ifNoneMatch], matches(wanted, tag) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A 204 for a change that has nothing to say.
    static var noContent: Response { Response(status: .noContent, headers: [.cacheControl: "no-store"]) }

    /// A strong tag: the first 16 bytes of the body's SHA-256, in hex.
    static func etag(of data: some DataProtocol) -> String {
        "\"" + SHA256.hash(data: data).prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
    }

    /// `If-None-Match`'s list holds `tag`, or is `*` (RFC 9110 section 13.1.2; weak comparison).
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let candidate = candidate.trimmingCharacters(in: .whitespaces)
            return candidate == "*" || candidate == tag || candidate == "W/" + tag
        }
    }

    /// `{"name": value}`: a read's list under its name, as `{"lists": […]}`.
    struct Named<Value: JSONWritable>: JSONWritable {
        let name: StaticString
        let value: Value

        init(_ name: StaticString, _ value: Value) {
            (self.name, self.value) = (name, value)
        }

        func write(to json: inout JSONWriter) {
            json.object { $0.field(name, value) }
        }
    }

    static let linkHeader = HTTPField.Name("Link")!

    /// The `Link` header of a paged list at `path` (RFC 8288); a path with a query keeps it.
    static func links(_ page: PagedList<some Sendable>, path: String) -> HTTPFields {
        let path = path + (path.contains("?") ? "&" : "?")
        var links = ["<\(path)page=1>; rel=\"first\"", "<\(path)page=\(page.pageCount)>; rel=\"last\""]
        if page.number > 1 { links.append("<\(path)page=\(page.number - 1)>; rel=\"prev\"") }
        if page.number < page.pageCount { links.append("<\(path)page=\(page.number + 1)>; rel=\"next\"") }
        return [linkHeader: links.joined(separator: ", ")]
    }

    /// `?page=`: 1 when absent; anything but a positive number is a 400.
    static func pageNumber(_ request: Request) throws -> Int {
        let text = request.uri.queryParameters["page"].map(String.init) ?? ""
        guard !text.isEmpty else { return 1 }
        guard text.count <= 6, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(text), number > 0 else {
            throw APIProblem.badRequest("page must be a whole number from 1.")
        }
        return number
    }

    /// The request's JSON body as `Body`, read up to the forms' limit: malformed JSON or wrong
    /// types are a 400 that says which field, never a 500.
    static func body<Body: Decodable>(_ type: Body.Type, of request: Request) async throws -> Body {
        var request = request
        let buffer = try await request.collectBody(upTo: FormBody.maximumBytes)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(Body.self, from: Data(buffer: buffer))
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIProblem.badRequest("The field \(key.stringValue.snakeCased) is missing.")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let field = context.codingPath.last?.stringValue.snakeCased ?? "body"
            throw APIProblem.badRequest("The field \(field) has the wrong type.")
        } catch {
            throw APIProblem.badRequest("The body must be a JSON object.")
        }
    }
}

private extension String {
    /// `bookId` → `book_id`, for messages about fields the decoder names in camelCase.
    var snakeCased: String {
        reduce(into: "") { result, character in
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
    }
}
