import Dispatch
import Foundation
import GRDB
import NIOPosix
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// A page's read runs in the request's own thread on a free inline reader, and never waits: with
/// every inline reader taken, or a lock in the way, it reads through the pool (issue 58).
@Suite("Inline readers: a page's read in its own thread, never waiting", .removesTemporaryDirectories, .timeLimit(.minutes(1)))
struct InlineReadersTests {
    @Test func aReadRunsInTheThreadThatAsks() throws {
        let database = try Self.database()
        let caller = pthread_self()
        let reader = try #require(try database.inlineReaders.read { db in
            (thread: pthread_self(), users: try Int.fetchOne(db, sql: "SELECT count(*) FROM user"))
        })
        #expect(pthread_equal(reader.thread, caller) != 0)
        #expect(reader.users == 1)
    }

    @Test func withEveryReaderTakenAReadAnswersNilWithoutRunning() throws {
        let database = try Self.database()
        let readers = database.inlineReaders
        // Each read takes one more reader; the innermost finds none left.
        func nest(_ depth: Int) throws -> [Bool] {
            try readers.read { _ in depth == 0 ? [] : try nest(depth - 1) + [true] } ?? [false]
        }
        let taken = try nest(AppDatabase.inlineReaderCount)
        #expect(taken == [false] + Array(repeating: true, count: AppDatabase.inlineReaderCount))
        #expect(readers.freeCount == AppDatabase.inlineReaderCount, "every reader given back")
    }

    @Test func aReadSeesWhatWasCommittedBeforeIt() async throws {
        let database = try Self.database()
        let before = try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM user") }
        try await database.write { db in try Self.insertUser("bob", db) }
        let after = try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM user") }
        #expect((before, after) == (1, 2))
    }

    @Test func anInlineReaderCannotWrite() throws {
        let database = try Self.database()
        #expect(throws: DatabaseError.self) {
            try database.inlineReaders.read { db in try db.execute(sql: "DELETE FROM user") }
        }
        #expect(try database.pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM user") } == 1)
    }

    /// A database another connection holds exclusively (a rollback journal's EXCLUSIVE lock, as
    /// another process could take): the inline read gives up, and the caller goes to the pool.
    @Test func aLockedDatabaseAnswersNilSoTheCallerReadsThroughThePool() throws {
        let path = try temporaryDirectory().appendingPathComponent("locked.sqlite").path
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: path, configuration: holding)
        try holder.write { try $0.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        let readers = try InlineReaders(path: path, configuration: AppDatabase.configuration, count: 1)
        try holder.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        #expect(try readers.read { try Int.fetchOne($0, sql: "SELECT x FROM t") } == nil)
        try holder.writeWithoutTransaction { try $0.execute(sql: "COMMIT") }
        #expect(try readers.read { try Int.fetchOne($0, sql: "SELECT x FROM t") } == 1)
    }

    /// Every inline reader and every reader of the pool held: a read asked on an event loop must
    /// suspend (through the pool) and leave the loop free, since the job that lets the readers go
    /// runs on that loop. A read that waited on the loop would hold it until the holders give up
    /// by themselves, 30 s on, and the test fails on their timing out.
    @Test func withEveryReaderBusyAReadOnALoopLeavesTheLoopFree() async throws {
        let database = try Self.database()
        let release = DispatchSemaphore(value: 0)
        let inlineHeld = try await Self.hold(AppDatabase.inlineReaderCount, release) { body in
            _ = try database.inlineReaders.read { _ in body() }
        }
        let poolHeld = try await Self.hold(database.pool.configuration.maximumReaderCount, release) { body in
            try database.pool.read { _ in body() }
        }
        #expect(database.inlineReaders.freeCount == 0)

        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let users = try await withTaskExecutorPreference(EventLoopTaskExecutor(loop: loop)) {
            loop.execute { for _ in 0..<(inlineHeld.count + poolHeld.count) { release.signal() } }
            return try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM user") }
        }
        #expect(users == 1)
        for holder in inlineHeld + poolHeld {
            #expect(await holder.value, "a reader let go by its own time-out: the read blocked the loop")
        }
        try await group.shutdownGracefully()
    }

    // MARK: - Helpers

    /// A migrated database with one member, ann.
    private static func database() throws -> AppDatabase {
        let database = try AppDatabase.open(path: try temporaryDirectory().appendingPathComponent("inline.sqlite").path)
        try database.pool.write { db in try insertUser("ann", db) }
        return database
    }

    private static func insertUser(_ name: String, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO user (username, username_key, password_hash, created_at) VALUES (?, ?, '', ?)",
            arguments: [name, name, StoredDate(Date())]
        )
    }

    /// `count` threads, each inside `take` (which holds a reader while it runs the body it is given)
    /// until `release` is signalled or 30 s pass; returns once all are inside. Each thread's value
    /// says whether it was released rather than timed out.
    private static func hold(
        _ count: Int, _ release: DispatchSemaphore, _ take: @escaping @Sendable (() -> Void) throws -> Void
    ) async throws -> [Task<Bool, Never>] {
        let inside = DispatchSemaphore(value: 0)
        let holders = (0..<count).map { _ in
            Task<Bool, Never> {
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread {
                        var released = false
                        try? take {
                            inside.signal()
                            released = release.wait(timeout: .now() + 30) == .success
                        }
                        continuation.resume(returning: released)
                    }
                }
            }
        }
        for _ in 0..<count {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    inside.wait()
                    continuation.resume()
                }
            }
        }
        return holders
    }
}
