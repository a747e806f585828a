import ArgumentParser
import Foundation
import Logging
import WishlistCore
import WishlistWeb

#if canImport(CMalloc)
import CMalloc
#endif

/// `wishlist`: serve the app (the default), migrate the database, manage users.
struct WishlistCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wishlist",
        abstract: "Browse the New York Times best-seller lists and keep a wishlist of books.",
        subcommands: [Serve.self, Migrate.self, Sync.self, Backup.self, UserCommand.self, MailCommand.self],
        defaultSubcommand: Serve.self
    )
}

/// Options every subcommand shares: where the configuration and the database are.
struct ConfigOptions: ParsableArguments {
    @Option(help: "Configuration file (default: config.json in the current directory, when present).")
    var config: String?

    @Option(help: "SQLite database file (overrides database.path).")
    var database: String?

    /// The configuration from defaults, file, environment, then these flags.
    func load(extra overrides: [String: String] = [:]) throws -> AppConfig {
        var flags = overrides
        if let database { flags["database.path"] = database }
        return try ConfigLoader.load(file: config ?? "config.json", fileIsRequired: config != nil, overrides: flags)
    }

    /// The configuration, and its database opened and migrated.
    func openDatabase() throws -> (AppConfig, AppDatabase) {
        let config = try load()
        return (config, try AppDatabase.open(path: config.database.path))
    }
}

func makeLogger(_ config: AppConfig, sink: LogSink = .standardError) -> Logger {
    LoggingSystem.bootstrap { label in LineLogHandler(label: label, level: config.server.logLevel, sink: sink) }
    return Logger(label: "wishlist")
}

struct Serve: ExecutableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the web app (the default command).")

    @OptionGroup var options: ConfigOptions

    @Option(help: "Address to listen on (overrides server.host).")
    var host: String?

    @Option(help: "Port to listen on (overrides server.port).")
    var port: Int?

    @Flag(help: "Re-read templates from Views/ when they change (overrides server.devMode).")
    var dev = false

    func execute() async throws {
        var overrides: [String: String] = [:]
        if let host { overrides["server.host"] = host }
        if let port { overrides["server.port"] = String(port) }
        if dev { overrides["server.devMode"] = "true" }
        let config = try options.load(extra: overrides)
        // The access log's lines go out in batches, one `write` for many (`LogSink`).
        let sink = LogSink(descriptor: 2, batchDelay: .milliseconds(10))
        defer { sink.flush() }
        let logger = makeLogger(config, sink: sink)
        #if canImport(CMalloc)
        // Each Argon2 hash allocates `accounts.argon2.memoryKiB` (19 MiB). glibc's default raises its
        // mmap threshold after such blocks are freed and then keeps them on the heap, so resident
        // memory never comes down after a burst of sign-ins; a fixed threshold returns them.
        if mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024) == 0 {
            logger.warning("glibc refused a fixed mmap threshold: memory freed after sign-ins may stay resident")
        }
        // Fixing the mmap threshold also fixes the trim threshold, at 128 KiB: a page's buffers and
        // zlib's 256 KiB of state, freed at the top of an arena, went back to the kernel after
        // nearly every request and were faulted in again by the next, a third of a cached page's
        // CPU (Benchmarks/history.md, "Household mix"). Up to 1 MiB an arena now stays for the next.
        if mallopt(M_TRIM_THRESHOLD, 1024 * 1024) == 0 {
            logger.warning("glibc refused a trim threshold: each page's buffers may be given back and faulted in again")
        }
        #endif
        let server = try await WishlistServer.build(config: config, logger: logger)
        logger.info("serving on http://\(config.server.host):\(config.server.port)")
        try await printSetupLink(config: config, database: server.database, logger: logger)
        // Stops cleanly on SIGTERM and SIGINT: open requests finish, then the process exits.
        try await server.application.runService()
    }

    /// While the server has no admin, a new setup link (``SetupLinks``) on standard output, the
    /// console or the service's journal: whoever started the server opens it to make the first
    /// admin. The log says only that it was printed, so no log file or shipper holds its token.
    private func printSetupLink(config: AppConfig, database: AppDatabase, logger: Logger) async throws {
        guard let token = try await SetupLinks(database: database, clock: .system).renew() else { return }
        let link = config.server.publicOrigin + "/setup/" + token
        FileHandle.standardOutput.write(Data("""
            This server has no admin yet. Open this link to create the first admin account (it works once):
              \(link)

            """.utf8))
        logger.notice("no admin yet: a setup link was printed on standard output; it makes the first admin")
    }
}

struct Migrate: ExecutableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database to the current schema, then exit.")

    @OptionGroup var options: ConfigOptions

    func execute() async throws {
        let (config, database) = try options.openDatabase()
        print("database \(config.database.path) is at migration \(try database.appliedMigrations().last ?? "none")")
    }
}

struct Sync: ExecutableCommand {
    static let configuration = CommandConfiguration(abstract: "Refresh the catalog once, showing progress, then exit.")

    @OptionGroup var options: ConfigOptions

    @Option(help: "Also fetch the N editions before the current one of every current list (resumable).")
    var history: Int?

    func validate() throws {
        if let history, !(1...1040).contains(history) { throw ValidationError("--history must be from 1 to 1040, got \(history).") }
    }

    func execute() async throws {
        let (config, database) = try options.openDatabase()
        let sync = CatalogSync.make(config: config, database: database, logger: makeLogger(config)) { seconds in
            guard Self.isTerminal else { return try await Task.sleep(for: .seconds(seconds)) }
            // Counts the wait for the NYT's per-minute quota down on one line.
            for remaining in stride(from: seconds, to: 0, by: -1) {
                FileHandle.standardOutput.write(Data("\r\u{1B}[Kwaiting for the NYT rate limit: \(remaining) s".utf8))
                try await Task.sleep(for: .seconds(1))
            }
            FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8))
        }
        print(config.nyt.apiKey.isEmpty ? "no NYT API key: loading the bundled sample catalog" : "refreshing from \(config.nyt.baseURL)")
        let report = await sync.refresh { event in
            switch event {
            case .fetching(let what, let done, let total):
                print("[\(done)/\(total)] fetching \(what)")
            case .waitingForRateLimit(let seconds):
                print("the NYT allows 5 requests a minute: waiting \(seconds) s")
            }
        }
        print("\(report.listsUpdated) lists updated with \(report.requests) API requests")
        if let error = report.error {
            throw SyncFailure(description: "refresh failed: \(error.phrase) (\(report.cause ?? "no detail")); the cached catalog is unchanged")
        }
        if let history {
            try await backfill(sync, editions: history, config: config)
        }
    }

    /// A bar redrawn in place only makes sense to a person watching; logs get plain lines.
    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The back-fill, with its cost planned and printed first.
    private func backfill(_ sync: CatalogSync, editions: Int, config: AppConfig) async throws {
        let cost = try await sync.backfillCost(editions: editions)
        let perMinute = config.nyt.requestsPerMinute
        let minutes = sync.servesSample ? 0 : (cost + perMinute - 1) / perMinute
        print("back-fill: at most \(cost) requests, about \(minutes) minutes at \(perMinute) a minute")
        let display = BackfillProgress(perMinute: perMinute, started: Date())
        let report = await sync.backfill(editions: editions) { event in
            switch event {
            case .fetching(let what, let done, let total) where Self.isTerminal:
                FileHandle.standardOutput.write(Data("\r\u{1B}[K\(display.terminalLine(what: what, done: done, total: total, now: Date()))".utf8))
            case .fetching(let what, let done, let total):
                print(display.plainLine(what: what, done: done, total: total))
            case .waitingForRateLimit(let seconds) where !Self.isTerminal:
                print("waiting \(seconds) s for the NYT rate limit")
            case .waitingForRateLimit:
                break
            }
        }
        if Self.isTerminal { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
        if report.refusedEditions > 0 {
            print("\(report.refusedEditions) editions were not stored: a book in them could not be read (see the log)")
        }
        print("back-fill made \(report.requests) API requests")
        if let error = report.error {
            throw SyncFailure(description: "back-fill stopped: \(error.phrase) (\(report.cause ?? "no detail")); what it stored stays, and the next run continues from there")
        }
    }
}

struct SyncFailure: Error, CustomStringConvertible {
    let description: String
}

struct Backup: ExecutableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the database to PATH, safely while the server runs, then exit.",
        discussion: """
            The copy is checked with SQLite's integrity check and renamed into place only when whole. \
            With --keep N, PATH is a folder: the copy is named wishlist-YYYYMMDD-HHMMSS.sqlite (UTC) \
            and all but the newest N such copies there are deleted.
            """
    )

    @OptionGroup var options: ConfigOptions

    @Argument(help: "The backup file to write (replaced if it exists), or with --keep the folder to write into.")
    var path: String

    @Option(help: "Keep this many timestamped backups in the folder PATH (at least 1).")
    var keep: Int?

    func validate() throws {
        if let keep, keep < 1 { throw ValidationError("--keep must be at least 1, got \(keep).") }
    }

    func execute() async throws {
        let (config, database) = try options.openDatabase()
        let written: String
        if let keep {
            written = try DatabaseBackup.rotate(database, into: path, keep: keep, now: Date())
        } else {
            try DatabaseBackup.write(database, to: path)
            written = path
        }
        print("backed up \(config.database.path) to \(written) (integrity check: ok)")
    }
}
