import Foundation
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 56: a cover server that takes the request and never answers. The fetch ends at the cover
/// limit with libcurl's timeout, and the cover is the placeholder until its next try.
@Suite("A stalled cover server: the fetch ends at its limit", .removesTemporaryDirectories)
struct CoverStallTests {
    typealias Fake = FakeOpenLibraryServer

    @Test func aCoverIsAtMostFiveMBAndTenSecondsConnectingIncluded() {
        #expect(CoverFetcher.limits.totalTimeoutSeconds == 10)
        #expect(CoverFetcher.limits.connectTimeoutSeconds == 5)
        #expect(CoverFetcher.limits.maximumBodyBytes == 5 * 1024 * 1024)
    }

    /// The limit is made one second through the parameter the server's ten seconds go through (the
    /// test above pins those). The stalled fake holds the request until the fetch is over, so only
    /// a limit can end it, and the log says it was libcurl's timeout. The upper bound, twenty times
    /// the limit, is not a measurement: a loaded machine stays far inside it, and a limit made
    /// minutes long (the flip this guards) far outside.
    @Test func aStalledCoverEndsAtTheLimitAsATimeoutAndIsTriedAgainLater() async throws {
        let fake = Fake(clock: .system)
        fake.failCovers(with: .heldUntilReleased)
        let time = ManualClock()
        let log = LogCapture()
        let limits = CurlHTTPClient.Limits(
            connectTimeoutSeconds: CoverFetcher.limits.connectTimeoutSeconds, totalTimeoutSeconds: 1,
            maximumBodyBytes: CoverFetcher.limits.maximumBodyBytes, maximumRedirects: CoverFetcher.limits.maximumRedirects
        )
        try await fake.run { baseURL in
            let url = "\(baseURL)/b/id/\(Fake.lantern.coverID)-L.jpg"
            let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("covers.sqlite").path)
            let store = CoverStore(database: database)
            let fetcher = CoverFetcher(
                store: store, cache: try CoverCache(directory: temporaryDirectory().appendingPathComponent("covers"), capacityBytes: 1 << 20),
                pictures: try PictureProcessor(), reachable: .publicAnd(servicesAt: [baseURL]), clock: time.clock, logger: log.logger,
                limits: limits
            )
            try await store.want(url)
            let began = ContinuousClock.now
            await fetcher.fetchDue()
            let waited = began.duration(to: .now)
            fake.release()

            #expect(fake.requests.count == 1, "the request reached the fake, which never answered it")
            #expect(waited < .seconds(20), "the fetch ended at its one-second limit, not after \(waited)")
            let cover = try #require(try await store.cover(key: CoverKey.of(url)))
            #expect(cover.status == .failed && cover.failures == 1)
            let retry = try #require(cover.retryAt)
            #expect(abs(retry.timeIntervalSince(time.clock.now()) - CoverStore.shortestRetry) < 1, "tried again after the first wait")
            let said = log.all.filter { $0.contains("cover not fetched") }
            #expect(said.count == 1 && said[0].contains("(curl error 28)"), "libcurl's timeout: \(said)")
        }
    }
}
