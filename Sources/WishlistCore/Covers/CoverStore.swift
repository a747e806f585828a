import Foundation
import GRDB

/// What the `cover` table (migration 19) says of each image URL a page may show.
package struct CoverStore: Sendable {
    package enum Status: String, Sendable {
        case pending, ready, failed, evicted
    }

    package struct Cover: Sendable, Equatable {
        package let url: String
        package let key: String
        package let status: Status
        package let failures: Int
        package let retryAt: Date?
    }

    /// The longest a cover that keeps failing waits between tries.
    static let longestRetry: TimeInterval = 24 * 3600
    /// The first wait after a failure.
    static let shortestRetry: TimeInterval = 300

    let database: AppDatabase

    package init(database: AppDatabase) {
        self.database = database
    }

    /// Gives every row the triggers added its key, which SQL cannot compute.
    package func keyNewCovers() async throws {
        try await database.write { db in
            let urls = try String.fetchAll(db, sql: "SELECT url FROM cover WHERE key IS NULL")
            for url in urls {
                try db.execute(sql: "UPDATE cover SET key = ? WHERE url = ?", arguments: [CoverKey.of(url), url])
            }
        }
    }

    /// Records a URL a page is about to show (an Open Library result): the cover job fetches it
    /// like the others.
    package func want(_ url: String) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO cover (url, key) VALUES (?, ?)", arguments: [url, CoverKey.of(url)])
        }
    }

    package func cover(key: String) async throws -> Cover? {
        try await database.pool.read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM cover WHERE key = ?"), arguments: [key]).map(Self.cover)
        }
    }

    /// Covers to fetch now, those never tried first.
    package func due(at now: Date, limit: Int) async throws -> [Cover] {
        try await database.pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM cover WHERE status IN ('pending', 'failed') AND key IS NOT NULL AND (retry_at IS NULL OR retry_at <= ?)
                    ORDER BY retry_at IS NOT NULL, retry_at LIMIT ?
                    """,
                arguments: [StoredDate(now), limit]
            ).map(Self.cover)
        }
    }

    /// The keys whose files should be in the cache.
    package func readyKeys() async throws -> [String] {
        try await database.pool.read { db in try String.fetchAll(db, sql: "SELECT key FROM cover WHERE status = 'ready'") }
    }

    package func markReady(_ url: String, largeHeight: Int, at now: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE cover SET status = 'ready', failures = 0, retry_at = NULL, large_height = ?, fetched_at = ? WHERE url = ?",
                arguments: [largeHeight, StoredDate(now), url]
            )
        }
    }

    /// Shown as the placeholder, and tried again after a wait that doubles with each failure:
    /// five minutes, ten, … a day at most.
    package func markFailed(_ cover: Cover, at now: Date) async throws {
        let wait = min(Self.longestRetry, Self.shortestRetry * pow(2, Double(min(cover.failures, 16))))
        try await database.write { db in
            try db.execute(
                sql: "UPDATE cover SET status = 'failed', failures = failures + 1, retry_at = ? WHERE url = ?",
                arguments: [StoredDate(now.addingTimeInterval(wait)), cover.url]
            )
        }
    }

    /// The cover was fine but our disk would not keep it: tried again after the shortest wait,
    /// however often that happens, so that covers come back soon after the disk has room.
    package func markWaitingForDisk(_ cover: Cover, at now: Date) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE cover SET status = 'failed', retry_at = ? WHERE url = ?",
                arguments: [StoredDate(now.addingTimeInterval(Self.shortestRetry)), cover.url]
            )
        }
    }

    /// Ready or evicted covers whose files are gone (deleted to make room, or a restored
    /// backup, which carries the table but not the folder): fetched again when next wanted.
    package func markEvicted(keys: [String]) async throws {
        guard !keys.isEmpty else { return }
        try await database.write { db in
            try db.execute(
                sql: "UPDATE cover SET status = 'evicted' WHERE key IN (SELECT value FROM json_each(?))", arguments: [JSONText.array(of: keys)]
            )
        }
    }

    /// An evicted cover a page asked for again: due now.
    package func fetchAgain(key: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE cover SET status = 'pending', retry_at = NULL WHERE key = ? AND status = 'evicted'", arguments: [key])
        }
    }

    private static func cover(_ row: Row) -> Cover {
        Cover(
            url: row["url"], key: row["key"], status: Status(rawValue: row["status"]) ?? .pending, failures: row["failures"],
            retryAt: row.optionalDate("retry_at")
        )
    }
}
