import Foundation

/// Why a catalog fetch failed, in the words the status line uses.
public enum CatalogFetchError: Error, Equatable, Sendable {
    case keyRejected
    case rateLimited
    case serverError(Int)
    case unexpectedStatus(Int)
    case malformed
    case tooLarge
    case timedOut
    case unreachable
    case dailyLimitReached
    /// The database refused what was fetched (full disk, busy, corrupt), not the API.
    case notSaved

    /// A phrase for "Showing lists from March 26; <phrase>".
    public var phrase: String {
        switch self {
        case .keyRejected: return "the NYT API key was rejected"
        case .rateLimited: return "the NYT API asked us to slow down; retrying later"
        case .serverError(let status): return "the NYT API had a server error (\(status)); retrying later"
        case .unexpectedStatus(let status): return "the NYT API answered with an unexpected status (\(status)); retrying later"
        case .malformed: return "the NYT API sent data we could not read; retrying later"
        case .tooLarge: return "the NYT API sent more data than expected; retrying later"
        case .timedOut: return "the NYT API did not answer in time; retrying later"
        case .unreachable: return "the NYT API could not be reached; retrying later"
        case .dailyLimitReached: return "today's NYT API requests are used up; retrying tomorrow"
        case .notSaved: return "the catalog could not be saved to the database; retrying later"
        }
    }
}

/// A failed fetch: the reason people are told, and what exactly happened, for the log.
struct CatalogFetchFailure: Error {
    let reason: CatalogFetchError
    /// libcurl's message, the HTTP status or the decoding error, with the path asked for; never
    /// the API key.
    let cause: String

    /// The reason behind a fetch's error, whether the API client (a failure with its cause) or
    /// the sample (the bare reason) threw it.
    static func reason(of error: any Error) -> CatalogFetchError? {
        (error as? CatalogFetchFailure)?.reason ?? error as? CatalogFetchError
    }
}

/// Where catalog data comes from: the NYT Books API, or the bundled sample.
protocol CatalogSource: Sendable {
    /// The sample needs no rate limiting and is never "stale".
    var isSample: Bool { get }
    func names() async throws -> NYTNamesResponse
    func overview() async throws -> NYTOverviewResponse
    func currentList(_ listNameEncoded: String) async throws -> NYTListResponse
    /// The edition of a list published on `date` (`YYYY-MM-DD`): `lists/{date}/{list}.json`, whose
    /// `previous_published_date` leads further back.
    func edition(list listNameEncoded: String, date: String) async throws -> NYTListResponse
}

/// The NYT Books API over libcurl. The key travels only in the `api-key` query parameter and
/// never in an error: failures are reported as a `CatalogFetchFailure`, which carries no URL.
struct NYTAPISource: CatalogSource {
    let client: CurlHTTPClient
    let baseURL: String
    let apiKey: String

    var isSample: Bool { false }

    func names() async throws -> NYTNamesResponse {
        try await get("lists/names.json")
    }

    func overview() async throws -> NYTOverviewResponse {
        try await get("lists/full-overview.json")
    }

    func currentList(_ listNameEncoded: String) async throws -> NYTListResponse {
        try await get("lists/current/\(PercentEncoding.encode(listNameEncoded)).json")
    }

    func edition(list listNameEncoded: String, date: String) async throws -> NYTListResponse {
        try await get("lists/\(PercentEncoding.encode(date))/\(PercentEncoding.encode(listNameEncoded)).json")
    }

    private func get<Body: Decodable>(_ path: String) async throws -> Body {
        let url = "\(baseURL)/\(path)?api-key=\(encodedKey)"
        let response: CurlHTTPClient.Response
        do {
            response = try await client.get(url)
        } catch let failure as CurlHTTPClient.Failure {
            throw CatalogFetchFailure(reason: Self.reason(failure), cause: withoutKey("\(path): \(failure)"))
        }
        if let reason = Self.reason(status: response.status) {
            throw CatalogFetchFailure(reason: reason, cause: "\(path): HTTP \(response.status)")
        }
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(response.body))
        } catch {
            throw CatalogFetchFailure(reason: .malformed, cause: withoutKey("\(path): \(error)"))
        }
        if let date = PublicationDate.firstInvalid(in: body) {
            throw CatalogFetchFailure(reason: .malformed, cause: withoutKey("\(path): the date \"\(date.prefix(40))\" is not a day"))
        }
        return body
    }

    private var encodedKey: String {
        PercentEncoding.encode(apiKey)
    }

    /// `text` with the key, as typed and as sent in the URL, masked: libcurl's messages and
    /// decoding errors may quote what they were given.
    func withoutKey(_ text: String) -> String {
        guard !apiKey.isEmpty else { return text }
        return text.replacingOccurrences(of: apiKey, with: "[api key]").replacingOccurrences(of: encodedKey, with: "[api key]")
    }

    private static func reason(_ failure: CurlHTTPClient.Failure) -> CatalogFetchError {
        switch failure {
        case .timedOut: return .timedOut
        case .tooLarge: return .tooLarge
        case .transport, .refusedOption, .unreachableAddress: return .unreachable
        }
    }

    private static func reason(status: Int) -> CatalogFetchError? {
        switch status {
        case 200: return nil
        case 401, 403: return .keyRejected
        case 429: return .rateLimited
        case 500...599: return .serverError(status)
        default: return .unexpectedStatus(status)
        }
    }
}

/// The bundled sample catalog: made-up best-seller lists for running the app without an NYT API key.
///
/// Every title, author, publisher and description was written for Bestseller Wishlist; none of it
/// describes a real book. The data is one JSON file per API response in `Catalog/SampleCatalog/`,
/// at the path the API serves it from (`lists/names.json` answers `GET {baseURL}/lists/names.json`),
/// shipped as a SwiftPM resource and decoded by the same types as live responses:
///
/// - `lists/names.json`: six current lists and one long-dead weekly one.
/// - `lists/full-overview.json`: the four weekly lists' current edition (2026-11-15).
/// - `lists/current/{list}.json`: the two monthly lists, which the overview leaves out, as the real one may.
/// - `lists/{date}/{list}.json`: older editions with their `previous_published_date` /
///   `next_published_date` chain (eight weekly, three monthly), and the weekly lists' current
///   edition again in the single-list shape. The monthly lists' newest date is answered with the
///   `current` file, as the API answers it with the same body.
///
/// The files carry the API's quirks on purpose: `price` as a string in most books and as a number in
/// a few, `rank_last_week` 0 for new entries and once beyond the end of last week's list (the Times
/// ranks past the printed list), null and empty images, escaped slashes and `\u` escapes, a non-ISBN
/// audiobook id, a `javascript:` review link that must be dropped, and descriptions with `&`, `<i>`,
/// quotes and accents.
struct SampleCatalogSource: CatalogSource {
    /// The folder that mirrors the API's paths.
    let root: URL

    init(root: URL = SampleCatalogSource.bundled) {
        self.root = root
    }

    /// The copy SwiftPM places beside the executable (`bestseller-wishlist_WishlistCore.resources/SampleCatalog`
    /// on Linux); `Bundle.module` stops the program with a clear message when that folder is missing.
    static var bundled: URL {
        (Bundle.module.resourceURL ?? Bundle.module.bundleURL).appendingPathComponent("SampleCatalog", isDirectory: true)
    }

    var isSample: Bool { true }

    func names() async throws -> NYTNamesResponse {
        try read("lists/names.json")
    }

    func overview() async throws -> NYTOverviewResponse {
        try read("lists/full-overview.json")
    }

    func currentList(_ listNameEncoded: String) async throws -> NYTListResponse {
        guard Self.isListName(listNameEncoded) else { throw CatalogFetchError.unexpectedStatus(404) }
        return try read("lists/current/\(listNameEncoded).json")
    }

    /// One dated edition, as `GET lists/{date}/{list}.json` answers it: the response, or a 404
    /// `CatalogFetchError` for a list or date the sample does not have.
    func edition(list listNameEncoded: String, date: String) async throws -> NYTListResponse {
        guard Self.isListName(listNameEncoded), Self.isDate(date) else { throw CatalogFetchError.unexpectedStatus(404) }
        do {
            return try read("lists/\(date)/\(listNameEncoded).json")
        } catch CatalogFetchError.unexpectedStatus(404) {
            let current = try await currentList(listNameEncoded)
            guard current.results.publishedDate == date else { throw CatalogFetchError.unexpectedStatus(404) }
            return current
        }
    }

    private func read<Body: Decodable>(_ path: String) throws -> Body {
        let data: Data
        do {
            data = try Data(contentsOf: root.appendingPathComponent(path))
        } catch {
            throw CatalogFetchError.unexpectedStatus(404)
        }
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: data)
        } catch {
            throw CatalogFetchFailure(reason: .malformed, cause: "the bundled sample catalog's \(path): \(error)")
        }
        if let date = PublicationDate.firstInvalid(in: body) {
            throw CatalogFetchFailure(reason: .malformed, cause: "the bundled sample catalog's \(path): the date \"\(date.prefix(40))\" is not a day")
        }
        return body
    }

    /// Names and dates become file paths, so only the API's own alphabets are let through.
    private static func isListName(_ name: String) -> Bool {
        (1...100).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
    }

    private static func isDate(_ date: String) -> Bool {
        let bytes = Array(date.utf8)
        return bytes.count == 10 && bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
