import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The background job that fetches every cover a page may show, through libcurl, re-encodes it
/// with the picture codecs and keeps it in the `CoverCache`: two at a time, 5 MB and 10 s at most
/// each, from public addresses only (``ReachableAddresses``: a catalog's URL names any host). It wakes when nudged (a book added, a page asking for a cover it lacks) and every half
/// minute for what the catalog's refresh or another process brought. A cover that fails is
/// the placeholder until its next try (`CoverStore.markFailed`).
package final class CoverFetcher: Service, Sendable {
    package static let maximumBytes = 5 * 1024 * 1024
    /// Each cover's transfer: 5 MB and 10 s at most, connecting included, and up to three redirects
    /// (Open Library's covers answer with one).
    package static let limits = CurlHTTPClient.Limits(
        connectTimeoutSeconds: 5, totalTimeoutSeconds: 10, maximumBodyBytes: maximumBytes, maximumRedirects: 3
    )
    static let concurrentFetches = 2
    static let pollInterval: Duration = .seconds(30)

    let store: CoverStore
    package let cache: CoverCache
    private let http: CurlHTTPClient
    private let pictures: PictureProcessor
    private let clock: WallClock
    private let logger: Logger
    private let wakeUp = WakeUpSignal()
    /// Pages waiting for a cover, by key, resumed when it is settled either way.
    private let waiters = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])
    /// Covers a page is waiting for: fetched before the rest of what is due, so that a page
    /// asking during the first sync's hundreds of covers is not served the placeholder.
    private let urgent = Mutex<[CoverStore.Cover]>([])
    /// Whether the cache's last write failed. A full disk fails every cover alike, so the log
    /// says when that starts and when it ends, not once per cover or per page.
    private let cacheWritesFailing = Atomic<Bool>(false)

    /// `limits` are ``limits`` but in a test that needs a stall to end sooner.
    package init(
        store: CoverStore, cache: CoverCache, pictures: PictureProcessor, reachable: ReachableAddresses, clock: WallClock, logger: Logger,
        limits: CurlHTTPClient.Limits = CoverFetcher.limits
    ) {
        self.store = store
        self.cache = cache
        self.pictures = pictures
        self.clock = clock
        self.logger = logger
        self.http = CurlHTTPClient(limits: limits, threads: Self.concurrentFetches, reachable: reachable)
    }

    /// Something new may be due: look now rather than at the next poll.
    package func nudge() {
        wakeUp.ring()
    }

    package func run() async throws {
        await reconcile()
        await withGracefulShutdownHandler {
            while !Task.isCancelled && !Task.isShuttingDownGracefully {
                // A transfer in flight stops at once on shutdown rather than after its 10 s.
                await cancelWhenGracefulShutdown { await self.fetchDue() }
                await wakeUp.wait(atMost: Self.pollInterval)
            }
        } onGracefulShutdown: {
            self.wakeUp.stop()
        }
    }

    /// Fetches every cover due, `concurrentFetches` at a time, until none is or shutdown begins.
    package func fetchDue() async {
        do {
            try await store.keyNewCovers()
            while !Task.isCancelled && !Task.isShuttingDownGracefully {
                let due = try await store.due(at: clock.now(), limit: 16)
                guard !due.isEmpty || urgent.withLock({ !$0.isEmpty }) else { return }
                await withTaskGroup(of: Void.self) { group in
                    var waiting = due.makeIterator()
                    var started: Set<String> = []
                    // A page's cover first; each cover once, though it may be both urgent and due.
                    func next() -> CoverStore.Cover? {
                        while let cover = takeUrgent() ?? waiting.next() {
                            if started.insert(cover.key).inserted { return cover }
                        }
                        return nil
                    }
                    for _ in 0..<Self.concurrentFetches {
                        guard let cover = next() else { break }
                        group.addTask { await self.fetch(cover) }
                    }
                    while await group.next() != nil {
                        guard let cover = next() else { continue }
                        group.addTask { await self.fetch(cover) }
                    }
                }
            }
        } catch {
            logger.error("the cover job could not read its table: \(error)")
        }
    }

    /// One cover: fetched, re-encoded, stored, and the table told; or told it failed.
    func fetch(_ cover: CoverStore.Cover) async {
        do {
            let response = try await http.get(cover.url)
            guard response.status == 200 else { throw CoverFailure(reason: "answered \(response.status)") }
            let processed = try await pictures.processCover(bytes: response.body)
            let evicted = try await cache.store(processed, key: cover.key)
            noteCacheWrote()
            try await store.markReady(cover.url, largeHeight: processed.largeHeight, at: clock.now())
            try await store.markEvicted(keys: evicted)
        } catch is CancellationError {
            return
        } catch let failure as CoverCache.WriteFailure {
            noteCacheWriteFailed(failure)
            try? await store.markWaitingForDisk(cover, at: clock.now())
        } catch {
            logger.notice("cover not fetched, shown as the placeholder until a later try: \(Self.describe(error))")
            try? await store.markFailed(cover, at: clock.now())
        }
        settle(cover.key)
    }

    private func noteCacheWriteFailed(_ failure: CoverCache.WriteFailure) {
        guard !cacheWritesFailing.exchange(true, ordering: .relaxed) else { return }
        logger.error(
            "the cover cache cannot write to \(cache.directory.path) (\(failure)): covers are shown as placeholders until it can"
        )
    }

    private func noteCacheWrote() {
        guard cacheWritesFailing.exchange(false, ordering: .relaxed) else { return }
        logger.notice("the cover cache can write again")
    }

    /// Fetches `cover` before anything else due, and wakes the job for it.
    package func hurry(_ cover: CoverStore.Cover) {
        urgent.withLock { $0.append(cover) }
        nudge()
    }

    private func takeUrgent() -> CoverStore.Cover? {
        urgent.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Waits, at most `timeout`, until the cover of `key` has been tried.
    package func waitUntilSettled(_ key: String, timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    self.waiters.withLock { $0[key, default: []].append(continuation) }
                }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
            // The waiter left behind is resumed here rather than kept forever.
            self.settle(key)
        }
    }

    private func settle(_ key: String) {
        let waiting = waiters.withLock { $0.removeValue(forKey: key) ?? [] }
        for waiter in waiting { waiter.resume() }
    }

    /// The table says ready, the folder lacks the files (a restored backup, a deleted folder):
    /// those become evicted, fetched again when a page asks.
    private func reconcile() async {
        do {
            let missing = try await store.readyKeys().filter { !cache.contains($0) }
            try await store.markEvicted(keys: missing)
        } catch {
            logger.error("the cover job could not read its table: \(error)")
        }
    }

    /// Where the URL came from stays out of the log: it is a book's, and says what someone browses.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as CoverFailure: failure.reason
        case let problem as PictureProblem: "not a usable picture (\(problem))"
        default: String(describing: error)
        }
    }

    private struct CoverFailure: Error {
        let reason: String
    }
}
