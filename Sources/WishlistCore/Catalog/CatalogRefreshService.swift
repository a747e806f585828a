import Logging
import ServiceLifecycle

/// Keeps the catalog fresh while the server runs: refreshes when due, sleeps until the next time,
/// and stops at once on graceful shutdown, a refresh in flight included.
package struct CatalogRefreshService: Service {
    let sync: CatalogSync
    let logger: Logger
    let metrics: MetricsRegistry?

    package init(sync: CatalogSync, logger: Logger, metrics: MetricsRegistry? = nil) {
        self.sync = sync
        self.logger = logger
        self.metrics = metrics
    }

    package func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let wait = await secondsUntilDue()
            if wait > 0 {
                // Sample data never goes stale; wake up hourly anyway in case that changes.
                let seconds = wait.isFinite ? wait : 3600
                do {
                    try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(seconds)) }
                } catch {
                    return
                }
                continue
            }
            // A refresh may wait a minute for the rate limit or 30 s for a transfer; shutdown
            // cancels it rather than waiting that long.
            let report = await cancelWhenGracefulShutdown { await sync.refresh() }
            log(report)
        }
    }

    /// When the sync state cannot be read, tries again in an hour rather than in a tight loop.
    private func secondsUntilDue() async -> Double {
        do {
            return try await sync.secondsUntilDue()
        } catch {
            logger.error("could not read the catalog's sync state, next try in an hour: \(error)")
            return 3600
        }
    }

    private func log(_ report: SyncReport) {
        let outcome = report.cancelled ? "cancelled" : report.error == nil ? "success" : "failure"
        metrics?.increment(.catalogRefreshes, [("outcome", outcome)])
        if report.cancelled {
            logger.info("catalog refresh stopped for shutdown after \(report.requests) requests")
        } else if let error = report.error {
            logger.warning("catalog refresh failed after \(report.requests) requests: \(error.phrase) (\(report.cause ?? "no detail"))")
        } else {
            logger.info("catalog refreshed: \(report.listsUpdated) lists, \(report.requests) requests")
        }
    }
}
