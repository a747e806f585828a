import Dispatch
import Foundation
import GRDB
import NIOPosix
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 54: eight clients reading the API at once stopped the whole server, `/healthz` too. The
/// token's look-up read a GRDB `Row` out of the database, which is not Sendable, so the call took
/// GRDB's blocking `read` instead of the async one, and blocked the event loop it ran on while it
/// waited for a reader; the readers' own answers needed that loop to go on.
@Suite("An API token is looked up without blocking its event loop", .removesTemporaryDirectories, .timeLimit(.minutes(1)))
struct APITokenOnTheLoopTests {
    /// Every reader of the pool is held until a job on the caller's own event loop lets them go.
    /// A look-up that blocks the loop waiting for a reader never lets that job run: the test then
    /// ends by its time limit. One that suspends lets it run, gets a reader and finds the member.
    @Test func aLookUpWhileEveryReaderIsBusyLeavesTheLoopFree() async throws {
        let database = try AppDatabase.open(path: try temporaryDirectory().appendingPathComponent("tokens.sqlite").path)
        let token = APITokenStore.prefix + String(repeating: "a", count: 43)
        try await database.pool.write { db in
            try db.execute(sql: "INSERT INTO user (username, username_key, password_hash, created_at) VALUES ('ann', 'ann', '', ?)", arguments: [StoredDate(Date())])
            try db.execute(
                sql: "INSERT INTO api_token (user_id, name, scope, token_hash, created_at) VALUES (?, 'script', 'read', ?, ?)",
                arguments: [db.lastInsertedRowID, SessionStore.fingerprint(token), StoredDate(Date())]
            )
        }
        let throttle = LoginThrottle(database: database, clock: .system, settings: AppConfig.Accounts())
        let tokens = APITokenStore(database: database, clock: .system, throttle: throttle)
        let readers = database.pool.configuration.maximumReaderCount
        let entered = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        let holders = (0..<readers).map { _ in
            Task.detached {
                try await database.pool.read { _ in
                    entered.signal()
                    released.wait()
                }
            }
        }
        for _ in 0..<readers { await Self.wait(for: entered) }

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let caller = try await withTaskExecutorPreference(EventLoopTaskExecutor(loop: loop)) {
            loop.execute { for _ in 0..<readers { released.signal() } }
            return try await tokens.caller(token: token, from: "127.0.0.1")
        }
        #expect(caller?.username == "ann")
        for holder in holders { try await holder.value }
        try await group.shutdownGracefully()
    }

    /// A semaphore waited on off the cooperative pool.
    private static func wait(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                semaphore.wait()
                continuation.resume()
            }
        }
    }
}
