import Foundation
import GRDB
import Logging

/// The account flows that go through mail: proving an address is one's own, "Forgot your
/// password?", and invites sent to an address. Exists only when mail is on.
public struct AccountMail: Sendable {
    /// A verification link works for a day; a reset link asked for by mail for an hour.
    public static let verificationLifetime: TimeInterval = 86_400
    public static let resetLifetime: TimeInterval = 3600

    public enum Request: Sendable, Equatable {
        case queued
        case throttled(retryAfter: Int)
    }

    /// A member's address, whether she proved it, and whether she asked for the weekly digest.
    public struct AddressState: Sendable, Equatable {
        public let email: String?
        public let isVerified: Bool
        public let wantsDigest: Bool
    }

    let database: AppDatabase
    let mailer: Mailer
    let throttle: LoginThrottle
    let clock: WallClock
    let logger: Logger

    public init(database: AppDatabase, mailer: Mailer, accountSettings: AppConfig.Accounts, clock: WallClock, logger: Logger) {
        self.database = database
        self.mailer = mailer
        self.throttle = LoginThrottle(database: database, clock: clock, settings: accountSettings)
        self.clock = clock
        self.logger = logger
    }

    // MARK: Verification

    public func addressState(userID: Int64) async throws -> AddressState {
        try await database.pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT email, email_verified_at, digest_weekly FROM user WHERE id = ?", arguments: [userID])
            return AddressState(email: row?["email"], isVerified: row?.optionalDate("email_verified_at") != nil, wantsDigest: row?["digest_weekly"] ?? false)
        }
    }

    /// The weekly digest's opt-in; it goes only to a confirmed address (``DigestService``).
    public func setDigest(userID: Int64, weekly: Bool) async throws {
        try await database.pool.write { db in
            try db.execute(sql: "UPDATE user SET digest_weekly = ? WHERE id = ?", arguments: [weekly, userID])
        }
    }

    /// Queues a link to the member's address, unless it is verified already or she has none.
    public func sendVerification(userID: Int64) async throws {
        let now = clock.now()
        let queued = try await database.pool.write { db in try queueVerification(userID: userID, now: now, db) }
        if queued { mailer.wake() }
    }

    /// "Send again" on Settings: throttled per account.
    public func resendVerification(userID: Int64) async throws -> Request {
        if case .throttled(let wait) = try await throttle.admit([.mailToAccount(userID)]) { return .throttled(retryAfter: wait) }
        try await sendVerification(userID: userID)
        return .queued
    }

    /// A new address, unverified, with a link on its way; an empty one removes the address.
    /// Returns the sentence to show when the address is not acceptable.
    public func changeAddress(userID: Int64, to email: String) async throws -> String? {
        if !email.isEmpty, let problem = AccountRules.emailProblem(email) { return problem }
        let now = clock.now()
        let outcome: String? = try await database.pool.write { db in
            let key = email.isEmpty ? nil : AccountRules.key(email)
            if let key, try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE email_key = ? AND id <> ?", arguments: [key, userID]) == true {
                return "That e-mail address can't be used. Use another, or leave it empty."
            }
            let current = try String.fetchOne(db, sql: "SELECT email FROM user WHERE id = ?", arguments: [userID])
            guard current != (email.isEmpty ? nil : email) else { return nil }
            try db.execute(
                sql: "UPDATE user SET email = ?, email_key = ?, email_verified_at = NULL WHERE id = ?",
                arguments: [email.isEmpty ? nil : email, key, userID]
            )
            try db.execute(sql: "DELETE FROM email_verification WHERE user_id = ?", arguments: [userID])
            _ = try queueVerification(userID: userID, now: now, db)
            return nil
        }
        mailer.wake()
        return outcome
    }

    /// Marks the address verified when the link is valid and still for the member's current address.
    public func verify(token: String) async throws -> LinkState {
        guard token.utf8.count == 43 else { return .unknown }
        let now = clock.now()
        return try await database.pool.write { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT email_verification.*, user.email AS current FROM email_verification JOIN user ON user.id = email_verification.user_id
                    WHERE token_hash = ?
                    """,
                arguments: [SessionStore.fingerprint(token)]
            ) else { return .unknown }
            if row.optionalDate("used_at") != nil { return .used }
            if row.date("expires_at") <= now || (row["current"] as String?) != (row["email"] as String) { return .expired }
            try db.execute(sql: "UPDATE email_verification SET used_at = ? WHERE id = ?", arguments: [StoredDate(now), row["id"]])
            try db.execute(sql: "UPDATE user SET email_verified_at = ? WHERE id = ?", arguments: [StoredDate(now), row["user_id"]])
            return .valid
        }
    }

    private func queueVerification(userID: Int64, now: Date, _ db: Database) throws -> Bool {
        guard let (address, _, name) = try Mailer.recipient(userID: userID, for: .verification, db),
              try Bool.fetchOne(db, sql: "SELECT email_verified_at IS NULL FROM user WHERE id = ?", arguments: [userID]) == true
        else { return false }
        let token = SecureRandom.token()
        try db.execute(
            sql: "INSERT INTO email_verification (user_id, email, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [userID, address.text, SessionStore.fingerprint(token), StoredDate(now), StoredDate(now.addingTimeInterval(Self.verificationLifetime))]
        )
        let content = MailTexts.verification(name: name, link: mailer.link("/verify-email/" + token))
        try mailer.queue(content, kind: .verification, to: address, name: name, userID: userID, db)
        return true
    }

    // MARK: Forgot your password?

    /// Admits the request (throttled per client) and does the rest after the caller has
    /// answered: whether a name matched, and what was sent, never shows in the answer or its time.
    public func forgotPassword(nameOrAddress: String, clientAddress: String) async throws -> Request {
        if case .throttled(let wait) = try await throttle.admit([.mailFromAddress(clientAddress)]) { return .throttled(retryAfter: wait) }
        let query = String(nameOrAddress.trimmingCharacters(in: .whitespaces).prefix(AccountRules.emailMaximumLength))
        Task.detached { [self] in
            do {
                try await sendResetLink(matching: query)
            } catch {
                logger.error("mail: a reset link could not be queued: \(error)")
            }
        }
        return .queued
    }

    /// Queues a reset link when `query` names an active account, by username or verified
    /// address, and the account has had fewer than its share of mail this window.
    func sendResetLink(matching query: String) async throws {
        let key = AccountRules.key(query)
        guard !key.isEmpty, let userID = try await database.pool.read({ db in
            try Int64.fetchOne(
                db,
                sql: "SELECT id FROM user WHERE (username_key = ? OR (email_key = ? AND email_verified_at IS NOT NULL)) AND disabled_at IS NULL",
                arguments: [key, key]
            )
        }) else { return }
        guard case .admitted = try await throttle.admit([.mailToAccount(userID)]) else { return }
        let now = clock.now()
        let queued = try await database.pool.write { db in
            guard let (address, username, name) = try Mailer.recipient(userID: userID, for: .passwordReset, db) else { return false }
            let token = try PasswordResetLinks.insert(userID: userID, lifetime: Self.resetLifetime, now: now, db)
            try Administration.record(actor: username, action: "asked for a password-reset link by mail", subject: "", at: now, db)
            try mailer.queue(MailTexts.passwordReset(username: username, link: mailer.link("/reset/" + token)), kind: .passwordReset, to: address, name: name, userID: userID, db)
            return true
        }
        if queued { mailer.wake() }
    }

    // MARK: Invites

    /// Queues an invite link to an address someone typed on `/admin`.
    public func sendInvite(token: String, to email: String, by actor: Administration.Actor) async throws -> String? {
        guard let address = MailAddress(email) else { return "Enter an e-mail address like name@example.com." }
        let now = clock.now()
        try await database.pool.write { db in
            let inviter = try Mailer.shownName(userID: actor.userID, db) ?? actor.username
            let content = MailTexts.invite(from: inviter, link: mailer.link("/signup?invite=" + token))
            try mailer.queue(content, kind: .invite, to: address, userID: nil, db)
            try Administration.record(actor: actor.username, action: "mailed an invite to", subject: address.text, at: now, db)
        }
        mailer.wake()
        return nil
    }
}
