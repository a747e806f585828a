import Foundation
import GRDB

/// The application's one SQLite file: a WAL-mode `DatabasePool` (one writer, concurrent readers),
/// migrated to the current schema when it opens.
///
/// Request handlers read through ``read(_:)`` (a page's short read, in the handler's thread when
/// an inline reader is free: ``InlineReaders``) or the async `pool.read`, and write through
/// ``write(_:)``; none of them waits on an event loop.
public struct AppDatabase: Sendable {
    public let pool: DatabasePool
    let inlineReaders: InlineReaders
    /// Whether anything was committed since an earlier look: what lets a page read be reused
    /// (``PageReadMemo``).
    public let changes: DatabaseChangeProbe
    /// How long each ``write(_:)`` waited for SQLite's one writer before it began: what a Goodreads
    /// import's slices, and everyone else's synced commits, cost a write. `/metrics` reports it.
    public let writerWaits = MetricsRegistry()

    /// A request's read, `body` in one read transaction: on an inline reader in this thread when
    /// one is free at once, else through the pool (``InlineReaders``). Keep it to queries, short
    /// ones: it may hold the request's event loop while it runs, and may run twice.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if let value = try inlineReaders.read(body) { return value }
        return try await pool.read(body)
    }

    /// `pool.write`, with its wait for the writer counted in ``writerWaits``. (A Goodreads import's
    /// slices take the writer without it: they are what the others wait for.)
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        let asked = ContinuousClock.now
        return try await pool.write { [writerWaits] db in
            writerWaits.observe(.databaseWriteWait, value: Self.seconds(ContinuousClock.now - asked))
            return try updates(db)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Opens (creating if needed) the database at `path`, then runs pending migrations.
    public static func open(path: String) throws -> AppDatabase {
        SQLiteLibrary.prepare()
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try PrivateFile.createIfMissing(at: path)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction { try $0.execute(sql: everyCommitSynced) }
        try refuseNewerSchema(pool, path: path)
        try migrator.migrate(pool)
        // Opened on the migrated schema: GRDB keeps a connection's view of the schema until the
        // connection itself changes it, and these never write.
        return AppDatabase(
            pool: pool,
            inlineReaders: try InlineReaders(path: path, configuration: configuration, count: inlineReaderCount),
            changes: try DatabaseChangeProbe(path: path)
        )
    }

    /// A database that a newer version of the app has migrated: this binary does not know its
    /// tables, so it neither migrates nor serves it, and writes nothing to it.
    public struct NewerSchema: Error, CustomStringConvertible {
        public let path: String
        public let found: String
        public let known: String

        public var description: String {
            "the database \(path) was made by a newer version of the app (schema \(found)); this version knows up to \(known): "
                + "run the newer version, or restore a backup made by this one"
        }
    }

    private static func refuseNewerSchema(_ pool: DatabasePool, path: String) throws {
        let applied = try pool.read { try migrator.appliedIdentifiers($0) }
        let unknown = applied.subtracting(migrator.migrations)
        guard unknown.isEmpty else {
            throw NewerSchema(path: path, found: unknown.sorted { $0.compare($1, options: .numeric) == .orderedAscending }.last!, known: migrator.migrations.last!)
        }
    }

    /// Applies every migration not yet recorded in the database, each in its own transaction.
    public func migrate() throws {
        try Self.migrator.migrate(pool)
    }

    /// Whether the database answers a query: the health check.
    package func answers() async -> Bool {
        (try? await pool.read { try Int.fetchOne($0, sql: "SELECT 1") }) == 1
    }

    /// Identifiers of the migrations this database has applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try pool.read { try Self.migrator.appliedMigrations($0) }
    }

    /// GRDB sets synchronous=NORMAL on the writer when it enables WAL. Only the writer commits,
    /// and with FULL every commit is synced: an acknowledged write survives a crash of the
    /// process and of the machine. (An import's slices alone commit unsynced, and put this back:
    /// `ImportWriterSettings`.)
    static let everyCommitSynced = "PRAGMA synchronous = FULL"

    /// One inline reader for each thread that handles requests (Hummingbird's event loops, one a
    /// core): one is free for each loop unless something else holds it.
    static var inlineReaderCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// How long a connection waits for another's lock before SQLITE_BUSY.
    static let busyTimeout: TimeInterval = 5

    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Writers queue behind each other for a while instead of failing at once with SQLITE_BUSY.
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { db in
            // What is deleted is overwritten with zeros, in its pages and in the pages freed: a
            // deleted account's words do not wait in the file for something to reuse the space.
            // Debian's SQLite does this by default; SQLite's own default (macOS's) does not.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        return configuration
    }
}
