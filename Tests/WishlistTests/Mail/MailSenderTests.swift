import Foundation
import GRDB
import Logging
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// A mail server's answers, one a try, in order; every message handed over is kept.
final class ScriptedTransport: MailTransport {
    private let state: Mutex<(answers: [Result<SMTPClient.Reply, SMTPClient.Failure>], delivered: [[UInt8]])>

    init(_ answers: [Result<SMTPClient.Reply, SMTPClient.Failure>]) {
        state = Mutex((answers, []))
    }

    var delivered: [[UInt8]] { state.withLock { $0.delivered } }

    func send(_ message: [UInt8], from sender: MailAddress, to recipient: MailAddress) async throws -> SMTPClient.Reply {
        let answer = state.withLock { state -> Result<SMTPClient.Reply, SMTPClient.Failure> in
            let answer = state.answers.isEmpty ? .success(.init(code: 250, text: "250 OK")) : state.answers.removeFirst()
            if case .success = answer { state.delivered.append(message) }
            return answer
        }
        return try answer.get()
    }
}

@Suite("The outbox and its sender: retries, final refusals, restarts", .removesTemporaryDirectories)
struct MailSenderTests {
    static let accepted = SMTPClient.Reply(code: 250, text: "250 2.0.0 Queued")

    struct Setup {
        let database: AppDatabase
        let key: OutboxKey
        let outbox: MailOutbox
        let sender: MailSender
        let transport: ScriptedTransport
        let time: ManualClock
    }

    static func setUp(_ answers: [Result<SMTPClient.Reply, SMTPClient.Failure>]) throws -> Setup {
        let path = try temporaryDirectory().appendingPathComponent("mail.sqlite").path
        let database = try AppDatabase.open(path: path)
        let time = ManualClock()
        let key = try OutboxKey.load(besideDatabase: path)
        let outbox = MailOutbox(database: database, clock: time.clock, key: key)
        let transport = ScriptedTransport(answers)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let sender = MailSender(outbox: outbox, client: transport, sender: MailAddress("wishlist@example.com")!, clock: time.clock, logger: logger)
        return Setup(database: database, key: key, outbox: outbox, sender: sender, transport: transport, time: time)
    }

    static func queue(_ setup: Setup, to recipient: String = "ann@example.com") async throws {
        let mailer = Mailer(sender: MailAddress("wishlist@example.com")!, publicOrigin: "https://books.example", paths: SitePath.mail, clock: setup.time.clock, outboxKey: setup.key) {}
        try await setup.database.pool.write { db in
            try mailer.queue(MailTexts.test(), kind: .test, to: MailAddress(recipient)!, userID: nil, db)
        }
    }

    static func row(_ setup: Setup) async throws -> Row {
        try await setup.database.pool.read { try Row.fetchOne($0, sql: "SELECT * FROM mail_outbox")! }
    }

    @Test func anAcceptedMessageIsSentOnceAndMarkedSent() async throws {
        let setup = try Self.setUp([.success(Self.accepted)])
        try await Self.queue(setup)
        #expect(await setup.sender.sendDue() == 1)
        #expect(await setup.sender.sendDue() == 0, "nothing is sent twice")
        setup.time.advance(by: 86_400)
        try await setup.outbox.makeWaitingDue()
        #expect(await setup.sender.sendDue() == 0, "nor after a restart")
        let row = try await Self.row(setup)
        #expect(row["state"] as String == "sent" && row["last_reply"] as String == "250 2.0.0 Queued")
        #expect(setup.transport.delivered.count == 1)
    }

    @Test("a 4xx reply, a refused password or no answer is retried after 1, 2, 4 minutes", arguments: [
        SMTPClient.Failure.deferred(.init(code: 451, text: "451 4.3.0 Try again later")),
        .deferred(.init(code: 421, text: "421 4.7.0 Too busy")),
        .authenticationFailed(.init(code: 535, text: "535 5.7.8 Authentication credentials invalid")),
        .unreachable("Couldn't connect to server"),
    ])
    func temporaryFailuresAreRetriedWithDoublingWaits(_ failure: SMTPClient.Failure) async throws {
        let setup = try Self.setUp([.failure(failure), .failure(failure), .success(Self.accepted)])
        try await Self.queue(setup)
        let start = setup.time.clock.now()
        #expect(await setup.sender.sendDue() == 0)
        var row = try await Self.row(setup)
        #expect(row["state"] as String == "waiting")
        #expect(row.date("next_attempt_at") == start.addingTimeInterval(60))
        #expect(row["last_reply"] as String == failure.description)
        setup.time.advance(by: 59)
        #expect(await setup.sender.sendDue() == 0 && setup.transport.delivered.isEmpty, "not before its time")
        setup.time.advance(by: 1)
        #expect(await setup.sender.sendDue() == 0)
        row = try await Self.row(setup)
        #expect(row.date("next_attempt_at") == start.addingTimeInterval(60 + 120))
        setup.time.advance(by: 120)
        #expect(await setup.sender.sendDue() == 1)
        #expect(try await Self.row(setup)["state"] as String == "sent")
    }

    @Test func a5xxReplyIsFinalAndKeptForAdmin() async throws {
        let refusal = SMTPClient.Reply(code: 550, text: "550 5.1.1 No such mailbox")
        let setup = try Self.setUp([.failure(.rejected(refusal))])
        try await Self.queue(setup)
        #expect(await setup.sender.sendDue() == 0)
        setup.time.advance(by: 3600)
        #expect(await setup.sender.sendDue() == 0)
        let problems = try await setup.outbox.problems()
        #expect(problems.map(\.state) == ["failed"])
        #expect(problems.first?.lastReply == "550 5.1.1 No such mailbox")
        #expect(setup.transport.delivered.isEmpty)
    }

    @Test func aMessageStillUnsentAfterADayIsGivenUp() async throws {
        let down = SMTPClient.Failure.unreachable("Couldn't connect to server")
        let setup = try Self.setUp(Array(repeating: .failure(down), count: 20))
        try await Self.queue(setup)
        var tries = 0
        while try await Self.row(setup)["state"] as String == "waiting" {
            await setup.sender.sendDue()
            tries += 1
            setup.time.advance(by: try await Self.row(setup).date("next_attempt_at").timeIntervalSince(setup.time.clock.now()))
        }
        let row = try await Self.row(setup)
        #expect(row["state"] as String == "failed")
        #expect((row["last_reply"] as String).hasPrefix("gave up after a day of tries"))
        // 1 + 2 + ... + 512 minutes is under a day; the next wait (1024) would pass it.
        #expect(tries == 11)
    }

    @Test func aRestartTriesWhatWaitsAtOnce() async throws {
        let setup = try Self.setUp([.failure(.unreachable("down")), .success(Self.accepted)])
        try await Self.queue(setup)
        await setup.sender.sendDue()
        #expect(await setup.sender.sendDue() == 0, "waiting its minute")
        try await setup.outbox.makeWaitingDue()
        #expect(await setup.sender.sendDue() == 1)
    }

    @Test func anUnsentMessageGoesWithTheAccountOfItsRecipient() async throws {
        let setup = try Self.setUp([])
        try await setup.database.pool.write { db in
            try db.execute(sql: "INSERT INTO user (username, username_key, email, email_key, password_hash, created_at) VALUES ('ann', 'ann', 'ann@example.com', 'ann@example.com', 'x', '2026-01-01 00:00:00.000')")
            try MailOutbox.insert([1, 2, 3], sealedWith: setup.key, kind: .verification, userID: UserID(db.lastInsertedRowID), recipient: MailAddress("ann@example.com")!, now: Date(), db)
            try db.execute(sql: "DELETE FROM user")
        }
        #expect(try await setup.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM mail_outbox") } == 0)
    }
}
