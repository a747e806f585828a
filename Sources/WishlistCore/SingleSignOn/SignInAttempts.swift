import Foundation
import GRDB

/// A sign-in under way at the provider: what the callback needs to finish it.
public struct SignInAttempt: Sendable, Equatable {
    /// The `state` parameter, which the provider hands back.
    public let state: String
    /// The `nonce` the ID token must carry.
    public let nonce: String
    /// PKCE's secret half; the provider saw only its SHA-256 (`codeChallenge`).
    public let codeVerifier: String
    /// The signed-in member linking an identity, or nil for a sign-in.
    public let linkingUserID: UserID?
    /// Where to go afterwards (a local path).
    public let next: String
    /// The invite the sign-in was started from (the SHA-256 of its token), which a new account
    /// spends under `accounts.signup: invite`.
    public var inviteHash: Data?

    /// PKCE S256 (RFC 7636 §4.2): base64url of the verifier's SHA-256.
    public var codeChallenge: String { Base64URL.encode(Digests.sha256(Array(codeVerifier.utf8))) }
}

/// The `sign_in_attempt` table. An attempt is bound to the browser that started it by the token
/// of a short-lived cookie (only its SHA-256 is stored), lasts ten minutes, and is spent by the
/// first callback that names it, so a callback replayed, or carried to another browser, finds nothing.
public struct SignInAttempts: Sendable {
    public static let lifetime: TimeInterval = 600
    /// Starting is a plain link anyone can follow: one client address holds at most this many
    /// unfinished attempts, so a loop of requests cannot fill the table.
    public static let livePerAddress = 30

    /// The address already holds `livePerAddress` attempts.
    public struct Busy: Error, Equatable {}

    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    /// A new attempt for the browser holding `browserToken`, started from `address`; throws
    /// `Busy` when that address holds too many.
    public func start(
        browserToken: String, address: String, linkingUserID: UserID?, next: String, inviteHash: Data? = nil
    ) async throws -> SignInAttempt {
        let attempt = SignInAttempt(
            state: SecureRandom.token(), nonce: SecureRandom.token(), codeVerifier: SecureRandom.token(), linkingUserID: linkingUserID, next: next,
            inviteHash: inviteHash
        )
        let now = clock.now()
        try await database.write { db in
            let live = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM sign_in_attempt WHERE address = ? AND expires_at > ?", arguments: [address, StoredDate(now)]
            ) ?? 0
            guard live < Self.livePerAddress else { throw Busy() }
            try db.execute(
                sql: """
                    INSERT INTO sign_in_attempt (state, browser, nonce, code_verifier, user_id, next, address, expires_at, invite_hash)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    attempt.state, Self.fingerprint(browserToken), attempt.nonce, attempt.codeVerifier, linkingUserID, next, address,
                    StoredDate(now.addingTimeInterval(Self.lifetime)), inviteHash,
                ]
            )
        }
        return attempt
    }

    /// Spends the attempt named by `state`: nil when there is none, it expired, or another
    /// browser started it. It is deleted whatever the answer.
    public func finish(state: String, browserToken: String) async throws -> SignInAttempt? {
        let now = clock.now()
        return try await database.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sign_in_attempt WHERE state = ?", arguments: [state]) else { return nil }
            try db.execute(sql: "DELETE FROM sign_in_attempt WHERE state = ?", arguments: [state])
            let browser: Data = row["browser"]
            guard row.date("expires_at") > now, constantTimeEquals(browser, Self.fingerprint(browserToken)) else { return nil }
            return SignInAttempt(
                state: row["state"], nonce: row["nonce"], codeVerifier: row["code_verifier"], linkingUserID: row["user_id"], next: row["next"],
                inviteHash: row["invite_hash"]
            )
        }
    }

    public func deleteExpired() async throws -> Int {
        let now = clock.now()
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM sign_in_attempt WHERE expires_at <= ?", arguments: [StoredDate(now)])
            return db.changesCount
        }
    }

    static func fingerprint(_ token: String) -> Data {
        Data(Digests.sha256(Array(token.utf8)))
    }
}
