import Foundation
import GRDB

/// What `/admin` shows about the server itself: the catalog's refresh state, the NYT quota used,
/// the database's size and the version.
public struct ServerFacts: Sendable, Equatable {
    public static let version = "0.2.0"

    public let lastRefreshAttempt: Date?
    public let lastRefreshSuccess: Date?
    public let lastRefreshError: String?
    public let consecutiveFailures: Int
    public let apiRequestsLastDay: Int
    public let databaseBytes: Int

    public static func read(_ database: AppDatabase, path: String, now: Date) async throws -> ServerFacts {
        let (state, requests) = try await database.pool.read { db in
            let state = try Row.fetchOne(db, sql: "SELECT * FROM catalog_sync_state WHERE id = 1").map {
                ($0.optionalDate("last_attempt_at"), $0.optionalDate("last_success_at"), $0["last_error"] as String?, $0["consecutive_failures"] as Int)
            }
            let requests = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM api_request WHERE requested_at > ?", arguments: [StoredDate(now.addingTimeInterval(-86_400))]) ?? 0
            return (state, requests)
        }
        let size = [path, path + "-wal"].reduce(0) { total, file in
            total + (((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int) ?? 0)
        }
        return ServerFacts(
            lastRefreshAttempt: state?.0, lastRefreshSuccess: state?.1, lastRefreshError: state?.2, consecutiveFailures: state?.3 ?? 0,
            apiRequestsLastDay: requests, databaseBytes: size
        )
    }
}
