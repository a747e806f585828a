import Logging
import Synchronization

/// A logger whose lines a test can read back, to check what reaches the log (and what must not).
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    /// Every line logged so far, as "level: message".
    var all: [String] { lines.withLock { $0 } }

    var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    private func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append("\(event.level): \(event.message)")
        }
    }
}
