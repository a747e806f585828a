import Logging
import ServiceLifecycle

/// Keeps the catalog fresh while the server runs: refreshes when due, sleeps until the next time,
/// and stops at once on graceful shutdown.
struct CatalogRefreshService: Service {
    let sync: CatalogSync
    let logger: Logger

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let wait = (try? await sync.secondsUntilDue()) ?? 3600
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
            let report = await sync.refresh()
            if let error = report.error {
                logger.warning("catalog refresh failed after \(report.requests) requests: \(error.phrase)")
            } else {
                logger.info("catalog refreshed: \(report.listsUpdated) lists, \(report.requests) requests")
            }
        }
    }
}
