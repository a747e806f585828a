import HummingbirdCore
import Logging

/// Bounds the open connections. Past the limit the server stops accepting (new connections wait
/// in the kernel's backlog) until one closes, and says so once in the log each time it happens,
/// so an operator learns why pages are slow instead of finding the process out of file descriptors.
struct ConnectionLimit: AvailableConnectionsDelegate {
    let maximum: Int
    let logger: Logger
    private var open = 0

    init(maximum: Int, logger: Logger) {
        self.maximum = maximum
        self.logger = logger
    }

    mutating func connectionOpened() {
        open += 1
        if open == maximum {
            logger.warning("connection limit reached: \(maximum) connections are open, new ones wait until some close (server.maxConnections)")
        }
    }

    mutating func connectionClosed() {
        open -= 1
    }

    func isAcceptingNewConnections() -> Bool {
        open < maximum
    }
}
