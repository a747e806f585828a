import Foundation
import Testing
@testable import WishlistCore

/// `lists/{date}/{list}.json` through the real libcurl client: the history's way back in time.
@Suite("Dated editions from the NYT API")
struct DatedEditionTests {
    @Test func aDatedEditionDecodesWithTheDateOfTheOneBefore() async throws {
        let server = FakeNYTServer(clock: .system)
        let edition = try await server.run { baseURL in
            try await NYTAPISource(client: CurlHTTPClient(), baseURL: baseURL, apiKey: FakeNYTServer.apiKey)
                .edition(list: "hardcover-fiction", date: "2023-03-19")
        }
        #expect(edition.results.publishedDate == "2023-03-19")
        #expect(edition.results.previousPublishedDate == "2023-03-12")
        #expect(edition.results.books.count == 15)
        #expect(server.requests.map(\.path) == ["/svc/books/v3/lists/2023-03-19/hardcover-fiction.json"])
    }

    @Test func aDateTheAPIDoesNotHaveIsA404WithItsCause() async throws {
        let server = FakeNYTServer(clock: .system)
        let failure = await #expect(throws: CatalogFetchFailure.self) {
            try await server.run { baseURL in
                try await NYTAPISource(client: CurlHTTPClient(), baseURL: baseURL, apiKey: FakeNYTServer.apiKey)
                    .edition(list: "hardcover-fiction", date: "2023-03-05")
            }
        }
        #expect(failure?.reason == .unexpectedStatus(404))
        #expect(failure?.cause.contains(FakeNYTServer.apiKey) == false, "the key never travels in an error")
    }
}
