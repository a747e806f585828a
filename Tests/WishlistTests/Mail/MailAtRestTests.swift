import Foundation
import GRDB
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// The bytes of a database as a copy of it would have them: the file and its write-ahead log.
enum DatabaseBytes {
    static func of(_ path: String) throws -> [UInt8] {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        if FileManager.default.fileExists(atPath: path + "-wal") {
            bytes += try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        }
        return bytes
    }

    /// Whether `token` is in `bytes` as itself or inside base64 (a message's parts are base64 in
    /// lines of 76, so line ends are left out and each of the three alignments is tried).
    static func hold(_ token: String, in bytes: [UInt8]) -> Bool {
        let raw = Array(token.utf8)
        if bytes.contains(raw) { return true }
        let unwrapped = bytes.filter { $0 != 13 && $0 != 10 }
        return (0..<3).contains { skipped in
            let aligned = raw.dropFirst(skipped)
            let whole = Data(aligned.prefix(aligned.count / 3 * 3)).base64EncodedString()
            return unwrapped.contains(Array(whole.utf8))
        }
    }
}

/// Issue 50: a mailed link sat readable in `mail_outbox` for 30 days, so a copy of the database
/// (a backup) set a password or confirmed an address. Messages are sealed under a key kept
/// beside the database, and emptied once they leave the queue.
@Suite("The outbox at rest: nothing in the database file opens a mailed link", .removesTemporaryDirectories)
struct MailAtRestTests {
    static let token = "Zq8-link-token-that-must-never-rest-readable"

    @Test func theKeyIsAPrivateFileBesideTheDatabaseTheSameAtEveryStart() throws {
        let database = try temporaryDirectory().appendingPathComponent("wishlist.sqlite").path
        let first = try OutboxKey.load(besideDatabase: database)
        let path = database + ".outbox-key"
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 32)
        let sealed = try first.seal(Array("a message".utf8))
        #expect(try OutboxKey.load(besideDatabase: database).open(sealed) == Array("a message".utf8), "the next start reads the same key")
        #expect(OutboxKey(bytes: Array(repeating: 1, count: 32)).open(sealed) == nil, "another key opens nothing")
        try Data("short".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try OutboxKey.load(besideDatabase: database)
        } throws: { error in
            "\(error)".contains("can't be read as the outbox's key")
        }
    }

    @Test func aWaitingMessageIsSealedAndASentOrRefusedOneIsEmptied() async throws {
        let refusal = SMTPClient.Reply(code: 550, text: "550 5.1.1 No such mailbox")
        let setup = try MailSenderTests.setUp([.success(MailSenderTests.accepted), .failure(.rejected(refusal))])
        let mailer = Mailer(sender: MailAddress("wishlist@example.com")!, publicOrigin: "https://books.example", paths: SitePath.mail, clock: setup.time.clock, outboxKey: setup.key) {}
        try await setup.database.pool.write { db in
            for recipient in ["ann@example.com", "bob@example.com"] {
                let content = MailTexts.passwordReset(username: "ann", link: mailer.link("/reset/" + Self.token), in: mailer.languages.server)
                try mailer.queue(content, kind: .passwordReset, to: MailAddress(recipient)!, userID: nil, db)
            }
        }
        let path = setup.database.pool.path
        let heldWhileWaiting = DatabaseBytes.hold(Self.token, in: try DatabaseBytes.of(path))
        #expect(!heldWhileWaiting, "waiting, the link is sealed")

        #expect(await setup.sender.sendDue() == 1)
        #expect(DatabaseBytes.hold(Self.token, in: try #require(setup.transport.delivered.first)), "the message delivered carries its link")
        let rows = try await setup.database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT state, length(message) AS size FROM mail_outbox ORDER BY id").map { ($0["state"] as String, $0["size"] as Int) }
        }
        #expect(rows.map(\.0) == ["sent", "failed"])
        #expect(rows.allSatisfy { $0.1 == 0 }, "only what /admin shows stays")
        let heldOnceSent = DatabaseBytes.hold(Self.token, in: try DatabaseBytes.of(path))
        #expect(!heldOnceSent)
    }

    @Test func aMessageSealedUnderAnotherKeyFailsWithASentenceForAdmin() async throws {
        let setup = try MailSenderTests.setUp([])
        let stranger = OutboxKey(bytes: Array(repeating: 9, count: 32))
        try await setup.database.pool.write { db in
            try MailOutbox.insert(Array("Subject: moved".utf8), sealedWith: stranger, kind: .test, userID: nil, recipient: MailAddress("ann@example.com")!, now: setup.time.clock.now(), db)
        }
        #expect(await setup.sender.sendDue() == 0)
        #expect(setup.transport.delivered.isEmpty)
        let problems = try await setup.outbox.problems()
        #expect(problems.map(\.state) == ["failed"])
        #expect(problems.first?.lastReply == MailSender.unreadable)
    }

    /// The version before wrote messages readable: upgrading empties them, zeroed in the file,
    /// and fails what still waited, with a sentence. The connection does not zero what it
    /// deletes, as SQLite's own default has it (Debian builds it with `SQLITE_SECURE_DELETE`).
    @Test func anUpgradeLeavesNoOldMessageInTheFile() async throws {
        let path = try temporaryDirectory().appendingPathComponent("old.sqlite").path
        var configuration = Configuration()
        configuration.prepareDatabase { try $0.execute(sql: "PRAGMA secure_delete = OFF") }
        let database = try DatabaseQueue(path: path, configuration: configuration)
        try AppDatabase.migrator.migrate(database, upTo: "25-owner-generations")
        try await database.write { db in
            for (state, finished) in [("waiting", nil), ("sent", "2024-03-12 09:06:01.000")] {
                try db.execute(
                    sql: """
                        INSERT INTO mail_outbox (kind, recipient, message, created_at, next_attempt_at, state, finished_at)
                        VALUES ('password-reset', 'ann@example.com', ?, '2024-03-12 09:06:00.000', '2024-03-12 09:06:00.000', ?, ?)
                        """,
                    arguments: [Data("Subject: Set a new password\r\n\r\nhttps://books.example/reset/\(Self.token)\r\n".utf8), state, finished]
                )
            }
        }
        let before = DatabaseBytes.hold(Self.token, in: try DatabaseBytes.of(path))
        #expect(before, "the old version's file has the link")

        try AppDatabase.migrator.migrate(database)
        let rows = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT state, length(message) AS size, last_reply FROM mail_outbox ORDER BY id").map {
                ($0["state"] as String, $0["size"] as Int, $0["last_reply"] as String?)
            }
        }
        #expect(rows.map(\.0) == ["failed", "sent"])
        #expect(rows[0].2?.hasSuffix("ask for it again") == true)
        #expect(rows.allSatisfy { $0.1 == 0 })
        try database.close()
        let after = DatabaseBytes.hold(Self.token, in: try DatabaseBytes.of(path))
        #expect(!after, "not even in the file's free space")
    }
}
