import Foundation

extension AccountService {
    public enum PasskeySignInOutcome: Sendable, Equatable {
        case signedIn(User)
        case refused(PasskeyRefusal)
        case throttled(retryAfter: Int)
    }

    /// A passkey sign-in, counted against the client's address exactly as a password attempt is:
    /// every refusal is a failure, and a success forgives the account's failures. A disabled
    /// account is refused like a passkey that is not registered.
    public func signIn(address: String, verifying assertion: () async throws -> UserID) async throws -> PasskeySignInOutcome {
        let attempt: LoginThrottle.Attempt
        switch try await throttle.admit([.address(address)]) {
        case .throttled(let wait): return .throttled(retryAfter: wait)
        case .admitted(let admitted): attempt = admitted
        }
        let userID: UserID
        do {
            userID = try await assertion()
        } catch let refusal as PasskeyRefusal {
            return .refused(refusal)
        }
        guard let user = try await users.find(id: userID), !user.isDisabled else { return .refused(.unknownCredential) }
        try await throttle.succeeded(attempt, clearing: .account(user.username))
        return .signedIn(user)
    }
}
