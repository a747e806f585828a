import Synchronization

/// How a background job (the mail sender, the cover fetcher) sleeps until there is work: a
/// ``ring()`` when something was queued, or its poll interval, whichever comes first.
///
/// A ring while the job is busy is kept, so the next ``wait(atMost:)`` returns at once: work
/// queued between two waits is never left for the next poll. After ``stop()`` every wait returns
/// at once, so a job on its way out is never caught asleep.
package final class WakeUpSignal: Sendable {
    private struct State {
        var pending = false
        var stopped = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    package init() {}

    /// Wakes the job's wait, or its next one.
    package func ring() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil as CheckedContinuation<Void, Never>?
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Ends every wait, this one and all after it.
    package func stop() {
        state.withLock { $0.stopped = true }
        ring()
    }

    /// Returns on a ring (one that came since the last wait included), on ``stop()``, or after
    /// `longest`. Rings that came meanwhile are spent: the job looks at everything next.
    package func wait(atMost longest: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForRing() }
            group.addTask { try? await Task.sleep(for: longest) }
            await group.next()
            group.cancelAll()
            // The timer may have come first; the wait for a ring cannot be cancelled, so it is rung
            // (or, not begun yet, finds the ring pending and ends at once).
            self.ring()
        }
        state.withLock { $0.pending = false }
    }

    private func waitForRing() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.pending || state.stopped {
                    state.pending = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}
