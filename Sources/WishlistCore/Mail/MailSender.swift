import Foundation
import Logging
import ServiceLifecycle

/// The background job that hands the outbox's messages to the SMTP server, one at a time.
///
/// It wakes when a message is queued (``nudge()``), when the next retry is due, and at least
/// every minute. A message is marked sent as soon as the server's 250 comes back; on shutdown the
/// message in flight is finished and recorded before the job stops, so a restart sends again only
/// what a crash interrupted between the server's answer and that write (the `Message-ID` stays
/// the same, so a mail client shows such a twin once).
public final class MailSender: Service, Sendable {
    static let longestSleep: Duration = .seconds(60)
    /// What `/admin` says of a message sealed under a key this server does not have.
    static let unreadable = "not sent: it was sealed with another outbox key (the database was moved without its .outbox-key file); ask for it again"

    let outbox: MailOutbox
    private let client: any MailTransport
    private let sender: MailAddress
    private let clock: WallClock
    private let logger: Logger
    private let wakeUp = WakeUpSignal()

    public init(outbox: MailOutbox, client: any MailTransport, sender: MailAddress, clock: WallClock, logger: Logger) {
        self.outbox = outbox
        self.client = client
        self.sender = sender
        self.clock = clock
        self.logger = logger
    }

    /// A message was queued: look now rather than at the next wake-up.
    public func nudge() {
        wakeUp.ring()
    }

    public func run() async throws {
        try? await outbox.makeWaitingDue()
        await withGracefulShutdownHandler {
            while !Task.isCancelled && !Task.isShuttingDownGracefully {
                await sendDue()
                await sleepUntilDue()
            }
        } onGracefulShutdown: {
            self.wakeUp.stop()
        }
    }

    /// Sends every message that is due now; returns how many went.
    @discardableResult
    public func sendDue() async -> Int {
        var sent = 0
        do {
            while !Task.isShuttingDownGracefully {
                let due = try await outbox.due()
                if due.isEmpty { break }
                for pending in due where !Task.isShuttingDownGracefully {
                    if try await send(pending) { sent += 1 }
                }
            }
        } catch {
            logger.error("mail: the outbox could not be read or updated: \(error)")
        }
        return sent
    }

    private func send(_ pending: MailOutbox.Pending) async throws -> Bool {
        guard let recipient = MailAddress(pending.recipient) else {
            try await outbox.markFailed(pending, reply: "not an address the app sends to")
            return false
        }
        guard let message = pending.message else {
            try await outbox.markFailed(pending, reply: Self.unreadable)
            logger.warning("mail: message \(pending.id) \(Self.unreadable)")
            return false
        }
        do {
            let reply = try await client.send(message, from: sender, to: recipient)
            try await outbox.markSent(pending, reply: reply.text)
            logger.info("mail: message \(pending.id) accepted: \(reply.text)")
            return true
        } catch let failure as SMTPClient.Failure {
            if failure.isFinal {
                try await outbox.markFailed(pending, reply: failure.description)
                logger.warning("mail: message \(pending.id) refused for good: \(failure.description)")
            } else if try await outbox.markForRetry(pending, reply: failure.description) {
                logger.warning("mail: message \(pending.id) not sent, will try again: \(failure.description)")
            } else {
                logger.warning("mail: message \(pending.id) given up after a day: \(failure.description)")
            }
            return false
        }
    }

    private func sleepUntilDue() async {
        let next = (try? await outbox.nextDue()) ?? nil
        let seconds = next.map { max(0, $0.timeIntervalSince(clock.now())) } ?? 60
        await wakeUp.wait(atMost: min(Duration.milliseconds(Int64(seconds * 1000)), Self.longestSleep))
    }
}
