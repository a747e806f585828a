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
        #expect(line.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} info wishlist: a.first=1 hb.request.id=42 z.last=2 \[Web\] GET \/wishlist 200 0.4 ms/) != nil, "\(line)")
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
}
