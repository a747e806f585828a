import Foundation
import GRDB

/// The NYT key's quota (5 requests a minute and 500 a day unless configured otherwise), counted in
/// the database so that a restart does not forget the requests already made.
package struct APIRateLimiter: Sendable {
    enum Decision: Equatable {
        /// Recorded: make the request now.
        case granted
        /// The minute is full; ask again after this many seconds.
        case wait(seconds: Int)
        /// The day is full.
        case exhausted
    }

    let database: AppDatabase
    let clock: WallClock
    var perMinute = 5
    var perDay = 500

    /// Checks both windows and, when there is room, records the request in the same transaction.
    func acquire() async throws -> Decision {
        let now = clock.now()
        return try await database.write { db in
            let dayCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM api_request WHERE requested_at > ?", arguments: [StoredDate(now.addingTimeInterval(-86_400))]) ?? 0
            if dayCount >= perDay { return .exhausted }
            let minute = try StoredDate.fetchAll(
                db, sql: "SELECT requested_at FROM api_request WHERE requested_at > ? ORDER BY requested_at",
                arguments: [StoredDate(now.addingTimeInterval(-60))]
            )
            if minute.count >= perMinute {
                let freeAt = minute[minute.count - perMinute].date.addingTimeInterval(60)
                return .wait(seconds: max(1, Int(freeAt.timeIntervalSince(now).rounded(.up))))
            }
            try db.execute(sql: "INSERT INTO api_request (requested_at) VALUES (?)", arguments: [StoredDate(now)])
            try db.execute(sql: "DELETE FROM api_request WHERE requested_at <= ?", arguments: [StoredDate(now.addingTimeInterval(-86_400))])
            return .granted
        }
    }

    /// Deletes the records that no longer count against either window; run periodically, since
    /// `acquire` tidies only when the catalog makes requests.
    package func deleteExpired() async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-86_400)
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM api_request WHERE requested_at <= ?", arguments: [StoredDate(cutoff)])
            return db.changesCount
        }
    }
}
