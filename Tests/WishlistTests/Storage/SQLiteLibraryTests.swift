import Foundation
import Testing
@testable import WishlistCore

/// The process's SQLite library is set up before its first connection: without the count of its
/// allocations, a mutex every `sqlite3_malloc` took from the other event loop (issue 58).
@Suite("The SQLite library, set up once a process")
struct SQLiteLibraryTests {
    /// In a process of its own: the test process's other suites may have started SQLite first.
    @Test func openingTheAppDatabaseLeavesSQLiteCountingNoAllocations() async {
        await #expect(processExitsWith: .success) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wishlist-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try AppDatabase.open(path: folder.appendingPathComponent("wishlist.sqlite").path)
            try FileManager.default.removeItem(at: folder)
            exit(SQLiteLibrary.countsAllocations ? EXIT_FAILURE : EXIT_SUCCESS)
        }
    }

    /// The check above can fail: a library started without ``SQLiteLibrary/prepare()`` counts.
    @Test func aLibraryStartedWithoutItCountsItsAllocations() async {
        await #expect(processExitsWith: .success) {
            exit(SQLiteLibrary.countsAllocations ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }
}
