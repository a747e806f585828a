import Foundation
import GRDB
import Synchronization

/// CSRF tokens bound to the browser's session token: HMAC-SHA-256 of it under a server key kept
/// in the database. A page of another site cannot read the cookie, so it cannot compute the
/// token; and because signing in issues a new session token, a token from before sign-in is
/// worthless after it.
public struct CSRFProtection: Sendable {
    private let key: [UInt8]
    /// Every page carries its session's token, and a browser asks for many pages with one
    /// session: made once, a token is looked up after (the HMAC was 2% of a list page's CPU).
    private let made = MadeTokens()

    init(key: [UInt8]) {
        self.key = key
    }

    /// Loads the key, creating it on first start.
    public static func load(from database: AppDatabase) async throws -> CSRFProtection {
        let key = try await database.write { db -> [UInt8] in
            if let stored = try Data.fetchOne(db, sql: "SELECT value FROM secret WHERE name = 'csrf'") {
                return Array(stored)
            }
            let fresh = SecureRandom.bytes(32)
            try db.execute(sql: "INSERT INTO secret (name, value) VALUES ('csrf', ?)", arguments: [Data(fresh)])
            return fresh
        }
        return CSRFProtection(key: key)
    }

    public func token(forSession sessionToken: String) -> String {
        if let token = made.token(forSession: sessionToken) { return token }
        let token = Base64URL.encode(Digests.hmacSHA256(key: key, message: Array("csrf:\(sessionToken)".utf8)))
        made.keep(token, forSession: sessionToken)
        return token
    }

    public func isValid(_ submitted: String, forSession sessionToken: String) -> Bool {
        !sessionToken.isEmpty && constantTimeEquals(Array(submitted.utf8), Array(token(forSession: sessionToken).utf8))
    }
}

/// The tokens made for the latest sessions. It holds at most ``capacity`` and starts again when
/// full, so a flood of sessions cannot grow it; a token it forgot is made again, the same.
final class MadeTokens: Sendable {
    static let capacity = 1024
    private let tokens = Mutex<[String: String]>([:])

    var count: Int { tokens.withLock { $0.count } }

    func token(forSession sessionToken: String) -> String? {
        tokens.withLock { $0[sessionToken] }
    }

    func keep(_ token: String, forSession sessionToken: String) {
        tokens.withLock { tokens in
            if tokens.count >= Self.capacity { tokens.removeAll(keepingCapacity: true) }
            tokens[sessionToken] = token
        }
    }
}
