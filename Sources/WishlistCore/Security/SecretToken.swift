import Foundation
import GRDB

/// The row behind a secret link's token (a share link, a feed or calendar link): found by the
/// token's fingerprint, whose stored copy is then compared in constant time as well, so neither
/// step times a guess against a secret.
enum SecretToken {
    /// The row `sql` selects by the fingerprint (its one argument), with the stored hash as
    /// `token_hash`; nil for a token that is not one of ours or that no row holds.
    static func row(behind token: String, _ sql: String, _ db: Database) throws -> Row? {
        guard token.utf8.count == 43 else { return nil }
        let fingerprint = SessionStore.fingerprint(token)
        guard let row = try Row.fetchOne(db, sql: sql, arguments: [fingerprint]) else { return nil }
        let stored: Data = row["token_hash"]
        return constantTimeEquals(stored, fingerprint) ? row : nil
    }
}
