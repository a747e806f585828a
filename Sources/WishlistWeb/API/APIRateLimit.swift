import Foundation
import Synchronization
import WishlistCore

/// Each token's requests in the current minute (issue 54): at most `perMinute`, then 429 with
/// `Retry-After` until the minute ends. Kept in memory, unlike the sign-in throttle: a restart
/// forgiving a minute's count costs nothing, and a request must not wait for a write.
final class APIRateLimit: Sendable {
    let perMinute: Int
    private let clock: WallClock
    private let windows = Mutex<[APITokenID: (start: Date, count: Int)]>([:])

    init(perMinute: Int, clock: WallClock) {
        self.perMinute = perMinute
        self.clock = clock
    }

    /// Nil when the token may make this request (and counts it), else the seconds to wait.
    func admit(_ token: APITokenID) -> Int? {
        let now = clock.now()
        return windows.withLock { windows in
            var window = windows[token] ?? (now, 0)
            if now.timeIntervalSince(window.start) >= 60 { window = (now, 0) }
            guard window.count < perMinute else {
                return max(1, Int((60 - now.timeIntervalSince(window.start)).rounded(.up)))
            }
            window.count += 1
            windows[token] = window
            // The map holds only tokens used in the last minute or so: old windows go as it grows.
            if windows.count > 10_000 { windows = windows.filter { now.timeIntervalSince($0.value.start) < 60 } }
            return nil
        }
    }
}
