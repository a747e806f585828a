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
}

struct PrivateFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "could not create \(path): \(reason)" }
}
