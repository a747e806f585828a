import CivilTime
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Birthdays on People, reckoned in server.timeZone", .removesTemporaryDirectories)
struct BirthdayHTTPTests {
    /// A server whose clock reads `now`, in `timeZone`, with ana looking and the others sharing
    /// birthdays: each name with its month and day, and whether they share.
    static func birthdaysAna(sees now: Date, timeZone: String = "UTC", _ members: [(String, Int, Int, Bool)]) async throws -> TestResponse {
        let server = try await TestApp.build(clock: ManualClock(now).clock) { $0.server.timeZone = timeZone }
        return try await TestApp.run(server) { browser in
            for (name, month, day, shares) in members {
                var member = TestBrowser(client: browser.client)
                try await member.signUp(name)
                if shares { try await member.share() }
                #expect(try await member.post("/settings/profile", [("birthday_month", "\(month)"), ("birthday_day", "\(day)")]).status == .seeOther)
            }
            var ana = TestBrowser(client: browser.client)
            try await ana.signUp("ana")
            return try await ana.get("/people")
        }
    }

    @Test func theNextThirtyDaysSoonestFirstAndOnlyMembersWhoShare() async throws {
        let now = CivilDateTime.date(year: 2026, month: 12, day: 20, hour: 12)
        let page = try await Self.birthdaysAna(sees: now, [
            ("maya", 1, 1, true), ("ben", 12, 20, true), ("cleo", 12, 21, true), ("dora", 1, 19, true), ("eli", 1, 20, true),
            ("finn", 12, 25, false), ("gus", 12, 19, true),
        ])
        let listed = page.text.matches(of: /<li class="birthday"><a href="\/people\/([a-z]+)">[a-z]+<\/a>: ([^<]+) <span/).map { "\($0.1): \($0.2)" }
        #expect(listed == [
            "ben: Birthday today", "cleo: Birthday tomorrow", "maya: Birthday in 12 days", "dora: Birthday in 30 days",
        ], "eli is 31 days off, gus's was yesterday, finn keeps his list private")
        #expect(page.shows("(1 January)"))
    }

    @Test func todayIsTheServersTimeZonesToday() async throws {
        // 11:00 UTC on 20 December is 01:00 on the 21st in Kiritimati (UTC+14).
        let now = CivilDateTime.date(year: 2026, month: 12, day: 20, hour: 11)
        let utc = try await Self.birthdaysAna(sees: now, [("maya", 12, 21, true)])
        #expect(utc.shows("Birthday tomorrow"))
        let kiritimati = try await Self.birthdaysAna(sees: now, timeZone: "Pacific/Kiritimati", [("maya", 12, 21, true)])
        #expect(kiritimati.shows("Birthday today"))
        let honolulu = try await Self.birthdaysAna(sees: CivilDateTime.date(year: 2026, month: 12, day: 21, hour: 5), timeZone: "Pacific/Honolulu", [
            ("maya", 12, 21, true),
        ])
        #expect(honolulu.shows("Birthday tomorrow"), "05:00 UTC on the 21st is 19:00 on the 20th in Honolulu")
    }

    /// The day and month in the page's language, on People and on the member's page, as the
    /// digest writes them (the catalog's "{day} {month}" with the language's month names).
    @Test func aBirthdayIsWordedInThePagesLanguage() async throws {
        let server = try await TestApp.build(clock: ManualClock(CivilDateTime.date(year: 2026, month: 4, day: 28, hour: 12)).clock)
        try await TestApp.run(server) { browser in
            var maya = TestBrowser(client: browser.client)
            try await maya.signUp("maya")
            try await maya.share()
            _ = try await maya.post("/settings/profile", [("birthday_month", "5"), ("birthday_day", "4")])
            var ana = TestBrowser(client: browser.client)
            try await ana.signUp("ana")
            #expect(try await ana.get("/people").shows("(4 May)"))
            try await ana.post("/settings/language", [("language", "de")])
            #expect(try await ana.get("/people").shows("(4. Mai)"))
            #expect(try await ana.get("/people/maya").shows("Geburtstag: 4. Mai"))
            try await ana.post("/settings/language", [("language", "es")])
            #expect(try await ana.get("/people/maya").shows("4 de mayo"))
        }
    }

    @Test func aLeapDayBirthdayFallsOnThe28thInOtherYears() {
        let leapling = Birthday(month: 2, day: 29)!
        #expect(leapling.daysUntil(from: (2027, 2, 28)) == 0)
        #expect(leapling.daysUntil(from: (2028, 2, 28)) == 1)
        #expect(leapling.daysUntil(from: (2027, 3, 1)) == 365, "next: 29 February 2028")
        #expect(Birthday(month: 1, day: 1)!.daysUntil(from: (2026, 12, 31)) == 1)
    }

    @Test func aTimeZoneTheSystemDoesNotHaveStopsTheServerWithOneLine() throws {
        #expect(throws: ConfigError.self) {
            _ = try ConfigLoader.load(file: nil, fileIsRequired: false, environment: ["WISHLIST_TIME_ZONE": "Mars/Olympus_Mons"])
        }
        let trimmed = try ConfigLoader.load(file: nil, fileIsRequired: false, environment: ["WISHLIST_TIME_ZONE": " Europe/Berlin\n"])
        #expect(trimmed.server.timeZone == "Europe/Berlin")
    }
}
