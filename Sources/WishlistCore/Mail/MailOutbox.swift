import Foundation
import GRDB

/// Every message is a row here before anyone tries to send it, written in the transaction that
/// makes what it announces (a link, an invite), so a crash loses neither. ``MailSender`` takes
/// the rows that are due; a message leaves the queue as sent, or as failed after a 5xx reply or
/// a day of tries.
///
/// A message is stored sealed under the ``OutboxKey``, which is not in the database, and emptied
/// once it leaves the queue: what stays for `/admin` (kind, recipient, times, the server's words)
/// holds no link.
public struct MailOutbox: Sendable {
    public enum Kind: String, Sendable {
        case verification, passwordReset = "password-reset", invite, digest, test
        /// To a confirmed address that another account was given (``AccountMail``).
        case addressInUse = "address-in-use"
    }

    /// A message that is due, as ``MailSender`` needs it.
    struct Pending: Sendable {
        let id: MailID
        let recipient: String
        /// Nil when it does not open under this server's key (the database was moved without it).
        let message: [UInt8]?
        let createdAt: Date
        let attempts: Int
    }

    /// A row for `/admin`: what waits and what failed, with the server's last words.
    public struct Entry: Sendable, Equatable {
        public let id: MailID
        public let kind: String
        public let recipient: String
        public let createdAt: Date
        public let attempts: Int
        public let nextAttemptAt: Date
        public let state: String
        public let lastReply: String?
    }

    /// The first retry waits a minute, each next one twice as long as the one before, and a
    /// message still unsent a day after it was written is given up.
    static let firstRetry: TimeInterval = 60
    static let giveUpAfter: TimeInterval = 86_400
    /// Sent and failed rows are kept this long for `/admin`, then deleted.
    static let keptFor: TimeInterval = 30 * 86_400

    let database: AppDatabase
    let clock: WallClock
    let key: OutboxKey

    public init(database: AppDatabase, clock: WallClock, key: OutboxKey) {
        self.database = database
        self.clock = clock
        self.key = key
    }

    static func insert(_ message: [UInt8], sealedWith key: OutboxKey, kind: Kind, userID: UserID?, recipient: MailAddress, now: Date, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO mail_outbox (kind, user_id, recipient, message, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [kind.rawValue, userID, recipient.text, Data(try key.seal(message)), StoredDate(now), StoredDate(now)]
        )
    }

    func due(limit: Int = 20) async throws -> [Pending] {
        let now = clock.now()
        return try await database.pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT id, recipient, message, created_at, attempts FROM mail_outbox WHERE state = 'waiting' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?",
                arguments: [StoredDate(now), limit]
            ).map { row in
                Pending(id: row["id"], recipient: row["recipient"], message: key.open(Array(row["message"] as Data)), createdAt: row.date("created_at"), attempts: row["attempts"])
            }
        }
    }

    /// When the next waiting message is due, if any waits.
    func nextDue() async throws -> Date? {
        try await database.pool.read { db in
            try StoredDate.fetchOne(db, sql: "SELECT MIN(next_attempt_at) FROM mail_outbox WHERE state = 'waiting'")?.date
        }
    }

    /// At start: whatever waits is tried at once (the server may have been fixed meanwhile).
    func makeWaitingDue() async throws {
        let now = clock.now()
        try await database.write { db in
            try db.execute(sql: "UPDATE mail_outbox SET next_attempt_at = ? WHERE state = 'waiting' AND next_attempt_at > ?", arguments: [StoredDate(now), StoredDate(now)])
        }
    }

    func markSent(_ pending: Pending, reply: String) async throws {
        try await finish(pending, state: "sent", reply: reply)
    }

    func markFailed(_ pending: Pending, reply: String) async throws {
        try await finish(pending, state: "failed", reply: reply)
    }

    /// Schedules the next try, or fails the message when that try would come after a day.
    /// Returns whether it will be tried again.
    func markForRetry(_ pending: Pending, reply: String) async throws -> Bool {
        let now = clock.now()
        let wait = Self.firstRetry * pow(2, Double(min(pending.attempts, 20)))
        let next = now.addingTimeInterval(wait)
        guard next.timeIntervalSince(pending.createdAt) <= Self.giveUpAfter else {
            try await finish(pending, state: "failed", reply: "gave up after a day of tries; the last: " + reply)
            return false
        }
        try await database.write { db in
            try db.execute(
                sql: "UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_reply = ? WHERE id = ?",
                arguments: [StoredDate(next), reply, pending.id]
            )
        }
        return true
    }

    /// The message leaves the queue, and its words the row: `/admin` needs only the rest.
    private func finish(_ pending: Pending, state: String, reply: String) async throws {
        let now = clock.now()
        try await database.write { db in
            try db.execute(
                sql: "UPDATE mail_outbox SET state = ?, attempts = attempts + 1, last_reply = ?, finished_at = ?, message = X'' WHERE id = ?",
                arguments: [state, reply, StoredDate(now), pending.id]
            )
        }
    }

    /// What waits and what failed in the last 30 days, newest first, for `/admin`.
    public func problems(limit: Int = 50) async throws -> [Entry] {
        try await database.pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM mail_outbox WHERE state IN ('waiting', 'failed') ORDER BY created_at DESC, id DESC LIMIT ?",
                arguments: [limit]
            ).map { row in
                Entry(
                    id: row["id"], kind: row["kind"], recipient: row["recipient"], createdAt: row.date("created_at"), attempts: row["attempts"],
                    nextAttemptAt: row.date("next_attempt_at"), state: row["state"], lastReply: row["last_reply"]
                )
            }
        }
    }

    /// Deletes sent and failed rows older than ``keptFor``; run periodically.
    public func deleteExpired() async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-Self.keptFor)
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM mail_outbox WHERE state <> 'waiting' AND finished_at <= ?", arguments: [StoredDate(cutoff)])
            return db.changesCount
        }
    }
}
