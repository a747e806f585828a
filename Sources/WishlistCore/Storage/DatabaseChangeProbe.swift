import GRDBSQLite
import Synchronization

/// Tells whether anything was committed to the database since an earlier look, by this process or
/// any other (`wishlist user …` from a shell included).
///
/// SQLite's `PRAGMA data_version` on a connection of the probe's own, which never writes: its value
/// changes whenever another connection commits. Reading it is a look at the write-ahead log's
/// shared-memory index, a few microseconds, with no wait: the probe gives up at once when the
/// database is busy (no busy timeout), and callers then read as if the version had changed.
public final class DatabaseChangeProbe: Sendable {
    private let connection: Mutex<Connection>

    /// Opens a connection to the database at `path`, which must exist (the pool created it).
    init(path: String) throws {
        connection = Mutex(try Connection(path: path))
    }

    /// The database's current version, or nil when SQLite could not say at once. Versions are
    /// comparable only with others from the same probe.
    public func version() -> Int64? {
        connection.withLock { $0.dataVersion() }
    }

    /// One SQLite connection and its prepared statement; used only under the probe's lock.
    private final class Connection: @unchecked Sendable {
        private let db: OpaquePointer
        private let statement: OpaquePointer

        init(path: String) throws {
            var db: OpaquePointer?
            let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
            guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK, let db else {
                sqlite3_close(db)
                throw DatabaseChangeProbeError.cannotOpen(path)
            }
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &statement, nil) == SQLITE_OK, let statement else {
                sqlite3_close(db)
                throw DatabaseChangeProbeError.cannotOpen(path)
            }
            self.db = db
            self.statement = statement
        }

        deinit {
            sqlite3_finalize(statement)
            sqlite3_close(db)
        }

        func dataVersion() -> Int64? {
            defer { sqlite3_reset(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
            return sqlite3_column_int64(statement, 0)
        }
    }
}

enum DatabaseChangeProbeError: Error, CustomStringConvertible {
    case cannotOpen(String)

    var description: String {
        switch self {
        case .cannotOpen(let path): "cannot open \(path) to watch it for changes"
        }
    }
}
