import Foundation
import GRDB

/// The words of one message, before headers.
public struct MailContent: Sendable, Equatable {
    public let subject: String
    public let text: String
    public let html: String
    public var extraHeaders: [MailHeaderField] = []

    public init(subject: String, text: String, html: String, extraHeaders: [MailHeaderField] = []) {
        self.subject = subject
        self.text = text
        self.html = html
        self.extraHeaders = extraHeaders
    }
}

public struct MailHeaderField: Sendable, Equatable {
    public let name: String
    public let value: String
}

/// Writes messages into the outbox: the app's one way to send mail. With mail off it is nil
/// wherever it would be used, so nothing that needs mail is offered.
public struct Mailer: Sendable {
    public let sender: MailAddress
    /// `https://books.example`: every link in a message starts with it.
    public let publicOrigin: String
    /// Where its links lead on the site, printed by the web layer from its routes.
    public let paths: MailPaths
    let clock: WallClock
    /// Seals what is queued: the links in a message never rest readable in the database.
    let outboxKey: OutboxKey
    /// Wakes ``MailSender`` after a commit.
    let wakeSender: @Sendable () -> Void
    /// Each message is worded in its recipient's language.
    let languages: MailLanguages

    public init(
        sender: MailAddress, publicOrigin: String, paths: MailPaths, clock: WallClock, outboxKey: OutboxKey, languages: MailLanguages = .english,
        wakeSender: @escaping @Sendable () -> Void
    ) {
        self.sender = sender
        self.publicOrigin = publicOrigin
        self.paths = paths
        self.clock = clock
        self.outboxKey = outboxKey
        self.languages = languages
        self.wakeSender = wakeSender
    }

    /// Queues `content` for `recipient` inside the caller's transaction; call ``wake()`` after
    /// it commits.
    func queue(_ content: MailContent, kind: MailOutbox.Kind, to recipient: MailAddress, name: String = "", userID: UserID?, _ db: Database) throws {
        let now = clock.now()
        let message = Self.rendered(content, from: sender, to: recipient, name: name, at: now)
        try MailOutbox.insert(message, sealedWith: outboxKey, kind: kind, userID: userID, recipient: recipient, now: now, db)
    }

    /// The address of a member who may receive `kind`: only a verification link goes to an
    /// address not yet verified. Nil when she has no such address. `name` is what she calls
    /// herself, her display name or else her username.
    static func recipient(userID: UserID, for kind: MailOutbox.Kind, _ db: Database) throws -> (MailAddress, username: String, name: String)? {
        guard let row = try Row.fetchOne(
                  db, sql: "SELECT username, display_name, email, email_verified_at FROM user WHERE id = ? AND disabled_at IS NULL", arguments: [userID]
              ),
              let email: String = row["email"], let address = MailAddress(email)
        else { return nil }
        guard kind == .verification || row.optionalDate("email_verified_at") != nil else { return nil }
        return (address, row["username"], row["display_name"] ?? row["username"])
    }

    /// The name to show of the member `userID` (``MemberName``), nil when there is none.
    static func shownName(userID: UserID, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT \(MemberName.shownSQL("user")) FROM user WHERE id = ?", arguments: [userID])
    }

    public func wake() { wakeSender() }

    static func rendered(_ content: MailContent, from sender: MailAddress, to recipient: MailAddress, name: String, at date: Date) -> [UInt8] {
        let message = MailMessage(
            from: .init(sender, name: "Bestseller Wishlist"), to: .init(recipient, name: name), subject: content.subject,
            text: content.text, html: content.html, extraHeaders: content.extraHeaders.map { ($0.name, $0.value) }
        )
        return message.rendered(
            date: date, messageID: "\(SecureRandom.hex(byteCount: 16))@\(sender.domain)", boundary: "=_" + SecureRandom.hex(byteCount: 12)
        )
    }

    /// `wishlist mail test`'s message, sent outside the outbox.
    public static func testMessage(from sender: MailAddress, to recipient: MailAddress, at date: Date) -> [UInt8] {
        rendered(MailTexts.test(), from: sender, to: recipient, name: "", at: date)
    }

    /// An absolute link to `path` on this server.
    func link(_ path: String) -> String { publicOrigin + path }
}
