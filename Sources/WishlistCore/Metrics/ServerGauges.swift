import Foundation
import GRDB

/// The figures `GET /metrics` reads at the moment it is asked: the Argon2 queue, the catalog's
/// freshness, the NYT quota used and the database's size; and the writes' waits for the writer.
package struct ServerGauges: Sendable {
    let database: AppDatabase
    let databasePath: String
    let hasher: PasswordHasher
    let clock: WallClock

    package init(database: AppDatabase, databasePath: String, hasher: PasswordHasher, clock: WallClock) {
        self.database = database
        self.databasePath = databasePath
        self.hasher = hasher
        self.clock = clock
    }

    /// The writes' waits for the database's writer, which the database counts itself.
    package var writerWaits: MetricsRegistry { database.writerWaits }

    package func read() async throws -> [(MetricsRegistry.Metric, Double)] {
        let now = clock.now()
        let (lastSuccess, failures, requests) = try await database.pool.read { db in
            let state = try Row.fetchOne(db, sql: "SELECT last_success_at, consecutive_failures FROM catalog_sync_state WHERE id = 1")
            let requests = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM api_request WHERE requested_at > ?", arguments: [StoredDate(now.addingTimeInterval(-86_400))]) ?? 0
            return (state?.optionalDate("last_success_at"), state?["consecutive_failures"] as Int? ?? 0, requests)
        }
        return [
            (.hashQueue, Double(hasher.admittedCount)),
            (.catalogAge, lastSuccess.map { max(0, now.timeIntervalSince($0).rounded()) } ?? -1),
            (.catalogFailures, Double(failures)),
            (.apiRequestsToday, Double(requests)),
            (.databaseBytes, Double(fileSize(databasePath) + fileSize(databasePath + "-wal"))),
        ]
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
