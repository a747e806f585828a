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
@Suite("An API token is looked up without blocking its event loop or waiting for the writer", .removesTemporaryDirectories, .timeLimit(.minutes(1)))
struct APITokenOnTheLoopTests {
    /// Every reader of the pool is held until a job on the caller's own event loop lets them go.
    /// A look-up that suspends lets that job run, gets a reader and finds the member. One that
    /// blocks the loop waiting for a reader never lets the job run: the readers then let go by
    /// themselves, 30 s on, and the test fails on their timing out rather than hangs (Swift
    /// Testing's time limit does not end a blocked thread).
    @Test func aLookUpWhileEveryReaderIsBusyLeavesTheLoopFree() async throws {
        let (database, tokens, token) = try await Self.annsToken()
        let readers = database.pool.configuration.maximumReaderCount
        let entered = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        let holders = (0..<readers).map { _ in
            Task.detached {
                try await database.pool.read { _ in
                    entered.signal()
                    return released.wait(timeout: .now() + 30) == .success
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
        for holder in holders {
            #expect(try await holder.value, "a reader let go by its own time-out: the look-up blocked the loop")
        }
        try await group.shutdownGracefully()
    }

    /// Issue 58: a token's first use in a minute waited for its last-use write, behind every
    /// synced commit queued for the writer, and made the household mix's API reads the slowest at
    /// p99. With the writer held, the look-up must still answer, and the use is written once the
    /// writer is free. A look-up that waits for the writer is answered only when the writer lets go
    /// by itself, 30 s on, with its use already written: the test then fails rather than hangs.
    @Test func aLookUpDoesNotWaitForItsLastUseToBeWritten() async throws {
        let (database, tokens, token) = try await Self.annsToken()
        let writerInside = DispatchSemaphore(value: 0), releaseWriter = DispatchSemaphore(value: 0)
        let writer = Task.detached {
            try await database.pool.write { _ in
                writerInside.signal()
                _ = releaseWriter.wait(timeout: .now() + 30)
            }
        }
        await Self.wait(for: writerInside)
        let caller = try await tokens.caller(token: token, from: "127.0.0.1")
        #expect(caller?.username == "ann")
        #expect(try await tokens.tokens(userID: caller!.userID)[0].lastUsedAt == nil, "not written while the writer is held")
        releaseWriter.signal()
        try await writer.value
        await tokens.lastUsesWritten()
        let used = try await tokens.tokens(userID: caller!.userID)[0]
        #expect(used.lastUsedAt != nil)
        #expect(used.lastUsedFrom == "127.0.0.1")
    }

    /// A new database with one member, ann, and a read token of hers.
    private static func annsToken() async throws -> (AppDatabase, APITokenStore, String) {
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
        return (database, APITokenStore(database: database, clock: .system, throttle: throttle), token)
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
