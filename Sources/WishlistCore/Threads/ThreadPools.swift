import Dispatch
import NIOPosix
import Synchronization

/// The pools of threads that run blocking work (Argon2, pictures, libcurl, SMTP), each started and
/// closed through here so that the process can wait for every one of their threads to end before it
/// exits. A pool shut down from its owner's `deinit` lets its threads wind down in their own time;
/// one still unwinding while `exit` ran the libraries' destructors once aborted the server after
/// SIGTERM, in `malloc` (docs/decisions/threads-end-before-exit.md).
public final class ThreadPools: Sendable {
    /// The process's pools: the app's owners start theirs here, and `main` closes them last.
    public static let process = ThreadPools()

    private let open = Mutex<[ObjectIdentifier: NIOThreadPool]>([:])
    /// Entered by each pool being shut down, left once its threads have been joined.
    private let closing = DispatchGroup()

    init() {}

    /// A pool of `threads` threads, started; its owner closes it with ``close(_:)``.
    public func start(threads: Int) -> NIOThreadPool {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        open.withLock { $0[ObjectIdentifier(pool)] = pool }
        return pool
    }

    /// Shuts `pool` down; its threads finish the work under way and are joined in the background.
    public func close(_ pool: NIOThreadPool) {
        guard open.withLock({ $0.removeValue(forKey: ObjectIdentifier(pool)) }) != nil else { return }
        closing.enter()
        pool.shutdownGracefully { [closing] _ in closing.leave() }
    }

    /// Closes the pools still open, then returns once every thread of every pool started here has
    /// ended, whether its owner closed it earlier or not.
    public func closeAll() async {
        let stillOpen = open.withLock { Array($0.values) }
        for pool in stillOpen { close(pool) }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            closing.notify(queue: .global()) { done.resume() }
        }
    }
}
