#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Files that hold the household's data (the database, its backups) are made readable by the
/// server's own user only: SQLite would create them `0644`, readable by every account on the
/// machine, and its `-wal` and `-shm` files copy the database file's permissions.
enum PrivateFile {
    /// Creates an empty `0600` file at `path` if there is none; an existing file keeps the
    /// permissions its owner gave it.
    static func createIfMissing(at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw PrivateFileError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes `bytes` to a new `0600` file at `path`, whole and synced, or not at all: they go to a
    /// file of their own first, which is then linked into place. When `path` exists already
    /// (another process was first) it is left as it is.
    static func createOnce(at path: String, holding bytes: [UInt8]) throws {
        let partial = path + ".partial-" + SecureRandom.hex(byteCount: 4)
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PrivateFileError(path: path, reason: String(cString: strerror(errno))) }
        defer { unlink(partial) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else { throw PrivateFileError(path: path, reason: "the bytes could not be written and synced") }
        guard link(partial, path) == 0 || errno == EEXIST else { throw PrivateFileError(path: path, reason: String(cString: strerror(errno))) }
        // The new name is durable only once its folder is synced.
        let slash = path.lastIndex(of: "/")
        let folder = open(slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? ".", O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}

struct PrivateFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "could not create \(path): \(reason)" }
}
