#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import Foundation
import Logging
import Synchronization

/// The server's log handler: one line a message, shaped like swift-log's `StreamLogHandler` but
/// stamped in UTC (`2026-11-23T19:46:15Z info wishlist: hb.request.id=… [Hummingbird] GET /wishlist 200 0.4 ms`).
///
/// Ours because the access log writes a line for every request: `StreamLogHandler` formats its
/// metadata each time metadata is set, which Hummingbird does for every request, and asks the C
/// library for the local time for every line. This one formats metadata only for a line it
/// writes, and the timestamp once a second (`LogSink`).
public struct LineLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let sink: LogSink

    public init(label: String, level: Logger.Level, sink: LogSink = .standardError) {
        self.label = label
        self.logLevel = level
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { all.merge(provided) { _, new in new } }
        if let explicit = event.metadata, !explicit.isEmpty { all.merge(explicit) { _, new in new } }
        if let error = event.error { all["error.message"] = "\(error)" }
        // Plain appends: interpolating the level, an enum, would go through run-time reflection.
        var line = sink.timestamp()
        line.reserveCapacity(160)
        line += " "
        line += event.level.rawValue
        line += " "
        line += label
        line += ":"
        for key in all.count < 2 ? Array(all.keys) : all.keys.sorted() {
            line += " "
            line += key
            line += "="
            line += all[key]!.description
        }
        line += " ["
        line += event.source
        line += "] "
        line += event.message.description
        line += "\n"
        sink.write(line, urgent: event.level >= .warning)
    }
}

/// Where log lines go: a file descriptor. Each `write` holds whole lines, so lines from
/// different threads never interleave.
///
/// A batching sink (the server's) writes an info line within `batchDelay`, together with the lines
/// logged meanwhile: one system call for a hundred access-log lines rather than one each, which
/// was 3% of a page's CPU. A line at warning or above is written at once, after every line logged
/// before it, and so is everything waiting at ``flush()``. A crash loses at most the last
/// `batchDelay` of info lines. When `capacity` bytes are waiting (the descriptor blocks: a
/// stalled journal), further lines are dropped and counted: no request waits for the log.
public final class LogSink: Sendable {
    public static let standardError = LogSink(descriptor: 2)

    let descriptor: Int32
    private let stamp = Mutex<(second: Int, text: String)>((-1, ""))
    private let batch: LineBatch?

    /// A sink that writes each line at once.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        self.batch = nil
    }

    /// A sink that writes info lines in batches, from a thread of its own.
    public init(descriptor: Int32, batchDelay: Duration, capacity: Int = 1 << 20) {
        self.descriptor = descriptor
        let batch = LineBatch(delay: batchDelay, capacity: capacity)
        self.batch = batch
        let thread = Thread { batch.writeForever { Self.write($0, to: descriptor) } }
        thread.name = "log writer"
        thread.start()
    }

    /// UTC to the second, the time every page and table of the app is in.
    func timestamp() -> String {
        let now = time(nil)
        if let kept = stamp.withLock({ $0.second == now ? $0.text : nil }) { return kept }
        var seconds = now
        var utc = tm()
        var buffer = [CChar](repeating: 0, count: 64)
        guard gmtime_r(&seconds, &utc) != nil, strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &utc) > 0 else {
            return "<unknown time>"
        }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        stamp.withLock { $0 = (now, text) }
        return text
    }

    /// Writes `line` now, or soon when batching and not `urgent`.
    func write(_ line: String, urgent: Bool = false) {
        guard let batch else { return Self.write(line, to: descriptor) }
        batch.append(line)
        if urgent { flush() }
    }

    /// Writes every line waiting. Call before the process exits.
    public func flush() {
        batch?.flush { Self.write($0, to: descriptor) }
    }

    private static func write(_ lines: String, to descriptor: Int32) {
        var lines = lines
        lines.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                // A full disk or a closed descriptor loses the lines, never the request.
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// The lines a batching ``LogSink`` has not written yet.
///
/// `@unchecked Sendable`: `waiting` and `dropped` are only touched under `condition`, and `writing`
/// is held from taking lines until they are written, so that lines leave in the order they came.
private final class LineBatch: @unchecked Sendable {
    private let delay: Duration
    private let capacity: Int
    private let condition = NSCondition()
    private let writing = NSLock()
    private var waiting = ""
    private var dropped = 0

    init(delay: Duration, capacity: Int) {
        self.delay = delay
        self.capacity = capacity
    }

    func append(_ line: String) {
        condition.lock()
        defer { condition.unlock() }
        guard waiting.utf8.count + line.utf8.count <= capacity else {
            dropped += 1
            return
        }
        // The writer waits only while nothing is waiting: one wake-up a batch.
        if waiting.isEmpty { condition.signal() }
        waiting += line
    }

    /// Takes every waiting line, and a count of the dropped ones, and hands them to `write`.
    func flush(_ write: (String) -> Void) {
        writing.lock()
        defer { writing.unlock() }
        condition.lock()
        var lines = waiting
        let lost = dropped
        (waiting, dropped) = ("", 0)
        condition.unlock()
        if lost > 0 { lines += "[log] \(lost) lines dropped: the log's output did not keep up\n" }
        if !lines.isEmpty { write(lines) }
    }

    /// The writer thread: waits for a line, lets others gather for `delay`, writes them all.
    func writeForever(_ write: (String) -> Void) -> Never {
        while true {
            condition.lock()
            while waiting.isEmpty { condition.wait() }
            condition.unlock()
            Thread.sleep(forTimeInterval: Double(delay.components.attoseconds) / 1e18 + Double(delay.components.seconds))
            flush(write)
        }
    }
}
