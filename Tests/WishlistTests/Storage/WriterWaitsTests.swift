import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// Every write through `AppDatabase.write` counts its wait for the writer (issue 58): what tells an
/// operator, and `make bench-import`, how long the other writers waited beside a Goodreads import.
@Suite("Writes' waits for the writer", .removesTemporaryDirectories)
struct WriterWaitsTests {
    @Test func eachWriteCountsItsWaitOnceAndAnImportsSliceNone() async throws {
        let database = try AppDatabase.open(path: try temporaryDirectory().appendingPathComponent("waits.sqlite").path)
        for name in ["a", "b", "c"] {
            try await database.write { db in
                try db.execute(sql: "INSERT INTO throttle_event (scope, happened_at) VALUES (?, ?)", arguments: [name, StoredDate(Date())])
            }
        }
        // As an import's slices take the writer: not a write that waits for another, not counted.
        try await database.pool.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM throttle_event") }
        let text = database.writerWaits.render(gauges: [])
        #expect(text.contains("# TYPE wishlist_database_write_wait_seconds histogram\n"))
        #expect(text.contains("wishlist_database_write_wait_seconds_count 3\n"))
        #expect(text.contains("wishlist_database_write_wait_seconds_bucket{le=\"+Inf\"} 3\n"))
    }

    @Test func aWriteThatFailsIsCountedAndItsErrorComesBack() async throws {
        let database = try AppDatabase.open(path: try temporaryDirectory().appendingPathComponent("waits.sqlite").path)
        await #expect(throws: DatabaseError.self) {
            try await database.write { db in try db.execute(sql: "INSERT INTO no_such_table VALUES (1)") }
        }
        #expect(database.writerWaits.render(gauges: []).contains("wishlist_database_write_wait_seconds_count 1\n"))
    }
}
