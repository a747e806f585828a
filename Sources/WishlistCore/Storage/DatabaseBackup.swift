import CivilTime
import Foundation
import GRDB

/// A consistent copy of the live database, safe while the server runs and writes.
///
/// SQLite's online backup API copies the pages of one read transaction, so the copy holds exactly
/// the writes committed before it began, whatever is written meanwhile. The copy is written to a
/// temporary file beside the destination, checked with `PRAGMA integrity_check`, synced, and only
/// then renamed over the destination: at every moment the destination is the old backup or the
/// new one, never half of either.
public enum DatabaseBackup {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes the copy to `path` and returns its size in bytes.
    @discardableResult
    public static func write(_ database: AppDatabase, to path: String) throws -> Int {
        let destination = URL(fileURLWithPath: path)
        let directory = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(description: "the folder \(directory.path) does not exist")
        }
        let temporary = directory.appendingPathComponent(".\(destination.lastPathComponent).partial-\(SecureRandom.token().prefix(8))")
        defer { try? FileManager.default.removeItem(at: temporary) }
        try copy(database, to: temporary.path)
        try sync(temporary.path)
        guard rename(temporary.path, destination.path) == 0 else {
            throw Failure(description: "could not move the copy into place at \(path): \(String(cString: strerror(errno)))")
        }
        try sync(directory.path)
        let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int
        return size ?? 0
    }

    /// Backs up into `directory` as `wishlist-YYYYMMDD-HHMMSS.sqlite` (UTC) and deletes all but the
    /// newest `keep` such files there; returns the new file's path.
    public static func rotate(_ database: AppDatabase, into directory: String, keep: Int, now: Date) throws -> String {
        let path = URL(fileURLWithPath: directory).appendingPathComponent("wishlist-\(fileStamp(now)).sqlite").path
        try write(database, to: path)
        // The names sort by time, so the oldest come first.
        let backups = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("wishlist-") && $0.hasSuffix(".sqlite") }
            .sorted()
        for old in backups.dropLast(keep) {
            try FileManager.default.removeItem(atPath: URL(fileURLWithPath: directory).appendingPathComponent(old).path)
        }
        return path
    }

    /// `yyyyMMdd-HHmmss` in UTC.
    static func fileStamp(_ date: Date) -> String {
        let moment = CivilDateTime(date)
        var text = ""
        for (value, digits) in [(moment.year, 4), (moment.month, 2), (moment.day, 2)] {
            text.appendPadded(value, minimumDigits: digits)
        }
        text.append("-")
        for value in [moment.hour, moment.minute, moment.second] {
            text.appendPadded(value, minimumDigits: 2)
        }
        return text
    }

    private static func copy(_ database: AppDatabase, to path: String) throws {
        try PrivateFile.createIfMissing(at: path)
        let copy = try DatabaseQueue(path: path)
        try database.pool.backup(to: copy)
        let verdict = try copy.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        try copy.close()
        guard verdict == ["ok"] else {
            throw Failure(description: "the copy failed SQLite's integrity check: \(verdict.prefix(3).joined(separator: "; "))")
        }
    }

    /// Flushes a file or folder to the disk, so a rename is not acknowledged before the data.
    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure(description: "could not open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(description: "could not sync \(path): \(String(cString: strerror(errno)))") }
    }
}
