import Foundation
import GRDB

/// Sign-up, sign-in, password changes and account removal: the rules of the Security section of
/// the design, with no knowledge of HTTP.
public struct AccountService: Sendable {
    public enum SignUpOutcome: Sendable, Equatable {
        case created(User)
        case invalid(AccountProblems)
        case throttled(retryAfter: Int)
        /// The invite that sign-up needs is not valid (any more).
        case inviteRefused(LinkState)
        /// The setup link is not valid (any more): used, or the server has an admin.
        case setupLinkRefused(LinkState)
    }

    public enum SignInOutcome: Sendable, Equatable {
        /// With the new session's token, for the cookie.
        case signedIn(User, sessionToken: String)
        /// Unknown user and wrong password alike: callers must not tell them apart.
        case rejected
        case throttled(retryAfter: Int)
    }

    let database: AppDatabase
    let users: UserStore
    public let sessions: SessionStore
    public let resetLinks: PasswordResetLinks
    /// Personal API tokens (issue 54), made under the same throttle as the other account events.
    public let apiTokens: APITokenStore
    let throttle: LoginThrottle
    let hasher: PasswordHasher

    public init(database: AppDatabase, hasher: PasswordHasher, settings: AppConfig.Accounts, clock: WallClock) {
        self.database = database
        self.users = UserStore(database: database, clock: clock)
        self.sessions = SessionStore(
            database: database, clock: clock, idleDays: settings.sessionIdleDays, absoluteDays: settings.sessionAbsoluteDays
        )
        self.throttle = LoginThrottle(database: database, clock: clock, settings: settings)
        self.apiTokens = APITokenStore(database: database, clock: clock, throttle: throttle)
        self.resetLinks = PasswordResetLinks(database: database, clock: clock)
        self.hasher = hasher
    }

    /// Creates an account; with `invite`, only while that invite is valid, and spending it; with
    /// `setupLink`, likewise, and the account is an admin (``SetupLinks``).
    public func signUp(
        username: String, email: String, password: String, confirmation: String, address: String, invite: String? = nil,
        setupLink: String? = nil
    ) async throws -> SignUpOutcome {
        let errors = AccountRules.newAccountProblems(username: username, email: email, password: password, confirmation: confirmation)
        guard errors.isEmpty else { return .invalid(errors) }

        // Counted before the uniqueness check, so probing for taken names is throttled too.
        if case .throttled(let wait) = try await throttle.admit([.signup(address)]) { return .throttled(retryAfter: wait) }
        let hash = try await hasher.hash(password)
        do {
            return .created(try await users.create(username: username, email: email.isEmpty ? nil : email, passwordHash: hash, invite: invite, setupLink: setupLink))
        } catch UserStore.Conflict.invite(let state) {
            return .inviteRefused(state)
        } catch UserStore.Conflict.setupLink(let state) {
            return .setupLinkRefused(state)
        } catch UserStore.Conflict.username {
            return .invalid([.username: .usernameTaken])
        }
    }

    /// Checks the password (against a dummy hash for unknown users, so both cost the same), counts
    /// the attempt for throttling before hashing, starts a session for the browser (`userAgent`)
    /// when it is right, and upgrades the stored hash when the configured parameters changed.
    public func signIn(username: String, password: String, address: String, userAgent: String) async throws -> SignInOutcome {
        let attempt: LoginThrottle.Attempt
        switch try await throttle.admit([.account(username), .address(address)]) {
        case .throttled(let wait): return .throttled(retryAfter: wait)
        case .admitted(let admitted): attempt = admitted
        }
        let user = try await users.find(username: username)
        // A disabled account is refused after the hash, with the same answer as a wrong password;
        // a child's profile, which has no password, costs the dummy hash as an unknown name does.
        let hash = user?.isChild == true ? nil : user?.passwordHash
        guard try await hasher.verify(password, against: hash), let user, !user.isDisabled, !user.isChild else { return .rejected }
        // One write for the success and the session: the writer is shared with a Goodreads import's
        // slices, and each write may wait for one (docs/decisions/imports-in-slices.md).
        let token = try await database.write { [throttle, sessions] db in
            try throttle.succeeded(attempt, clearing: .account(username), db)
            return try sessions.create(userID: user.id, userAgent: userAgent, db)
        }
        if hasher.needsRehash(user.passwordHash) {
            try await users.updatePasswordHash(userID: user.id, to: try await hasher.hash(password))
        }
        return .signedIn(user, sessionToken: token)
    }

    public enum PasswordCheckOutcome: Sendable, Equatable {
        case done
        case invalid(AccountProblems)
        case throttled(retryAfter: Int)
    }

    /// Changes the password and signs the user out of every other browser, in one transaction.
    /// Wrong current passwords count against the account like failed sign-ins, so a stolen
    /// session cannot guess the password without limit.
    public func changePassword(userID: UserID, current: String, new: String, confirmation: String, keepingSession sessionID: SessionID?) async throws -> PasswordCheckOutcome {
        guard let user = try await users.find(id: userID) else { return .invalid([.currentPassword: .accountGone]) }
        var errors = AccountProblems()
        errors[.password] = AccountRules.passwordProblem(new)
        if confirmation != new { errors[.passwordConfirmation] = .passwordsDiffer }
        switch try await checkPassword(current, of: user) {
        case .throttled(let wait): return .throttled(retryAfter: wait)
        case .invalid: errors[.currentPassword] = .wrongPassword(current: true)
        case .done: break
        }
        guard errors.isEmpty else { return .invalid(errors) }
        try await users.updatePasswordHash(userID: userID, to: try await hasher.hash(new), endingSessionsExcept: sessionID)
        return .done
    }

    /// Deletes the account and everything that belongs to it, when the password is right.
    public func deleteAccount(userID: UserID, password: String) async throws -> PasswordCheckOutcome {
        guard let user = try await users.find(id: userID) else { return .invalid([.currentPassword: .wrongPassword(current: false)]) }
        switch try await checkPassword(password, of: user) {
        case .done: break
        case .invalid: return .invalid([.currentPassword: .wrongPassword(current: false)])
        case .throttled(let wait): return .throttled(retryAfter: wait)
        }
        do {
            try await users.delete(userID: userID)
        } catch Administration.Refusal.lastAdmin {
            return .invalid([.lastAdmin: .lastAdmin])
        } catch Administration.Refusal.lastManager {
            return .invalid([.lastManager: .lastManager])
        }
        return .done
    }

    /// How recent a sign-in stands in for the password of an account that has none (made
    /// through single sign-on or the trusted header) before a way in is added to it.
    public static let recentSignIn: TimeInterval = 600

    /// Whether the person behind a session is the account's owner, before a new way into it is
    /// added (linking single sign-on), so that a stolen session cannot add a lasting one: the
    /// password, counted against the account as a sign-in is; for an account without a password,
    /// a sign-in in this very session in the last ten minutes, which a stolen session seldom is.
    public func confirmOwner(userID: UserID, sessionID: SessionID?, password: String) async throws -> PasswordCheckOutcome {
        guard let user = try await users.find(id: userID) else { return .invalid([.currentPassword: .accountGone]) }
        guard user.passwordHash.isEmpty else {
            switch try await checkPassword(password, of: user) {
            case .invalid: return .invalid([.currentPassword: .wrongPassword(current: false)])
            case let outcome: return outcome
            }
        }
        // A request the trusted header signed in has no session of its own, so no sign-in to date.
        guard let sessionID, let signedInAt = try await sessions.signedInAt(sessionID: sessionID),
              users.clock.now().timeIntervalSince(signedInAt) <= Self.recentSignIn
        else {
            return .invalid([.currentPassword: .noPasswordAndNoRecentSignIn])
        }
        return .done
    }

    /// Checks the signed-in user's password before something that needs it (adding a passkey),
    /// counted against the account as a sign-in is.
    public func confirmPassword(userID: UserID, password: String) async throws -> PasswordCheckOutcome {
        guard let user = try await users.find(id: userID) else { return .invalid([:]) }
        return try await checkPassword(password, of: user)
    }

    /// A password check behind a session, throttled per account as sign-in is.
    private func checkPassword(_ password: String, of user: User) async throws -> PasswordCheckOutcome {
        let attempt: LoginThrottle.Attempt
        switch try await throttle.admit([.account(user.username)]) {
        case .throttled(let wait): return .throttled(retryAfter: wait)
        case .admitted(let admitted): attempt = admitted
        }
        guard try await hasher.verify(password, against: user.passwordHash) else { return .invalid([:]) }
        try await throttle.succeeded(attempt, clearing: .account(user.username))
        return .done
    }

    /// Measures the hashing cost of every parameter set the stored hashes use (see `VerificationPacing`).
    public func calibratePasswordChecks() async throws {
        try await hasher.calibrate(storedParameterSets: try await users.passwordParameterSets())
    }

    /// Deletes the sessions and throttle events that have expired; returns how many rows went.
    public func deleteExpiredRows() async throws -> Int {
        try await sessions.deleteExpired() + throttle.deleteExpired()
    }

    // MARK: Command line

    public enum AdminError: Error, CustomStringConvertible {
        case invalid(String), noSuchUser(String)
        /// A username or password the rules refuse (`field` is "username" or "password"): the
        /// command words the fault as the sign-up form does (UserCommand).
        case refused(field: String, AccountFault)
        public var description: String {
            switch self {
            case .invalid(let problem): return problem
            case .refused(let field, let fault): return "\(field): \(fault)"
            case .noSuchUser(let name): return "no user named \(name)"
            }
        }
    }

    public enum ResetOutcome: Sendable, Equatable {
        /// The link's state when it was used; only `.valid` changed the password.
        case link(LinkState)
        case invalid(AccountProblems)
    }

    /// Sets a new password through a reset link, ending every session of the user; with
    /// `unlinkingIdentities`, single sign-on no longer opens the account either, and with
    /// `revokingTokens` its API tokens stop at once.
    public func resetPassword(
        token: String, new: String, confirmation: String, unlinkingIdentities: Bool = false, revokingTokens: Bool = false
    ) async throws -> ResetOutcome {
        var errors = AccountProblems()
        errors[.password] = AccountRules.passwordProblem(new)
        if confirmation != new { errors[.passwordConfirmation] = .passwordsDiffer }
        guard errors.isEmpty else { return .invalid(errors) }
        return .link(try await resetLinks.spend(
            token: token, newHash: try await hasher.hash(new), unlinkingIdentities: unlinkingIdentities, revokingTokens: revokingTokens
        ))
    }

    /// Creates a user without throttling, for `wishlist user create`.
    public func createUser(username: String, password: String, isAdmin: Bool = false) async throws -> User {
        if let problem = AccountRules.usernameProblem(username) { throw AdminError.refused(field: "username", problem) }
        if let problem = AccountRules.passwordProblem(password) { throw AdminError.refused(field: "password", problem) }
        do {
            return try await users.create(username: username, email: nil, passwordHash: try await hasher.hash(password), isAdmin: isAdmin)
        } catch UserStore.Conflict.username {
            throw AdminError.invalid("username: \(username) already exists")
        }
    }

    /// Sets a new password and ends every session of the user, for `wishlist user reset-password`.
    public func resetPassword(username: String, to password: String) async throws {
        guard let user = try await users.find(username: username) else { throw AdminError.noSuchUser(username) }
        if let problem = AccountRules.passwordProblem(password) { throw AdminError.refused(field: "password", problem) }
        try await users.updatePasswordHash(userID: user.id, to: try await hasher.hash(password), endingSessionsExcept: nil)
    }

    public func deleteUser(username: String) async throws {
        guard let user = try await users.find(username: username) else { throw AdminError.noSuchUser(username) }
        do {
            try await users.delete(userID: user.id)
        } catch Administration.Refusal.lastAdmin {
            throw AdminError.invalid("\(username) is the only admin; promote another user first")
        } catch Administration.Refusal.lastManager {
            throw AdminError.invalid("\(username) is the only manager of a child's profile; delete the child's profile first")
        }
    }
}

extension AccountService {
    /// The language the member reads the app in: a shipped language's code (the web layer checks
    /// it), or nil to follow her browser (issue 53).
    public func setLanguage(userID: UserID, _ code: String?) async throws {
        try await users.setLanguage(userID: userID, code)
    }
}
