import Foundation
import Synchronization
import Testing
@testable import WishlistCore

/// The process waits for the threads of its pools before it exits (`ThreadPools`).
struct ThreadPoolsTests {
    /// Threads that have ended, counted by a thread-specific value's destructor, which a thread
    /// runs as it exits.
    static let ended = Atomic<Int>(0)

    @Test func closingAllReturnsOnlyOnceEveryThreadHasEnded() async throws {
        var key = pthread_key_t()
        #expect(pthread_key_create(&key) { _ in ThreadPoolsTests.ended.add(1, ordering: .sequentiallyConsistent) } == 0)
        let markedKey = key
        let pools = ThreadPools()
        let keptOpen = pools.start(threads: 1)
        let closedByItsOwner = pools.start(threads: 1)
        for pool in [keptOpen, closedByItsOwner] {
            try await pool.runIfActive { _ = pthread_setspecific(markedKey, UnsafeRawPointer(bitPattern: 1)) }
        }
        #expect(Self.ended.load(ordering: .sequentiallyConsistent) == 0)

        pools.close(closedByItsOwner)
        await pools.closeAll()

        #expect(Self.ended.load(ordering: .sequentiallyConsistent) == 2)
        await #expect(throws: (any Error).self) { try await keptOpen.runIfActive {} }
    }
}
