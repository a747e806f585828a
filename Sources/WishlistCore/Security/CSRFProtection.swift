import Foundation
import GRDB

/// CSRF tokens bound to the browser's session token: HMAC-SHA-256 of it under a server key kept
/// in the database. A page of another site cannot read the cookie, so it cannot compute the
/// token; and because signing in issues a new session token, a token from before sign-in is
/// worthless after it.
public struct CSRFProtection: Sendable {
    private let key: [UInt8]

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
        Base64URL.encode(Digests.hmacSHA256(key: key, message: Array("csrf:\(sessionToken)".utf8)))
    }

    public func isValid(_ submitted: String, forSession sessionToken: String) -> Bool {
        !sessionToken.isEmpty && constantTimeEquals(Array(submitted.utf8), Array(token(forSession: sessionToken).utf8))
    }
}
