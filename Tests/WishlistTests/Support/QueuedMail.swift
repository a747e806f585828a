import CivilTime
import Foundation
import GRDB
@testable import WishlistCore
@testable import WishlistWeb

/// A message as the outbox holds it, opened with the key beside the database as the sender
/// opens it: its headers, unfolded, and its text part.
struct QueuedMail {
    let kind: String
    let userID: Int64?
    let recipient: String
    let headers: [String]
    let text: String

    init(row: Row, key: OutboxKey) {
        kind = row["kind"]
        userID = row["user_id"]
        recipient = row["recipient"]
        let raw = String(decoding: key.open(Array(row["message"] as Data)) ?? [], as: UTF8.self)
        headers = raw.components(separatedBy: "\r\n\r\n")[0].replacingOccurrences(of: "\r\n ", with: " ").components(separatedBy: "\r\n")
        // A message that left the queue is empty: no text.
        let part = raw.components(separatedBy: "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n").dropFirst().first ?? ""
        let encoded = part.components(separatedBy: "\r\n--")[0].replacingOccurrences(of: "\r\n", with: "")
        text = String(decoding: Data(base64Encoded: encoded) ?? Data(), as: UTF8.self)
    }

    /// The path of the first link in the text that goes to `prefix` on the test server.
    func path(startingWith prefix: String) -> String? {
        text.split(whereSeparator: \.isWhitespace).lazy.compactMap { word -> String? in
            guard let range = word.range(of: "http://localhost:8080" + prefix) else { return nil }
            return String(word[range.lowerBound...].dropFirst("http://localhost:8080".count))
        }.first
    }

    static func all(_ database: AppDatabase, kind: String? = nil) async throws -> [QueuedMail] {
        let key = try OutboxKey.load(besideDatabase: database.pool.path)
        return try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM mail_outbox WHERE ?1 IS NULL OR kind = ?1 ORDER BY id", arguments: [kind]).map { QueuedMail(row: $0, key: key) }
        }
    }

    /// The mail of `kind` once it is there: "Forgot your password?" queues after answering.
    static func awaited(_ database: AppDatabase, kind: String, count: Int = 1) async throws -> [QueuedMail] {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let mail = try await all(database, kind: kind)
            if mail.count >= count { return mail }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await all(database, kind: kind)
    }
}

extension Mailer {
    /// Queues into the test server's outbox, sealed with its key, as the server's own mailer does.
    static func queueing(into database: AppDatabase, clock: WallClock) throws -> Mailer {
        let key = try OutboxKey.load(besideDatabase: database.pool.path)
        return Mailer(sender: MailAddress("wishlist@example.com")!, publicOrigin: "http://localhost:8080", paths: SitePath.mail, clock: clock, outboxKey: key) {}
    }
}

extension DigestService {
    /// The weekly digest as the server runs it, in UTC on `clock`, queueing into the test server's outbox.
    static func queueing(into database: AppDatabase, clock: WallClock) throws -> DigestService {
        DigestService(
            database: database, mailer: try Mailer.queueing(into: database, clock: clock),
            timeZone: try ZoneRules.load(named: "UTC"), clock: clock, logger: .init(label: "test")
        )
    }
}
