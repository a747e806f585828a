import HummingbirdCore
import Logging
import NIOCore

/// HTTP/1 connections whose requests are handled on the event loop that reads their socket.
///
/// Hummingbird runs each connection's task on Swift's global executor, so a request crossed
/// threads four times: the event loop woke a pool thread for the handler, the handler woke a
/// GRDB reader's queue, which woke the pool again, which handed the response to the event loop.
/// With the connection's task preferring its event loop, a request arrives, is handled and
/// written on one thread, and only the database read leaves it and comes back: in the household
/// mix 3-8% less CPU a request (Benchmarks/history.md, "twenty-first session").
///
/// What this asks of handlers is what the cooperative pool asked already: no blocking call.
/// Argon2, curl, pictures and covers run on thread pools of their own, the database on GRDB's
/// queues; a long computation of a handler now holds up its loop's other connections.
struct LoopBoundChannel<Base: ServerChildChannel>: ServerChildChannel {
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Base.Value, logger: Logger) async {
        // The preference holds for the connection's task and the tasks it starts in groups; a
        // `Task {}` a handler starts runs on the global executor as before.
        await withTaskExecutorPreference(EventLoopTaskExecutor(loop: value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// An event loop as a task executor: a job enqueued from the loop's own thread joins its queue
/// without a wake-up; one enqueued from another thread wakes the loop, as any `execute` does.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
