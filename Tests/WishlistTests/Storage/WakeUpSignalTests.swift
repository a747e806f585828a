import Testing
@testable import WishlistCore

/// The mail sender and the cover fetcher sleep on one ``WakeUpSignal``. Each case waits far
/// longer than a test may run (an hour) unless the behaviour under test ends the wait, so a
/// broken signal fails by the time limit, never by a measured time.
@Suite("A background job's wake-up signal", .timeLimit(.minutes(1)))
struct WakeUpSignalTests {
    static let forever: Duration = .seconds(3600)

    @Test func aRingWhileTheJobWasBusyEndsItsNextWaitAtOnce() async {
        let signal = WakeUpSignal()
        signal.ring()
        await signal.wait(atMost: Self.forever)
    }

    @Test func aRingEndsAWaitUnderWay() async {
        let signal = WakeUpSignal()
        let waiting = Task { await signal.wait(atMost: Self.forever) }
        signal.ring()
        await waiting.value
    }

    /// The cover fetcher's own copy of this could hang: when its poll won before the wait for a
    /// nudge had begun, that wait began afterwards and slept until the next nudge.
    @Test func thePollIntervalEndsAWaitNobodyRings() async {
        let signal = WakeUpSignal()
        for _ in 0..<200 {
            await signal.wait(atMost: .microseconds(1))
        }
    }

    @Test func afterStopEveryWaitEndsAtOnce() async {
        let signal = WakeUpSignal()
        signal.stop()
        await signal.wait(atMost: Self.forever)
        await signal.wait(atMost: Self.forever)
    }
}
