import Foundation
import Synchronization

/// The current time, injectable so tests can move it instead of waiting.
public struct WallClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    public static let system = WallClock { Date() }
}

/// A clock that stands still until a test moves it.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        current = Mutex(start)
    }

    public var clock: WallClock { WallClock { [self] in current.withLock { $0 } } }

    public func advance(by interval: TimeInterval) {
        current.withLock { $0 += interval }
    }
}
