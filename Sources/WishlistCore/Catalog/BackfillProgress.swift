import Foundation

/// What `wishlist sync --history` shows while it works: on a terminal, one line redrawn in place
/// with a bar and an estimate of the time left; elsewhere (a log, a pipe), a plain line per request.
public struct BackfillProgress: Sendable {
    public let perMinute: Int
    public let started: Date

    public init(perMinute: Int, started: Date) {
        self.perMinute = perMinute
        self.started = started
    }

    /// `[##########--------------] 12/54  Hardcover Fiction, 2026-03-01  about 9 min left`
    public func terminalLine(what: String, done: Int, total: Int, now: Date) -> String {
        "\(Self.bar(done: done, total: total, width: 24)) \(done)/\(total)  \(what)  \(eta(done: done, total: total, now: now))"
    }

    /// `[13/54] Hardcover Fiction, 2026-03-01`: the request about to be made, counted from 1.
    public func plainLine(what: String, done: Int, total: Int) -> String {
        "[\(done + 1)/\(total)] \(what)"
    }

    public static func bar(done: Int, total: Int, width: Int) -> String {
        let filled = total > 0 ? min(width, width * done / total) : width
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    /// The time left at the slower of the key's rate and the pace so far.
    public func eta(done: Int, total: Int, now: Date) -> String {
        let remaining = max(0, total - done)
        guard remaining > 0 else { return "finishing" }
        let allowed = 60 / Double(max(1, perMinute))
        let observed = done > 0 ? now.timeIntervalSince(started) / Double(done) : 0
        let minutes = Double(remaining) * max(allowed, observed) / 60
        return minutes < 1 ? "under a minute left" : "about \(Int(minutes.rounded(.up))) min left"
    }
}
