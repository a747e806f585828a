import Foundation
import GRDB
import Synchronization
import Testing
@testable import WishlistCore

@Suite("Backups: a consistent copy of the live database", .removesTemporaryDirectories)
struct DatabaseBackupTests {
    static func insertEvent(_ database: AppDatabase, _ number: Int) async throws -> Int64 {
        try await database.pool.write { db in
            try db.execute(sql: "INSERT INTO throttle_event (scope, happened_at) VALUES (?, ?)", arguments: ["write-\(number)", Date()])
            return db.lastInsertedRowID
        }
    }

    @Test func aBackupTakenUnderAWriteLoadHoldsEveryWriteAcknowledgedBeforeItBegan() async throws {
        let directory = try temporaryDirectory()
        let database = try AppDatabase.open(path: directory.appendingPathComponent("live.sqlite").path)
        let acknowledged = Mutex<[Int64]>([])
        let stop = Atomic<Bool>(false)
        let writer = Task {
            var number = 0
            while !stop.load(ordering: .relaxed) {
                number += 1
                let id = try await Self.insertEvent(database, number)
                acknowledged.withLock { $0.append(id) }
            }
        }
        // Let the writer get going, so the backup really runs between writes.
        while acknowledged.withLock({ $0.count }) < 200 { await Task.yield() }
        let before = acknowledged.withLock { $0 }
        let backup = directory.appendingPathComponent("backup.sqlite").path
        try await Task.detached { try DatabaseBackup.write(database, to: backup) }.value
        let during = acknowledged.withLock { $0.count }
        stop.store(true, ordering: .relaxed)
        try await writer.value
        #expect(during > before.count, "writes went on while the backup ran")

        let copy = try AppDatabase.open(path: backup)
        let copied = Set(try await copy.pool.read { try Int64.fetchAll($0, sql: "SELECT id FROM throttle_event") })
        #expect(before.allSatisfy(copied.contains), "every write acknowledged before the backup began is in it")
        #expect(try await copy.pool.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try copy.appliedMigrations() == (try database.appliedMigrations()))
    }

    @Test func theCopyReplacesAnEarlierBackupWholeAndLeavesNoTemporaryFile() async throws {
        let directory = try temporaryDirectory()
        let database = try AppDatabase.open(path: directory.appendingPathComponent("live.sqlite").path)
        _ = try await Self.insertEvent(database, 1)
        let backups = try temporaryDirectory()
        let backup = backups.appendingPathComponent("backup.sqlite")
        try Data("an old backup".utf8).write(to: backup)
        let size = try DatabaseBackup.write(database, to: backup.path)
        #expect(size > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path) == ["backup.sqlite"])
        let copy = try DatabaseQueue(path: backup.path)
        #expect(try await copy.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM throttle_event") } == 1)
    }

    /// Issue 35: "checked with PRAGMA integrity_check, then renamed into place" had no test. A
    /// source whose index no longer matches its table (its definition rewritten under it) copies
    /// page for page into a copy that fails the check: refused, and the earlier backup stays.
    @Test func aCopyThatFailsTheIntegrityCheckIsRefusedAndTheEarlierBackupStays() async throws {
        let directory = try temporaryDirectory()
        let database = try AppDatabase.open(path: directory.appendingPathComponent("live.sqlite").path)
        try await database.pool.write { db in
            try db.execute(sql: "CREATE TABLE junk (a INTEGER); CREATE INDEX junk_a ON junk (a)")
            for value in 1...200 { try db.execute(sql: "INSERT INTO junk (a) VALUES (?)", arguments: [value]) }
        }
        let backups = try temporaryDirectory()
        let backup = backups.appendingPathComponent("backup.sqlite")
        _ = try DatabaseBackup.write(database, to: backup.path)
        let earlier = try Data(contentsOf: backup)

        try await database.pool.writeWithoutTransaction { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = 'CREATE INDEX junk_a ON junk (a DESC)' WHERE name = 'junk_a'")
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        #expect(throws: DatabaseBackup.Failure.self) { try DatabaseBackup.write(database, to: backup.path) }
        #expect(try Data(contentsOf: backup) == earlier, "the earlier backup is untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path) == ["backup.sqlite"], "no partial copy left")
    }

    @Test func aMissingFolderIsRefusedWithASentence() async throws {
        let database = try AppDatabase.open(path: try temporaryDirectory().appendingPathComponent("live.sqlite").path)
        let missing = try temporaryDirectory().appendingPathComponent("no-such-folder/backup.sqlite").path
        do {
            try DatabaseBackup.write(database, to: missing)
            Issue.record("a backup into a missing folder was written")
        } catch let failure as DatabaseBackup.Failure {
            #expect(failure.description.hasSuffix("no-such-folder does not exist"))
        }
    }

    @Test func rotationKeepsTheNewestCopies() async throws {
        let database = try AppDatabase.open(path: try temporaryDirectory().appendingPathComponent("live.sqlite").path)
        let folder = try temporaryDirectory()
        try Data("not a backup".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        for day in 0..<5 {
            try DatabaseBackup.rotate(database, into: folder.path, keep: 3, now: start.addingTimeInterval(Double(day) * 86_400))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["notes.txt", "wishlist-20260923-141320.sqlite", "wishlist-20260924-141320.sqlite", "wishlist-20260925-141320.sqlite"], "the three newest of 21–25 September 2026 (UTC)")
    }
}
