import Crypto
import Foundation

/// The key that seals every message in the outbox, kept in a file beside the database
/// (`<database>.outbox-key`, `0600`) and never in it.
///
/// A message carries a link whose token acts for a member: it sets a password, confirms an
/// address, makes an account, stops a digest. Sealed (ChaCha20-Poly1305), the row holds nothing
/// a copy of the database can use, and `wishlist backup` copies the database alone. A message
/// sealed under another key, or changed, does not open.
public struct OutboxKey: Sendable {
    static let byteCount = 32

    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func path(besideDatabase databasePath: String) -> String {
        databasePath + ".outbox-key"
    }

    /// Reads the key beside the database, making it on first start.
    public static func load(besideDatabase databasePath: String) throws -> OutboxKey {
        let path = path(besideDatabase: databasePath)
        if !FileManager.default.fileExists(atPath: path) {
            try PrivateFile.createOnce(at: path, holding: SecureRandom.bytes(byteCount))
        }
        guard let file = FileHandle(forReadingAtPath: path) else { throw Damaged(path: path) }
        defer { try? file.close() }
        guard let stored = try file.readToEnd(), stored.count == byteCount else { throw Damaged(path: path) }
        return OutboxKey(bytes: Array(stored))
    }

    func seal(_ message: [UInt8]) throws -> [UInt8] {
        Array(try ChaChaPoly.seal(message, using: SymmetricKey(data: bytes)).combined)
    }

    /// The message, or nil when it was not sealed under this key.
    func open(_ sealed: [UInt8]) -> [UInt8]? {
        guard let box = try? ChaChaPoly.SealedBox(combined: sealed),
              let message = try? ChaChaPoly.open(box, using: SymmetricKey(data: bytes))
        else { return nil }
        return Array(message)
    }

    struct Damaged: Error, CustomStringConvertible {
        let path: String

        var description: String {
            "\(path) can't be read as the outbox's key (\(byteCount) bytes, readable by the server's user): give it back to that user, "
                + "or move it aside and start again to make a new one; messages waiting in the outbox then fail, and can be asked for again"
        }
    }
}
