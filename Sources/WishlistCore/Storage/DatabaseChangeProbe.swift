import Foundation
import GRDBSQLite
import Synchronization

/// Tells whether anything was committed to the database since an earlier look, by this process or
/// any other (`wishlist user …` from a shell included).
///
/// Every commit in WAL mode rewrites the header of the write-ahead log's index, the `-shm` file
/// every connection maps: a transaction counter, the last valid frame, checksums
/// (https://www.sqlite.org/walformat.html, "The WAL-Index Header"). The probe maps that file
/// read-only and compares the header with the one it saw last, as SQLite's own readers do before
/// each transaction: two plain reads of 48 bytes, where asking SQLite (`PRAGMA data_version`)
/// takes and drops two file locks, four system calls that were 4% of a page's CPU. The header
/// is written twice, the second copy last, so a header caught mid-commit has copies that differ;
/// the probe then answers nil, as for a busy database, and callers read as if it had changed.
///
/// When the index is not in the documented format (another `iVersion`, or no `-shm` because the
/// database is not in WAL mode), the probe asks `PRAGMA data_version` instead. Its own connection
/// stays open either way: while any connection of the process has the index open, no other
/// process may truncate or recreate it, so the mapping stays valid.
public final class DatabaseChangeProbe: Sendable {
    private let state: Mutex<State>

    /// Opens a connection to the database at `path`, which must exist (the pool created it).
    init(path: String) throws {
        let connection = try Connection(path: path)
        // A first look opens the connection's view of the index, which keeps it in place.
        _ = connection.dataVersion()
        state = Mutex(State(connection: connection, index: WALIndex(path: path + "-shm")))
    }

    /// The database's current version, or nil when it could not be told at once. Versions only
    /// grow, and are comparable only with others from the same probe.
    public func version() -> Int64? {
        state.withLock { $0.version() }
    }

    /// Whether versions come from the mapped index rather than from SQLite: what the tests check,
    /// so a silent fall-back to the slower path is noticed.
    var readsTheWALIndex: Bool {
        state.withLock { $0.index != nil }
    }

    private struct State {
        let connection: Connection
        let index: WALIndex?
        /// The header seen last, and how many different headers were seen before it.
        var lastHeader = WALIndex.Header()
        var headersSeen: Int64 = 0

        mutating func version() -> Int64? {
            guard let index else { return connection.dataVersion() }
            guard let header = index.header() else { return nil }
            if header != lastHeader {
                lastHeader = header
                headersSeen += 1
            }
            return headersSeen
        }
    }

    /// The first page of the `-shm` file, mapped read-only and shared, so the writer's stores are
    /// seen as they happen.
    private final class WALIndex: @unchecked Sendable {
        /// The header's 48 bytes as twelve native-endian words; word 0 is `iVersion`, and byte 12
        /// (`isInit`) is set once the header is valid.
        struct Header: Equatable {
            var words: InlineArray<12, UInt32> = InlineArray(repeating: 0)

            static func == (lhs: Header, rhs: Header) -> Bool {
                for index in 0..<12 where lhs.words[index] != rhs.words[index] { return false }
                return true
            }
        }

        /// The only `iVersion` whose layout is documented, and SQLite's since WAL mode began.
        static let knownVersion: UInt32 = 3_007_000
        private static let headerBytes = 48
        private static let mappedBytes = 4096

        private let base: UnsafeRawPointer
        /// Open for as long as the mapping lives, and closed only with it. POSIX drops *every*
        /// lock a process holds on a file when it closes *any* descriptor of that file: closing
        /// this one right after mapping released SQLite's own locks on the index, so the next
        /// process to open the database (`wishlist backup`) believed it was the only one,
        /// truncated the index under the server's mapping, and the server died of SIGBUS in
        /// SQLite (the backup test, about one run in three).
        private let descriptor: Int32

        /// Nil when the file is missing, shorter than both copies of the header, or not in the
        /// documented format.
        init?(path: String) {
            // Checked before opening: a descriptor of ours, once open, is never closed early.
            var status = stat()
            guard stat(path, &status) == 0, status.st_size >= 2 * Self.headerBytes else { return nil }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            // On the failures below the descriptor is left open, for the reason above: one
            // descriptor per database the process opens, in a format SQLite no longer writes.
            guard let mapping = mmap(nil, Self.mappedBytes, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else {
                return nil
            }
            guard let header = Self.header(at: UnsafeRawPointer(mapping)), header.words[0] == Self.knownVersion else {
                munmap(mapping, Self.mappedBytes)
                return nil
            }
            self.descriptor = descriptor
            base = UnsafeRawPointer(mapping)
        }

        deinit {
            munmap(UnsafeMutableRawPointer(mutating: base), Self.mappedBytes)
            // The probe lives as long as its database: by now the pool's connections are closing too.
            close(descriptor)
        }

        /// The header, or nil while a commit is writing it (its two copies differ) or before it
        /// was ever written.
        func header() -> Header? { Self.header(at: base) }

        /// Copy 0 first, as SQLite reads them: the writer stores copy 1 first.
        private static func header(at base: UnsafeRawPointer) -> Header? {
            let first = copy(at: 0, of: base)
            atomicMemoryFence(ordering: .acquiring)
            let second = copy(at: headerBytes, of: base)
            guard first == second, base.load(fromByteOffset: 12, as: UInt8.self) != 0 else { return nil }
            return first
        }

        private static func copy(at offset: Int, of base: UnsafeRawPointer) -> Header {
            var header = Header()
            for word in 0..<12 {
                header.words[word] = base.loadUnaligned(fromByteOffset: offset + 4 * word, as: UInt32.self)
            }
            return header
        }
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

        /// SQLite's data version: it changes whenever another connection commits. A look at the
        /// index under a read lock, with no wait: nil at once when the database is busy (no
        /// busy timeout).
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
