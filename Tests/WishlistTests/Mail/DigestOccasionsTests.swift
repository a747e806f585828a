import Foundation
import GRDB
import Testing
@testable import WishlistCore
@testable import WishlistLanguages
@testable import WishlistWeb

/// Issue 51: the weekly digest reminds givers of the household's occasions two weeks ahead, and
/// of nobody's private list.
@Suite("The digest: occasions coming", .removesTemporaryDirectories)
struct DigestOccasionsTests {
    @Test func theSharedListsWhoseOccasionIsInTheNextFourteenDaysAreNewsSoonestFirst() async throws {
        let database = try AppDatabase.open(path: temporaryDirectory().appendingPathComponent("digest.sqlite").path)
        let news = try await database.pool.write { db -> DigestNews in
            let add = { (name: String, sharing: String, birthday: String?) throws -> Int64 in
                try db.execute(
                    sql: "INSERT INTO user (username, username_key, password_hash, created_at, sharing, birthday) VALUES (?, ?, 'x', '2026-01-01 00:00:00.000', ?, ?)",
                    arguments: [name, name, sharing, birthday]
                )
                return db.lastInsertedRowID
            }
            let list = { (owner: Int64, name: String, occasion: String, date: String?, visibility: String) throws in
                try db.execute(
                    sql: "INSERT INTO wish_list (user_id, name, occasion, occasion_date, visibility, created_at) VALUES (?, ?, ?, ?, ?, '2026-01-01 00:00:00.000')",
                    arguments: [owner, name, occasion, date, visibility]
                )
            }
            let ann = try add("ann", "household", "12-01")
            let maya = try add("maya", "household", "12-08")
            let bea = try add("bea", "private", "12-01")
            try list(maya, "Birthday", "birthday", nil, "household")
            try list(maya, "Christmas", "christmas", nil, "household")
            try list(maya, "Visit", "date", "2026-12-12", "household")
            try list(maya, "Later visit", "date", "2026-12-13", "household")
            try list(maya, "Secret", "date", "2026-11-30", "private")
            try list(bea, "Birthday", "birthday", nil, "household")
            try list(ann, "Birthday", "birthday", nil, "household")
            return try DigestNews.read(userID: UserID(ann), editionsFetchedAfter: StoredDate(Date()), today: (2026, 11, 28), db)
        }
        #expect(news.occasions.map { "\($0.name) \($0.listName) \($0.daysAway)" } == ["maya Birthday 10", "maya Visit 14"])
        let text = DigestText.content(news, name: "ann", unsubscribe: "http://localhost/unsubscribe/x", site: "http://localhost", paths: SitePath.mail, in: Translations()).text
        #expect(text.contains("Occasions coming\n----------------\n- maya’s Birthday list: in 10 days\n  http://localhost/people/maya/lists/"))
        #expect(!text.contains("Secret") && !text.contains("bea"))
    }
}
