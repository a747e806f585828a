import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// Issue 27: the database and its backups were created `0644`, readable by every account on the
/// machine. They are the server user's alone.
@Suite("Storage: the database and its backups are private files", .removesTemporaryDirectories)
struct FilePermissionTests {
    static func permissions(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aNewDatabaseItsJournalAndABackupAreReadableByTheOwnerOnly() async throws {
        let folder = try temporaryDirectory().appendingPathComponent("data")
        let path = folder.appendingPathComponent("wishlist.sqlite").path
        let database = try AppDatabase.open(path: path)
        try await database.pool.write { try $0.execute(sql: "INSERT INTO secret (name, value) VALUES ('probe', x'00')") }
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try Self.permissions(file) == 0o600, "\(file)")
        }
        #expect(try Self.permissions(folder.path) == 0o700, "the folder it made")
        let backup = try temporaryDirectory().appendingPathComponent("copy.sqlite").path
        _ = try DatabaseBackup.write(database, to: backup)
        #expect(try Self.permissions(backup) == 0o600)
    }

    @Test func anExistingDatabaseKeepsThePermissionsItsOwnerGaveIt() throws {
        let path = try temporaryDirectory().appendingPathComponent("shared.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o640]))
        _ = try AppDatabase.open(path: path)
        #expect(try Self.permissions(path) == 0o640)
    }
}
