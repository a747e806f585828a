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

    /// What a confirmation link did.
    public enum Confirmation: Sendable, Equatable {
        case confirmed
        /// Another account confirmed the address first: it stays theirs, and this one's unconfirmed.
        case takenByAnother
        case refused(LinkState)
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
    /// Where "Forgot your password?" does its look-up and its mail, once the request is answered.
    let afterAnswering: AfterAnswering

    package init(
        database: AppDatabase, mailer: Mailer, accountSettings: AppConfig.Accounts, clock: WallClock, logger: Logger,
        afterAnswering: AfterAnswering = .detached
    ) {
        self.database = database
        self.mailer = mailer
        self.throttle = LoginThrottle(database: database, clock: clock, settings: accountSettings)
        self.clock = clock
        self.logger = logger
        self.afterAnswering = afterAnswering
    }

    // MARK: Verification

    public func addressState(userID: UserID) async throws -> AddressState {
        try await database.pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT email, email_verified_at, digest_weekly FROM user WHERE id = ?", arguments: [userID])
            return AddressState(email: row?["email"], isVerified: row?.optionalDate("email_verified_at") != nil, wantsDigest: row?["digest_weekly"] ?? false)
        }
    }

    /// The weekly digest's opt-in; it goes only to a confirmed address (``DigestService``).
    public func setDigest(userID: UserID, weekly: Bool) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE user SET digest_weekly = ? WHERE id = ?", arguments: [weekly, userID])
        }
    }

    /// Queues a link to the member's address, unless it is verified already or she has none.
    public func sendVerification(userID: UserID) async throws {
        let now = clock.now()
        let queued = try await database.write { db in try queueVerification(userID: userID, now: now, db) }
        if queued { mailer.wake() }
    }

    /// "Send again" on Settings: throttled per account.
    public func resendVerification(userID: UserID) async throws -> Request {
        if case .throttled(let wait) = try await throttle.admit([.mailToAccount(userID)]) { return .throttled(retryAfter: wait) }
        try await sendVerification(userID: userID)
        return .queued
    }

    /// A new address, unverified, with a link on its way; an empty one removes the address.
    /// Returns what is wrong when the address is not acceptable: never that another account has
    /// it, which would tell anyone who asks which addresses are members'.
    public func changeAddress(userID: UserID, to email: String) async throws -> AccountFault? {
        if !email.isEmpty, let problem = AccountRules.emailProblem(email) { return problem }
        let now = clock.now()
        let changed = try await database.write { db in
            let current = try String.fetchOne(db, sql: "SELECT email FROM user WHERE id = ?", arguments: [userID])
            guard current != (email.isEmpty ? nil : email) else { return false }
            try db.execute(
                sql: "UPDATE user SET email = ?, email_key = NULL, email_verified_at = NULL WHERE id = ?",
                arguments: [email.isEmpty ? nil : email, userID]
            )
            try db.execute(sql: "DELETE FROM email_verification WHERE user_id = ?", arguments: [userID])
            _ = try queueVerification(userID: userID, now: now, db)
            return true
        }
        if changed { mailer.wake() }
        return nil
    }

    /// Confirms the address when the link is valid, still for the member's current address, and
    /// no other account confirmed that address first. Only a confirmed address has its
    /// `email_key`, whose UNIQUE decides between two confirmations at once.
    public func verify(token: String) async throws -> Confirmation {
        guard token.utf8.count == 43 else { return .refused(.unknown) }
        let now = clock.now()
        return try await database.write { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT email_verification.*, user.email AS current FROM email_verification JOIN user ON user.id = email_verification.user_id
                    WHERE token_hash = ?
                    """,
                arguments: [SessionStore.fingerprint(token)]
            ) else { return .refused(.unknown) }
            if row.optionalDate("used_at") != nil { return .refused(.used) }
            let email: String = row["email"]
            if row.date("expires_at") <= now || (row["current"] as String?) != email { return .refused(.expired) }
            do {
                try db.execute(
                    sql: "UPDATE user SET email_verified_at = ?, email_key = ? WHERE id = ?",
                    arguments: [StoredDate(now), AccountRules.key(email), row["user_id"]]
                )
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                return .takenByAnother
            }
            try db.execute(sql: "UPDATE email_verification SET used_at = ? WHERE id = ?", arguments: [StoredDate(now), row["id"]])
            return .confirmed
        }
    }

    /// Queues a link to confirm the member's unconfirmed address; when another account has
    /// confirmed that address, its owner is told instead and no link is made, so that the
    /// answer to whoever gave the address is the same either way.
    private func queueVerification(userID: UserID, now: Date, _ db: Database) throws -> Bool {
        guard let (address, _, name) = try Mailer.recipient(userID: userID, for: .verification, db),
              try Bool.fetchOne(db, sql: "SELECT email_verified_at IS NULL FROM user WHERE id = ?", arguments: [userID]) == true
        else { return false }
        if let owner = try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE email_key = ?", arguments: [AccountRules.key(address.text)]) {
            return try queueAddressInUse(ownerID: owner, db)
        }
        let token = SecureRandom.token()
        try db.execute(
            sql: "INSERT INTO email_verification (user_id, email, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [userID, address.text, SessionStore.fingerprint(token), StoredDate(now), StoredDate(now.addingTimeInterval(Self.verificationLifetime))]
        )
        let language = try mailer.languages.translations(forMember: userID, db)
        let content = MailTexts.verification(name: name, link: mailer.link(mailer.paths.verifyEmail(token)), in: language)
        try mailer.queue(content, kind: .verification, to: address, name: name, userID: userID, db)
        return true
    }

    /// "Someone gave your address": to the member who confirmed it, naming her own account,
    /// with the way back in if it was she who forgot she had one.
    private func queueAddressInUse(ownerID: UserID, _ db: Database) throws -> Bool {
        guard let (address, ownerUsername, name) = try Mailer.recipient(userID: ownerID, for: .addressInUse, db) else { return false }
        let language = try mailer.languages.translations(forMember: ownerID, db)
        let content = MailTexts.addressInUse(name: name, username: ownerUsername, link: mailer.link(mailer.paths.forgot), in: language)
        try mailer.queue(content, kind: .addressInUse, to: address, name: name, userID: ownerID, db)
        return true
    }

    // MARK: Forgot your password?

    /// Admits the request (throttled per client) and does the rest after the caller has
    /// answered: whether a name matched, and what was sent, never shows in the answer or its time.
    public func forgotPassword(nameOrAddress: String, clientAddress: String) async throws -> Request {
        if case .throttled(let wait) = try await throttle.admit([.mailFromAddress(clientAddress)]) { return .throttled(retryAfter: wait) }
        let query = String(nameOrAddress.trimmingCharacters(in: .whitespaces).prefix(AccountRules.emailMaximumLength))
        afterAnswering.start { [self] in
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
            try UserID.fetchOne(
                db,
                sql: "SELECT id FROM user WHERE (username_key = ? OR (email_key = ? AND email_verified_at IS NOT NULL)) AND disabled_at IS NULL",
                arguments: [key, key]
            )
        }) else { return }
        guard case .admitted = try await throttle.admit([.mailToAccount(userID)]) else { return }
        let now = clock.now()
        let queued = try await database.write { db in
            guard let (address, username, name) = try Mailer.recipient(userID: userID, for: .passwordReset, db) else { return false }
            let token = try PasswordResetLinks.insert(userID: userID, lifetime: Self.resetLifetime, now: now, db)
            try Administration.record(actor: username, action: "asked for a password-reset link by mail", subject: "", at: now, db)
            let language = try mailer.languages.translations(forMember: userID, db)
            let content = MailTexts.passwordReset(username: username, link: mailer.link(mailer.paths.passwordReset(token)), in: language)
            try mailer.queue(content, kind: .passwordReset, to: address, name: name, userID: userID, db)
            return true
        }
        if queued { mailer.wake() }
    }

    // MARK: Invites

    /// Queues an invite link to an address someone typed on `/admin`.
    public func sendInvite(token: String, to email: String, by actor: Administration.Actor) async throws -> String? {
        guard let address = MailAddress(email) else { return "Enter an e-mail address like name@example.com." }
        let now = clock.now()
        try await database.write { db in
            let inviter = try Mailer.shownName(userID: actor.userID, db) ?? actor.username
            let content = MailTexts.invite(from: inviter, link: mailer.link(mailer.paths.signUp(token)), in: mailer.languages.server)
            try mailer.queue(content, kind: .invite, to: address, userID: nil, db)
            try Administration.record(actor: actor.username, action: "mailed an invite to", subject: address.text, at: now, db)
        }
        mailer.wake()
        return nil
    }
}

/// Starts work that must not delay the answer being given, such as a look-up whose time would tell
/// what it found: in the server a detached task that nothing awaits. A test starts it later
/// instead, to see what was answered before any of it ran.
package struct AfterAnswering: Sendable {
    let start: @Sendable (_ work: @escaping @Sendable () async -> Void) -> Void

    package init(start: @escaping @Sendable (_ work: @escaping @Sendable () async -> Void) -> Void) {
        self.start = start
    }

    package static let detached = AfterAnswering { work in
        Task.detached { await work() }
    }
}
