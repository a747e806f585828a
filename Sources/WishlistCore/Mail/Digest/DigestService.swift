import CivilTime
import Foundation
import GRDB
import Logging
import ServiceLifecycle

/// Queues each member's weekly digest: once a week (weeks start on Monday, in the server's time
/// zone), to members who asked for it and confirmed their address, and only when there is news.
///
/// The week a member was last considered is written in the transaction that queues her digest,
/// so a restart never sends a week's digest twice; a week with no news is marked too, and
/// sends nothing.
public struct DigestService: Service {
    static let checkInterval: Duration = .seconds(3600)

    let database: AppDatabase
    let mailer: Mailer
    let timeZone: ZoneRules
    let clock: WallClock
    let logger: Logger

    package init(database: AppDatabase, mailer: Mailer, timeZone: ZoneRules, clock: WallClock, logger: Logger) {
        self.database = database
        self.mailer = mailer
        self.timeZone = timeZone
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let queued = try await queueDue()
                    if queued > 0 { logger.info("mail: \(queued) weekly digests queued") }
                } catch {
                    logger.error("mail: the weekly digests could not be prepared: \(error)")
                }
                try? await Task.sleep(for: Self.checkInterval)
            }
        }
    }

    /// Considers every member due this week; returns how many digests were queued.
    @discardableResult
    public func queueDue() async throws -> Int {
        let now = clock.now()
        let today = timeZone.localDay(at: now)
        let week = Self.monday(of: today)
        let due = try await database.pool.read { db in
            try UserID.fetchAll(db, sql: """
                SELECT id FROM user WHERE digest_weekly AND email_verified_at IS NOT NULL AND disabled_at IS NULL
                    AND (digest_week IS NULL OR digest_week < ?)
                """, arguments: [week])
        }
        var queued = 0
        for userID in due where try await queueDigest(userID: userID, week: week, today: today, now: now) {
            queued += 1
        }
        if queued > 0 { mailer.wake() }
        return queued
    }

    /// Marks the week done for the member and, when there is news, queues her digest with it.
    private func queueDigest(userID: UserID, week: String, today: (year: Int, month: Int, day: Int), now: Date) async throws -> Bool {
        try await database.write { db in
            // Read again inside the transaction: another process may have done this week already.
            guard try Bool.fetchOne(db, sql: "SELECT digest_week IS NULL OR digest_week < ? FROM user WHERE id = ?", arguments: [week, userID]) == true
            else { return false }
            try db.execute(sql: "UPDATE user SET digest_week = ? WHERE id = ?", arguments: [week, userID])
            let news = try DigestNews.read(userID: userID, editionsFetchedAfter: StoredDate(now.addingTimeInterval(-7 * 86_400)), today: today, db)
            guard !news.isEmpty, let (address, _, name) = try Mailer.recipient(userID: userID, for: .digest, db) else { return false }
            let unsubscribe = mailer.link(mailer.paths.unsubscribe(try UnsubscribeLinks.create(userID: userID, now: now, db)))
            let language = try mailer.languages.translations(forMember: userID, db)
            let content = DigestText.content(news, name: name, unsubscribe: unsubscribe, site: mailer.publicOrigin, paths: mailer.paths, in: language)
            try mailer.queue(content, kind: .digest, to: address, name: name, userID: userID, db)
            return true
        }
    }

    /// `yyyy-MM-dd` of the Monday on or before `day`.
    static func monday(of day: (year: Int, month: Int, day: Int)) -> String {
        let number = CivilDateTime.daysSinceEpoch(year: day.year, month: day.month, day: day.day)
        // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
        let monday = number - ((number + 3) % 7 + 7) % 7
        return CivilDateTime(Date(timeIntervalSince1970: TimeInterval(monday) * 86_400)).isoDate
    }
}

/// The one-click links of RFC 8058 in every digest: anyone holding one can stop that member's
/// digest without signing in, and nothing else. Kept hashed, like every link token.
public struct UnsubscribeLinks: Sendable {
    /// An old digest's link keeps working this long.
    static let keptFor: TimeInterval = 180 * 86_400

    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    static func create(userID: UserID, now: Date, _ db: Database) throws -> String {
        let token = SecureRandom.token()
        try db.execute(
            sql: "INSERT INTO unsubscribe_link (token_hash, user_id, created_at) VALUES (?, ?, ?)",
            arguments: [SessionStore.fingerprint(token), userID, StoredDate(now)]
        )
        return token
    }

    /// Whether the token is a digest's link; for the page that offers the button.
    public func isValid(token: String) async throws -> Bool {
        guard token.utf8.count == 43 else { return false }
        return try await database.pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM unsubscribe_link WHERE token_hash = ?", arguments: [SessionStore.fingerprint(token)]) == true
        }
    }

    /// Turns the digest off for the link's member; false for an unknown token.
    public func unsubscribe(token: String) async throws -> Bool {
        guard token.utf8.count == 43 else { return false }
        return try await database.write { db in
            guard let userID = try UserID.fetchOne(
                db, sql: "SELECT user_id FROM unsubscribe_link WHERE token_hash = ?", arguments: [SessionStore.fingerprint(token)]
            ) else { return false }
            try db.execute(sql: "UPDATE user SET digest_weekly = 0 WHERE id = ?", arguments: [userID])
            return true
        }
    }

    public func deleteExpired(now: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM unsubscribe_link WHERE created_at <= ?", arguments: [StoredDate(now.addingTimeInterval(-Self.keptFor))])
            return db.changesCount
        }
    }
}
