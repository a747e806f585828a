import Foundation
import Logging
import Testing
@testable import WishlistCore

/// The server's log lines: shape, metadata from every source, one line each.
@Suite("Log handler: one line a message", .removesTemporaryDirectories)
struct LineLogHandlerTests {
    /// A logger writing into a file of the test's own; returns what it wrote.
    static func logged(_ body: (inout Logger) -> Void) throws -> String {
        let path = try temporaryDirectory().appendingPathComponent("log.txt").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        var logger = Logger(label: "wishlist") { label in
            LineLogHandler(label: label, level: .info, sink: LogSink(descriptor: descriptor))
        }
        body(&logger)
        close(descriptor)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func aLineHasTimeLevelLabelSortedMetadataSourceAndMessage() throws {
        let text = try Self.logged { logger in
            logger[metadataKey: "hb.request.id"] = "42"
            logger[metadataKey: "a.first"] = "1"
            logger.info("GET /wishlist 200 0.4 ms", metadata: ["z.last": "2"], source: "Web")
        }
        let line = try #require(text.split(separator: "\n").first.map(String.init))
        #expect(text.hasSuffix("\n") && text.split(separator: "\n").count == 1)
        #expect(line.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ info wishlist: a.first=1 hb.request.id=42 z.last=2 \[Web\] GET \/wishlist 200 0.4 ms/) != nil, "\(line)")
    }

    @Test func levelsBelowTheLoggersAreDroppedAndErrorsAreNamed() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "disk full" } }
        let text = try Self.logged { logger in
            logger.debug("not written")
            logger.log(level: .error, "backup failed", error: Refused())
        }
        #expect(!text.contains("not written"))
        #expect(text.contains(" error wishlist: error.message=disk full [") && text.hasSuffix("] backup failed\n"))
    }

    @Test func linesFromManyThreadsNeverInterleave() async throws {
        let path = try temporaryDirectory().appendingPathComponent("log.txt").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let sink = LogSink(descriptor: descriptor)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    let logger = Logger(label: "w\(writer)") { LineLogHandler(label: $0, level: .info, sink: sink) }
                    for index in 0..<200 { logger.info("\(String(repeating: "x", count: 300)) \(index)") }
                }
            }
        }
        close(descriptor)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1_600)
        #expect(lines.allSatisfy { $0.wholeMatch(of: /\S+ info w\d: \[\w+\] x{300} \d+/) != nil })
    }

    /// A batching sink writing into a file of the test's own; the delay is long enough that only
    /// a warning or `flush()` writes, unless the test waits for the writer thread.
    static func batching(delay: Duration = .seconds(3_600), capacity: Int = 1 << 20) throws -> (LogSink, Logger, () throws -> String) {
        let path = try temporaryDirectory().appendingPathComponent("log.txt").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        let sink = LogSink(descriptor: descriptor, batchDelay: delay, capacity: capacity)
        let logger = Logger(label: "wishlist") { LineLogHandler(label: $0, level: .info, sink: sink) }
        return (sink, logger, { try String(contentsOfFile: path, encoding: .utf8) })
    }

    @Test func aBatchingSinkHoldsInfoLinesUntilAWarningOrAFlushAndKeepsTheirOrder() throws {
        let (sink, logger, written) = try Self.batching()
        logger.info("GET /lists 200 0.4 ms")
        logger.info("GET /wishlist 200 0.5 ms")
        #expect(try written().isEmpty, "info lines wait for the batch")
        logger.warning("connection limit reached")
        let lines = try written().split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.map { $0.split(separator: "] ").last.map(String.init) ?? "" } == ["GET /lists 200 0.4 ms", "GET /wishlist 200 0.5 ms", "connection limit reached"])
        logger.info("GET /books/1 200 0.3 ms")
        #expect(try written().split(separator: "\n").count == 3)
        sink.flush()
        #expect(try written().hasSuffix("] GET /books/1 200 0.3 ms\n"))
    }

    @Test func theWriterThreadWritesAnInfoLineAfterItsDelay() throws {
        let (_, logger, written) = try Self.batching(delay: .milliseconds(10))
        logger.info("GET /lists 200 0.4 ms")
        // Waits for the writer thread's write, not for a time: any delay passes once it wrote.
        let deadline = Date().addingTimeInterval(10)
        while try !written().contains("GET /lists 200"), Date() < deadline { usleep(1_000) }
        #expect(try written().hasSuffix("] GET /lists 200 0.4 ms\n"))
    }

    @Test func linesPastTheCapacityAreDroppedAndCounted() throws {
        let (sink, logger, written) = try Self.batching(capacity: 100)
        for index in 1...3 { logger.info("line \(index) \(String(repeating: "x", count: 20))") }
        sink.flush()
        let lines = try written().split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasSuffix("line 1 xxxxxxxxxxxxxxxxxxxx") == true)
        #expect(lines.last == "[log] 2 lines dropped: the log's output did not keep up")
    }

    @Test func batchedLinesFromManyThreadsNeverInterleaveOrGoMissing() async throws {
        let (sink, _, written) = try Self.batching()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    let logger = Logger(label: "w\(writer)") { LineLogHandler(label: $0, level: .info, sink: sink) }
                    for index in 0..<200 { logger.info("\(String(repeating: "x", count: 300)) \(index)") }
                }
            }
        }
        sink.flush()
        let lines = try written().split(separator: "\n")
        #expect(lines.count == 1_600)
        #expect(lines.allSatisfy { $0.wholeMatch(of: /\S+ info w\d: \[\w+\] x{300} \d+/) != nil })
    }
}
