import Foundation
import GRDB
import Testing
@testable import WishlistCore

/// The household's figures of the books on a page (`ReadingStore.Reader.standings`) are read
/// for every search and list page, so their plan is part of the feature: started from the books
/// asked about, never from the thousands of sharing members (issue 34).
@Suite("The household's figures of a page's books: read from the books' side", .removesTemporaryDirectories)
struct HouseholdFiguresPlanTests {
    static func plan(_ sql: String) async throws -> [String] {
        let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("plan.sqlite").path)
        return try await database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [#"["9780000000019","9780000000026"]"#]).map { $0["detail"] as String }
        }
    }

    @Test func theWantedCountsReadOnlyTheBookAndMemberIndex() async throws {
        let plan = try await Self.plan(ReadingStore.Reader.wantedCounts)
        #expect(plan.first == "SEARCH wishlist_item USING COVERING INDEX wishlist_item_by_book_and_user (book_id=?)", "\(plan)")
        #expect(!plan.contains { $0.contains("user_by_sharing") }, "\(plan)")
    }

    @Test func theRatingsStartFromTheBooksReadings() async throws {
        let plan = try await Self.plan(ReadingStore.Reader.ratings)
        #expect(plan.first == "SEARCH reading USING INDEX reading_by_book (book_id=?)", "\(plan)")
        #expect(!plan.contains { $0.contains("user_by_sharing") }, "\(plan)")
    }
}
