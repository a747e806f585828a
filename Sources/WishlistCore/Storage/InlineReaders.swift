import GRDB
import GRDBSQLite
import Synchronization

/// Read-only connections on which a page's read runs in the thread that asks for it.
///
/// GRDB's async `pool.read` crosses threads three times: to the pool's queue that waits for a
/// reader, to the reader's own queue, and back to the request's event loop. For the short reads
/// a page makes, those wake-ups cost about as much as the queries. Here a read takes a free
/// connection and runs on the caller's thread, as the page's rendering does after it.
///
/// It never waits, for anything. When every connection is in use it answers nil and the caller
/// reads through the pool. A connection that would have to wait for a lock (SQLITE_BUSY: another
/// process holding the database, a log being recovered) fails at once, without a busy handler,
/// and the caller reads through the pool too, where waiting holds no event loop. A caller's thread
/// waiting here for a connection, while the connections' holders needed that thread to give theirs
/// back, is how one experiment stopped the whole server (Benchmarks/history.md).
final class InlineReaders: Sendable {
    private let free: Mutex<[DatabaseQueue]>

    /// Opens `count` read-only connections to the database at `path`, which the pool has made.
    init(path: String, configuration: Configuration, count: Int) throws {
        var readOnly = configuration
        readOnly.readonly = true
        readOnly.label = "inline reader"
        let connections = try (0..<count).map { _ in try DatabaseQueue(path: path, configuration: readOnly) }
        // Opening waits for a lock as the pool does (the server is not answering yet); every read
        // after it gives up at once.
        for connection in connections {
            connection.inDatabase { db in _ = sqlite3_busy_timeout(db.sqliteConnection, 0) }
        }
        free = Mutex(connections)
    }

    /// `body` in one read transaction on a free connection, run in this thread; nil, without
    /// running it to the end, when no connection is free or the one taken would have to wait.
    /// `body` must only read: it may be run again elsewhere.
    func read<T>(_ body: (Database) throws -> T) throws -> T? {
        guard let connection = take() else { return nil }
        defer { give(back: connection) }
        do {
            return try connection.read(body)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            return nil
        }
    }

    /// How many connections are free now: what the tests check.
    var freeCount: Int { free.withLock { $0.count } }

    private func take() -> DatabaseQueue? {
        free.withLock { $0.popLast() }
    }

    private func give(back connection: DatabaseQueue) {
        free.withLock { $0.append(connection) }
    }
}
