import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// The change probe once opened the WAL index (`-shm`) with a descriptor of its own and closed
/// it at once, which made POSIX drop every lock the process held on that file, SQLite's included.
/// Another process opening the database then took itself for the only one and truncated the
/// index under the server, which died of SIGBUS. Another process must find the index in use.
@Suite("Storage: the WAL index stays locked while the database is open", .removesTemporaryDirectories)
struct WALIndexLockTests {
    /// Whether another process gets an exclusive lock on the index's "dead man switch" byte
    /// (offset 128: SQLite's eight lock bytes start at 120), which SQLite holds shared while
    /// any connection of a process has the index open.
    static func anotherProcessMayClaimTheIndex(_ path: String) throws -> Bool {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c",
            "import fcntl, os, sys\nfd = os.open(sys.argv[1], os.O_RDWR)\ntry:\n    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128)\nexcept OSError:\n    sys.exit(3)\n",
            path,
        ]
        try python.run()
        python.waitUntilExit()
        #expect([0, 3].contains(python.terminationStatus), "python3 could not run the check")
        return python.terminationStatus == 0
    }

    @Test func anOpenDatabaseKeepsItsIndexFromOtherProcesses() async throws {
        let path = try temporaryDirectory().appendingPathComponent("wishlist.sqlite").path
        let database = try AppDatabase.open(path: path)
        try await database.pool.write { try $0.execute(sql: "INSERT INTO secret (name, value) VALUES ('probe', x'00')") }
        #expect(database.changes.readsTheWALIndex)
        _ = database.changes.version()
        #expect(try !Self.anotherProcessMayClaimTheIndex(path + "-shm"))
        _ = try await database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM secret") }
        #expect(try !Self.anotherProcessMayClaimTheIndex(path + "-shm"), "still after reads")
    }
}
