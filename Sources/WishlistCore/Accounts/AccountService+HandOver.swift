import Foundation
import GRDB

/// Handing a child's profile over (issue 51): the link a manager made (``Children/handOver(childID:actorID:)``)
/// lets the child choose a password and become a member; her managers are removed at once.
extension AccountService {
    public enum HandOverOutcome: Sendable, Equatable {
        /// She is a member now, signed in by the caller.
        case member(User)
        case invalid(AccountProblems)
        /// The link is spent, expired or unknown (another hand-over with it won).
        case refused(LinkState)
        case throttled(retryAfter: Int)
    }

    /// The link's state and, when valid, the child's username and name to show on its page.
    public func handOverLink(token: String) async throws -> (state: LinkState, username: String?, name: String?) {
        let now = users.clock.now()
        return try await users.database.pool.read { db in
            guard let row = try Self.handOverRow(token, db) else { return (.unknown, nil, nil) }
            let state = Self.handOverState(row, now: now)
            return (state, state == .valid ? row["username"] : nil, state == .valid ? row["name"] : nil)
        }
    }

    /// Turns the child's profile into a member's account: `username` (her own, kept, even with
    /// its `~`; or a new one by the username rules), an optional e-mail address (unconfirmed, as
    /// at sign-up), a password. Checked and written in one transaction with the link spent, so of
    /// two hand-overs with one link, one wins and the other is refused as a used link.
    public func takeOver(
        token: String, username: String, email: String, password: String, confirmation: String, address: String
    ) async throws -> HandOverOutcome {
        let (state, current, _) = try await handOverLink(token: token)
        guard state == .valid, let current else { return .refused(state) }
        let errors = AccountRules.newAccountProblems(
            username: username == current ? nil : username, email: email, password: password, confirmation: confirmation
        )
        guard errors.isEmpty else { return .invalid(errors) }
        if case .throttled(let wait) = try await throttle.admit([.signup(address)]) { return .throttled(retryAfter: wait) }
        let hash = try await hasher.hash(password)
        let now = users.clock.now()
        return try await users.database.write { db -> HandOverOutcome in
            guard let row = try Self.handOverRow(token, db) else { return .refused(.unknown) }
            let state = Self.handOverState(row, now: now)
            guard state == .valid else { return .refused(state) }
            let childID: UserID = row["child_id"]
            if username != row["username"] as String,
               try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE username_key = ? AND id != ?", arguments: [AccountRules.key(username), childID]) == true {
                return .invalid([.username: .usernameTaken])
            }
            try db.execute(sql: "UPDATE child_hand_over SET used_at = ? WHERE id = ?", arguments: [StoredDate(now), row["id"]])
            try db.execute(sql: "DELETE FROM child_hand_over WHERE child_id = ? AND used_at IS NULL", arguments: [childID])
            try db.execute(sql: "DELETE FROM child_manager WHERE child_id = ?", arguments: [childID])
            try db.execute(
                sql: """
                    UPDATE user SET kind = 'member', username = ?, username_key = ?, username_skeleton = ?, email = ?, password_hash = ?
                    WHERE id = ?
                    """,
                arguments: [username, AccountRules.key(username), NameSkeleton.of(username), email.isEmpty ? nil : email, hash, childID]
            )
            try Administration.record(actor: username, action: "took over her profile through a hand-over link", subject: "", at: now, db)
            return .member(try Row.fetchOne(db, sql: "SELECT * FROM user WHERE id = ?", arguments: [childID]).map(User.init(row:))!)
        }
    }

    private static func handOverRow(_ token: String, _ db: Database) throws -> Row? {
        guard token.utf8.count == 43 else { return nil }
        return try Row.fetchOne(
            db,
            sql: """
                SELECT child_hand_over.*, user.username, \(MemberName.shownSQL("user")) AS name FROM child_hand_over
                JOIN user ON user.id = child_hand_over.child_id WHERE token_hash = ?
                """,
            arguments: [SessionStore.fingerprint(token)]
        )
    }

    private static func handOverState(_ row: Row, now: Date) -> LinkState {
        if row.optionalDate("used_at") != nil { return .used }
        return row.date("expires_at") <= now ? .expired : .valid
    }
}
