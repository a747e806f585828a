import GRDB

/// A database failure that passes with time (a writer holding on, a full disk, a file that cannot
/// be opened), as opposed to a bug. Pages answer it with a 503 that says which.
public enum DatabaseOutage: Sendable, Equatable {
    /// Another writer held the database past the busy timeout.
    case busy
    /// The disk has no room for the write.
    case diskFull
    /// The file cannot be opened, read or written.
    case unavailable

    /// The outage `error` reports, or nil for any other error.
    public init?(_ error: any Error) {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        case .SQLITE_FULL: self = .diskFull
        case .SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_READONLY: self = .unavailable
        default: return nil
        }
    }
}
