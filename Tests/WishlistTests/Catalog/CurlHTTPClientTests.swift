import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("The libcurl client and the NYT source's errors")
struct CurlHTTPClientTests {
    @Test func anOptionLibcurlRefusesStopsTheRequestAndIsNamed() async throws {
        var limits = CurlHTTPClient.Limits()
        limits.connectTimeoutSeconds = -1
        let error = await #expect(throws: CurlHTTPClient.Failure.self) {
            try await CurlHTTPClient(limits: limits).get("http://127.0.0.1:9/")
        }
        guard case .refusedOption(let name, let reason) = error else {
            Issue.record("expected a refused option, got \(String(describing: error))")
            return
        }
        #expect(name == "CONNECTTIMEOUT")
        #expect(!reason.isEmpty)
    }

    @Test func cancellingTheTaskAbortsATransferThatNeverFinishes() async throws {
        let fake = FakeNYTServer(clock: .system)
        fake.fail(with: .neverFinishes)
        try await fake.run { (baseURL: String) async throws -> Void in
            // The default 30-second timeout: only the abort ends the transfer with this error.
            let transfer = Task { try await CurlHTTPClient().get("\(baseURL)/lists/names.json?api-key=\(FakeNYTServer.apiKey)") }
            await fake.waitForRequests(1)
            transfer.cancel()
            await #expect(throws: CancellationError.self) { try await transfer.value }
        }
    }

    @Test func theKeyIsMaskedInWhateverAFailureQuotes() {
        let source = NYTAPISource(client: CurlHTTPClient(), baseURL: "http://127.0.0.1:9", apiKey: "k/ey")
        #expect(source.withoutKey("GET /lists?api-key=k%2Fey failed; the key k/ey") == "GET /lists?api-key=[api key] failed; the key [api key]")
    }
}
