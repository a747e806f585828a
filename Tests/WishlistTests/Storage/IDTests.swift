import GRDB
import Testing
@testable import WishlistCore

/// Issue 27: five hand-written readers of ids had drifted (one took `0`, one had no length cap,
/// all took `+5`). One reader now, and a type per kind of id.
@Suite("Ids: one reader, a type per kind")
struct IDTests {
    @Test(arguments: [("1", 1), ("42", 42), ("999999999999999999", 999_999_999_999_999_999)])
    func aPositiveNumberInOneSpellingIsAnID(text: String, value: Int64) {
        #expect(ItemID(text)?.rawValue == value)
    }

    @Test(arguments: ["", "0", "-1", "+5", "007", "1e3", " 1", "1 ", "1.0", "١٢", "1000000000000000000", String(repeating: "9", count: 40), "0x10"])
    func anythingElseIsNot(text: String) {
        #expect(ItemID(text) == nil)
        #expect(PasskeyID(text) == nil && InviteID(text) == nil && UserID(text) == nil && ReservationID(text) == nil)
    }

    @Test func idsOfDifferentKindsAreDifferentTypes() {
        // `ItemID(5) == ReservationID(5)` does not compile; the tags keep the kinds apart.
        #expect(type(of: ItemID(5)) != type(of: ReservationID(5)))
        #expect(ItemID(5).description == "5")
    }

    @Test func theDatabaseReadsAndWritesAnIDAsTheIntegerItIs() throws {
        let queue = try DatabaseQueue()
        let (kind, read) = try queue.read { db in
            (try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [UserID(42)]), try UserID.fetchOne(db, sql: "SELECT 42"))
        }
        #expect(kind == "integer" && read == UserID(42))
    }
}
