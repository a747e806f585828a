import Hummingbird
import Synchronization
import WishlistCore

/// Session reads, with what the page's loader read in them (``PageLoaders``), kept for as long as
/// nothing has been committed to the database: the same request from the same browser is then
/// answered without a database read.
///
/// "Nothing committed" is the database's version (``DatabaseChangeProbe``), which every commit
/// changes, by this process or another: a sign-out, a disabled account or a `wishlist user delete`
/// from a shell is seen by the next request, exactly as with a read. The session's expiry is
/// checked again on every use, and a session due for its `last_seen_at` write is read again.
///
/// - **Key**: the request's method, URI, cookies and `Accept-Language` (a page's language) and
///   the catalog's status line: all a loader may look at besides the database.
/// - **Invalidated**: by any commit, by any process: a read is kept under the version taken
///   *before* it, so a commit during the read only makes it stale. Any write empties it, so its
///   hits tell nothing about what in particular changed (the owner's pages' own cache is kept
///   apart from reservations: ``WishlistPageCache``).
/// - **Bounded**: at most 1,000 reads; when full, everything kept goes.
final class PageReadMemo: Sendable {
    struct Read: Sendable {
        let session: ActiveSession
        let user: Visitor.SignedIn
        let page: (any Sendable)?
        /// The session's CSRF token, an HMAC worth computing once.
        let csrfToken: String
    }

    static let capacity = 1_000

    private let changes: DatabaseChangeProbe
    private let statusLine: @Sendable () -> String?
    private let metrics: MetricsRegistry?
    private let state = Mutex(State())

    private struct State {
        /// The version the kept reads were made at; each is dropped when a later one is seen.
        var version = Int64.min
        var reads: [String: Read] = [:]
    }

    init(changes: DatabaseChangeProbe, statusLine: @escaping @Sendable () -> String?, metrics: MetricsRegistry?) {
        self.changes = changes
        self.statusLine = statusLine
        self.metrics = metrics
    }

    /// What identifies a request's read: its method (only a GET runs a loader), everything a
    /// loader may see of the request, and the status line that the cached pages of the key show.
    func key(for request: Request) -> String {
        var key = request.method.rawValue
        key += " "
        key += request.uri.description
        for cookie in request.headers[values: .cookie] {
            key += "\n"
            key += cookie
        }
        key += "\n"
        key += request.headers[.acceptLanguage] ?? ""
        key += "\n"
        key += statusLine() ?? ""
        return key
    }

    /// The database's version now, or nil when it cannot be told at once (then nothing is reused
    /// or kept). Take it before reading, so that a commit during the read makes the read stale.
    func currentVersion() -> Int64? {
        changes.version()
    }

    /// The read kept for `key`, if it was made at `version`.
    func read(_ key: String, at version: Int64) -> Read? {
        let read = state.withLock { state in state.version == version ? state.reads[key] : nil }
        metrics?.increment(.pageReadMemoLookups, [("result", read == nil ? "miss" : "hit")])
        return read
    }

    /// Keeps `read`, made after the database was at `version`, unless a later version was seen.
    func keep(_ read: Read, for key: String, readAfter version: Int64) {
        state.withLock { state in
            if version > state.version {
                state.reads.removeAll(keepingCapacity: true)
                state.version = version
            }
            guard version == state.version else { return }
            if state.reads.count >= Self.capacity { state.reads.removeAll(keepingCapacity: true) }
            state.reads[key] = read
        }
    }
}
