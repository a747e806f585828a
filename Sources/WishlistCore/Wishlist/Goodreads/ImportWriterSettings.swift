import GRDB

/// How SQLite's one writer connection runs a Goodreads import, and what it goes back to for every
/// other write (docs/decisions/import-writer-settings.md). Measured on 50,000 rows in
/// Benchmarks/history.md, "A 50,000-row import's writes".
enum ImportWriterSettings {
    /// While any import runs. A slice lands its rows in index pages all over the file: with
    /// SQLite's default cache of 2 MB the writer read about 850 MB back from the kernel during one
    /// import, with 16 MiB about 100 MB. And no automatic checkpoint: it ran in whichever commit
    /// crossed the threshold and held the writer meanwhile; ``ImportCheckpoints`` copies the log
    /// between slices instead, beside the writer.
    static let importing = "PRAGMA cache_size = -16384; PRAGMA wal_autocheckpoint = 0"
    /// SQLite's defaults, which every other write runs with.
    static let notImporting = "PRAGMA cache_size = -2000; PRAGMA wal_autocheckpoint = 1000"

    /// Runs `transaction`, one slice of an import or of its rollback, committing without a sync
    /// and with its statement journals in memory, then puts back what every other write commits
    /// with, whether or not the slice failed.
    ///
    /// A row's insert and its triggers change about 16 pages, and within a transaction SQLite
    /// journals their old content for the statement: past 64 KiB it spilled that journal to a
    /// file, about 4.2 GB written over 50,000 rows. The slices' commits are not what the member
    /// is told: a crash of the machine may lose the last of them (never the file's integrity),
    /// and the next start rolls back what their import left; her summary comes from a commit
    /// that syncs, and so does everyone else's write between the slices.
    static func slice<T>(_ db: Database, _ transaction: () throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY")
        let result = Result { try transaction() }
        try db.execute(sql: AppDatabase.everyCommitSynced + "; PRAGMA temp_store = DEFAULT")
        return try result.get()
    }
}
