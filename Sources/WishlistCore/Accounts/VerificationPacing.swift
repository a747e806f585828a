import Foundation
import Synchronization

/// Makes every password check take as long as a check against the most expensive Argon2
/// parameters in use.
///
/// A check costs what the stored hash's parameters cost. After a parameter change, accounts whose
/// hashes predate it verify at the old cost while unknown users verify against the dummy hash at
/// the new one, so timing alone would tell which names exist. Each check therefore waits out the
/// difference to the dearest parameter set seen (its cheapest observed run, so one slow run under
/// load does not raise the bar for good).
final class VerificationPacing: Sendable {
    /// A monotonic reading and a way to wait; the real ones block the hashing thread, which is
    /// exactly what a dearer hash would have done.
    struct Clock: Sendable {
        let now: @Sendable () -> Duration
        let wait: @Sendable (Duration) -> Void

        static let real: Clock = {
            let origin = ContinuousClock.now
            return Clock(
                now: { ContinuousClock.now - origin },
                wait: { duration in
                    let (seconds, attoseconds) = duration.components
                    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
                }
            )
        }()
    }

    let clock: Clock
    private let cheapestRun = Mutex<[String: Duration]>([:])

    init(clock: Clock) {
        self.clock = clock
    }

    /// Runs `check` for a hash of `parameterSet`, notes its cost, and waits until the floor.
    func paced<Result>(parameterSet: String, _ check: () throws -> Result) rethrows -> Result {
        let started = clock.now()
        let result = try check()
        let elapsed = clock.now() - started
        record(elapsed, for: parameterSet)
        let shortfall = floor - elapsed
        if shortfall > .zero { clock.wait(shortfall) }
        return result
    }

    /// Notes what one run for `parameterSet` cost, without waiting (calibration).
    func measured<Result>(parameterSet: String, _ work: () throws -> Result) rethrows -> Result {
        let started = clock.now()
        let result = try work()
        record(clock.now() - started, for: parameterSet)
        return result
    }

    /// The time every check takes at least.
    var floor: Duration {
        cheapestRun.withLock { $0.values.max() ?? .zero }
    }

    private func record(_ cost: Duration, for parameterSet: String) {
        cheapestRun.withLock { runs in runs[parameterSet] = min(runs[parameterSet] ?? cost, cost) }
    }
}
