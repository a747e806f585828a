import Foundation
import GRDB

extension AccountService {
    public enum SingleSignOnOutcome: Sendable, Equatable {
        case signedIn(User)
        /// A new account, made by this sign-in: it starts in the welcome, as a password sign-up
        /// does (issue 57).
        case created(User)
        /// No account has this identity (or name) and sign-up through it is off.
        case unknown
        /// The account is disabled: refused as a password sign-in is.
        case disabled
        /// The proxy's name breaks the username rules (`AccountRules`), so it names no account.
        case invalidName(AccountFault)
        /// A new identity came with an invite that is not valid (any more); nothing was made.
        case inviteRefused(LinkState)
    }

    /// Whether a new identity gets an account (``AppConfig/Accounts/singleSignOnSignup``).
    public enum IdentitySignup: Sendable, Equatable {
        case open
        /// Only with a valid invite, which the new account spends: the SHA-256 of the token the
        /// sign-in was started with, nil when it came with none.
        case invite(hash: Data?)
        case closed
    }

    /// Signs in the account linked to `(issuer, subject)`; an identity no account has gets a new
    /// account when `signup` admits it, named from `preferredUsername` (made valid and unique) and
    /// without a password. An e-mail address never links anything.
    public func signIn(issuer: String, subject: String, preferredUsername: String?, signup: IdentitySignup) async throws -> SingleSignOnOutcome {
        let identities = SignInIdentities(database: users.database, clock: users.clock)
        let now = users.clock.now()
        return try await users.database.write { db -> SingleSignOnOutcome in
            if let user = try identities.user(issuer: issuer, subject: subject, db) { return Self.outcome(user) }
            let username = try UserStore.freeUsername(AccountRules.usernameSuggestion(from: preferredUsername), db)
            switch signup {
            case .closed, .invite(hash: nil):
                return .unknown
            case .invite(let hash):
                let state = try Invites.spend(hash: hash, for: username, now: now, db)
                guard state == .valid else { return .inviteRefused(state) }
            case .open:
                break
            }
            let user = try UserStore.createWithoutPassword(username: username, at: now, db)
            try SignInIdentities.insert(userID: user.id, issuer: issuer, subject: subject, at: now, db)
            return .created(user)
        }
    }

    /// Signs in the account an authenticating proxy named (`accounts.trustedHeader`): the
    /// account of that username, or, when `signup` allows, a new one of exactly that name.
    /// Only a new account is a write: the proxy names the user on every request.
    public func signIn(trustedUsername username: String, signup: Bool) async throws -> SingleSignOnOutcome {
        if let problem = AccountRules.usernameProblem(username) { return .invalidName(problem) }
        if let user = try await users.database.pool.read({ db in try UserStore.find(username: username, db) }) {
            return Self.outcome(user)
        }
        let now = users.clock.now()
        let found = try await users.database.write { db -> (user: User, isNew: Bool)? in
            if let user = try UserStore.find(username: username, db) { return (user, false) }
            guard signup else { return nil }
            return (try UserStore.createWithoutPassword(username: username, at: now, db), true)
        }
        if let found, found.isNew { return .created(found.user) }
        return Self.outcome(found?.user)
    }

    private static func outcome(_ user: User?) -> SingleSignOnOutcome {
        guard let user else { return .unknown }
        return user.isDisabled ? .disabled : .signedIn(user)
    }
}

extension UserStore {
    static func find(username: String, _ db: Database) throws -> User? {
        try Row.fetchOne(db, sql: "SELECT * FROM user WHERE username_key = ?", arguments: [AccountRules.key(username)]).map(User.init(row:))
    }

    /// An account with no password (an empty hash, which never verifies): it signs in through
    /// its provider or proxy, or a passkey added later.
    static func createWithoutPassword(username: String, at now: Date, _ db: Database) throws -> User {
        try db.execute(
            sql: "INSERT INTO user (username, username_key, username_skeleton, password_hash, created_at) VALUES (?, ?, ?, '', ?)",
            arguments: [username, AccountRules.key(username), NameSkeleton.of(username), StoredDate(now)]
        )
        return try find(username: username, db)!
    }

    /// `base`, or `base2`, `base3`… : the first no account has, cut to fit the length rule.
    static func freeUsername(_ base: String, _ db: Database) throws -> String {
        var number = 1
        while true {
            let suffix = number == 1 ? "" : String(number)
            let name = String(base.prefix(AccountRules.usernameLengths.upperBound - suffix.count)) + suffix
            if try find(username: name, db) == nil { return name }
            number += 1
        }
    }
}

extension AccountRules {
    /// A valid username from a provider's `preferred_username`: the allowed characters kept,
    /// spaces as dots, the rest dropped; `member` when too little is left.
    static func usernameSuggestion(from preferred: String?) -> String {
        let kept = (preferred ?? "").unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " { return "." }
            let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
            return allowed ? Character(scalar) : nil
        }
        let name = String(String(kept).prefix(usernameLengths.upperBound))
        return name.count >= usernameLengths.lowerBound ? name : "member"
    }
}
