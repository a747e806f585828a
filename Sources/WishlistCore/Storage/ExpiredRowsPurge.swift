import Logging
import ServiceLifecycle

/// Deletes rows that have outlived their purpose (expired sessions, throttle events and API
/// request records past their windows) every `interval`, while the server runs.
///
/// Those rows are harmless to lookups, which ignore them, but an abandoned session is never looked
/// up again, so without this the tables would only grow.
package struct ExpiredRowsPurge: Service {
    /// Each deletes one kind of expired row and returns how many went.
    let purges: [@Sendable () async throws -> Int]
    let interval: Duration
    let logger: Logger

    package init(purges: [@Sendable () async throws -> Int], interval: Duration, logger: Logger) {
        self.purges = purges
        self.interval = interval
        self.logger = logger
    }

    package func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            await purgeOnce()
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
        }
    }

    func purgeOnce() async {
        var deleted = 0
        for purge in purges {
            do {
                deleted += try await purge()
            } catch {
                // The next round tries again; nothing depends on these rows being gone.
                logger.warning("deleting expired rows failed: \(error)")
            }
        }
        if deleted > 0 { logger.info("deleted \(deleted) expired rows") }
    }
}
