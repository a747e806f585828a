import CSQLiteSettings

/// The process's SQLite library, set up before its first connection opens: settings made later
/// are refused (`SQLITE_MISUSE`) and the library keeps its defaults.
enum SQLiteLibrary {
    /// Sets the library up, once a process: ``AppDatabase/open(path:)`` calls it first.
    ///
    /// SQLite counts every allocation by default, under one mutex for the whole process. Two event
    /// loops reading pages at once took it from each other on every `sqlite3_malloc` and
    /// `sqlite3_free`: under the peers' load, two futex calls a request, each a sleep or a wake-up
    /// (Benchmarks/history.md, "One lock for the whole process"). Nothing here reads the count
    /// (`sqlite3_memory_used`, a soft heap limit), so it is turned off.
    static func prepare() {
        _ = prepared
    }

    /// Whether the library counts its allocations now: false after ``prepare()`` ran before any
    /// connection, which is what the tests check.
    static var countsAllocations: Bool {
        let before = sqlite3_memory_used()
        let block = sqlite3_malloc(4096)
        defer { sqlite3_free(block) }
        return sqlite3_memory_used() != before
    }

    private static let prepared: Bool = wishlist_sqlite_count_no_allocations() == SQLITE_OK
}
