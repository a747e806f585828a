import CivilTime
import Foundation
import GRDB
import Testing
import WishlistLanguages
@testable import WishlistCore
@testable import WishlistWeb

/// Dates written and read without Foundation's calendars must match what GRDB wrote before: the
/// databases of earlier versions hold GRDB's text, and SQL compares the text.
@Suite struct StoredDateTests {
    /// Moments around the edges the arithmetic could get wrong: before 1970, leap days, the end of
    /// a year, milliseconds on either side of a whole one.
    static let moments: [Date] = [
        Date(timeIntervalSince1970: 0),
        Date(timeIntervalSince1970: 1_790_000_000.123_9),
        Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
        Date(timeIntervalSince1970: 1_735_689_599.999),  // the last millisecond of 2024
        Date(timeIntervalSince1970: -86_400.5),
        Date(timeIntervalSince1970: 1_790_000_000.999_7),  // rounds up into the next second
        Date(timeIntervalSince1970: 4_102_444_800.001),  // 2100-01-01, not a leap year before it
    ]

    @Test(arguments: moments) func textIsWhatGRDBWrote(moment: Date) {
        #expect(StoredDate(moment).databaseValue == moment.databaseValue)
    }

    @Test(arguments: moments) func readsBackToTheMillisecond(moment: Date) throws {
        let read = try #require(StoredDate.fromDatabaseValue(StoredDate(moment).databaseValue))
        #expect(abs(read.date.timeIntervalSince(moment)) <= 0.000_5 + 1e-6, "to the nearest millisecond")
    }

    @Test func readsWhatSQLiteAndGRDBWrite() throws {
        let database = try DatabaseQueue()
        try database.read { db in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT '2026-11-24 00:45:30' AS plain, '2026-11-24 00:45:30.250' AS stored, 1790000000 AS seconds,
                       NULL AS missing, CURRENT_TIMESTAMP AS now
                """))
            #expect(row.date("plain") == CivilDateTime.date(year: 2026, month: 11, day: 24, hour: 0, minute: 45, second: 30))
            #expect(row.date("stored").timeIntervalSince(row.date("plain")) == 0.25)
            #expect(row.date("seconds") == Date(timeIntervalSince1970: 1_790_000_000))
            #expect(row.optionalDate("missing") == nil)
            #expect(abs(row.date("now").timeIntervalSinceNow) < 60)
        }
    }

    @Test func textThatIsNoDateIsNil() {
        for text in ["", "yesterday", "2026-02-30 10:00:00", "2026-11-24 25:00:00"] {
            #expect(StoredDate.fromDatabaseValue(text.databaseValue) == nil, "\(text)")
        }
        #expect(StoredDate.fromDatabaseValue(Data([1, 2]).databaseValue) == nil)
    }

    @Test func comparesInSQLAsTheMomentsDo() throws {
        let database = try DatabaseQueue()
        let earlier = Date(timeIntervalSince1970: 1_790_000_000.5)
        try database.read { db in
            let ordered = try Bool.fetchOne(db, sql: "SELECT ? < ?", arguments: [StoredDate(earlier), StoredDate(earlier.addingTimeInterval(0.001))])
            #expect(ordered == true)
        }
    }

    /// To the second: Atom's are truncated, where Foundation's formatter rounds.
    @Test(arguments: moments) func atomTimestampsMatchFoundations(moment: Date) {
        let second = Date(timeIntervalSince1970: moment.timeIntervalSince1970.rounded(.down))
        #expect(AtomFeed.timestamp(moment) == ISO8601DateFormatter().string(from: second))
    }

    @Test func catalogDaysCountFrom1970() {
        #expect(CatalogSync.day("1970-01-01") == 0)
        #expect(CatalogSync.day("2024-03-01") == 19_783)
        #expect(CatalogSync.day("1969-12-31") == -1)
        #expect(CatalogSync.day("2023-02-29") == nil)
        #expect(CatalogSync.day("2023-3-1") == nil)
    }

    @Test func fileSizesReadAsAFileManagerShowsThem() {
        #expect(AdminController.fileSize(1, in: Translations()) == "1 byte")
        #expect(AdminController.fileSize(812, in: Translations()) == "812 bytes")
        #expect(AdminController.fileSize(4_096, in: Translations()) == "4.1 KB")
        #expect(AdminController.fileSize(350_400_000, in: Translations()) == "350 MB")
        #expect(AdminController.fileSize(999_960, in: Translations()) == "1.0 MB")
        #expect(AdminController.fileSize(12_000_000_000_000_000, in: Translations()) == "12000 TB")
    }
}
