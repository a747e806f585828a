#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import Logging
import Synchronization

/// The server's log handler: one line a message, shaped like swift-log's `StreamLogHandler`
/// (`2026-11-23T19:46:15+0000 info wishlist: hb.request.id=… [Hummingbird] GET /wishlist 200 0.4 ms`).
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
        sink.write(line)
    }
}

/// Where log lines go: a file descriptor, written with one `write` per line so that lines from
/// different threads never interleave.
public final class LogSink: Sendable {
    public static let standardError = LogSink(descriptor: 2)

    let descriptor: Int32
    private let stamp = Mutex<(second: Int, text: String)>((-1, ""))

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The local time to the second, with its UTC offset, as `StreamLogHandler` writes it.
    func timestamp() -> String {
        let now = time(nil)
        if let kept = stamp.withLock({ $0.second == now ? $0.text : nil }) { return kept }
        var seconds = now
        var local = tm()
        var buffer = [CChar](repeating: 0, count: 64)
        guard localtime_r(&seconds, &local) != nil, strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local) > 0 else {
            return "<unknown time>"
        }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        stamp.withLock { $0 = (now, text) }
        return text
    }

    func write(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                // A full disk or a closed descriptor loses the line, never the request.
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
