import GRDB
import Synchronization

/// Copies the write-ahead log into the database file while an import runs: between its slices, on
/// a connection of its own, with the writer free. SQLite's automatic checkpoint runs inside the
/// commit that crosses `wal_autocheckpoint`, and there one of 4,000 pages held the writer for up
/// to a few hundred milliseconds, which every sign-in and add queued behind; so the writer's own
/// is off while an import runs (``ImportWriterSettings/importing``).
final class ImportCheckpoints: Sendable {
    /// At most one checkpoint this often: each copies what the slices changed since the last and
    /// syncs the file, and a page that every slice changes is copied once a checkpoint.
    static let interval = Duration.milliseconds(500)

    private let path: String
    private let lastBegun = Mutex<ContinuousClock.Instant?>(nil)

    init(path: String) {
        self.path = path
    }

    /// After a slice has committed: a passive checkpoint, unless one began less than `interval`
    /// ago. The import waits for it, so that its next slice finds the log copied and writes it
    /// again from the start; others' writes go in meanwhile. One that cannot run (another
    /// connection is checkpointing) leaves the pages to the next.
    func afterSlice() async {
        let now = ContinuousClock.now
        let due = lastBegun.withLock { last in
            guard last.map({ now - $0 >= Self.interval }) ?? true else { return false }
            last = now
            return true
        }
        if due { try? await checkpoint() }
    }

    private func checkpoint() async throws {
        let connection = try DatabaseQueue(path: path)
        defer { try? connection.close() }
        try await connection.writeWithoutTransaction { db in
            // Synced as every commit is: the log is written over once the file holds its pages.
            try db.execute(sql: AppDatabase.everyCommitSynced)
            try db.checkpoint(.passive)
        }
    }
}
