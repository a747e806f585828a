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
}

/// Where catalog data comes from: the NYT Books API, or the bundled sample.
protocol CatalogSource: Sendable {
    /// The sample needs no rate limiting and is never "stale".
    var isSample: Bool { get }
    func names() async throws -> NYTNamesResponse
    func overview() async throws -> NYTOverviewResponse
    func currentList(_ listNameEncoded: String) async throws -> NYTListResponse
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
        try await get("lists/current/\(LocalPath.percentEncoded(listNameEncoded).replacingOccurrences(of: "/", with: "%2F")).json")
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
        do {
            return try JSONDecoder().decode(Body.self, from: Data(response.body))
        } catch {
            throw CatalogFetchFailure(reason: .malformed, cause: withoutKey("\(path): \(error)"))
        }
    }

    private var encodedKey: String {
        LocalPath.percentEncoded(apiKey).replacingOccurrences(of: "/", with: "%2F")
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
        case .transport, .refusedOption: return .unreachable
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

/// The bundled sample catalog, decoded by the same types as the API's answers.
struct SampleCatalogSource: CatalogSource {
    var isSample: Bool { true }

    func names() async throws -> NYTNamesResponse {
        try decode(SampleCatalog.names)
    }

    func overview() async throws -> NYTOverviewResponse {
        try decode(SampleCatalog.fullOverview)
    }

    func currentList(_ listNameEncoded: String) async throws -> NYTListResponse {
        guard let json = SampleCatalog.currentLists[listNameEncoded] else { throw CatalogFetchError.unexpectedStatus(404) }
        return try decode(json)
    }

    private func decode<Body: Decodable>(_ json: String) throws -> Body {
        do {
            return try JSONDecoder().decode(Body.self, from: Data(json.utf8))
        } catch {
            throw CatalogFetchFailure(reason: .malformed, cause: "the bundled sample catalog: \(error)")
        }
    }
}
