import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 51: `/calendar/{token}.ics`, the household's birthdays and occasions as RFC 5545 for a
/// calendar app, behind the feed link's token.
@Suite("Occasions: the iCalendar feed", .removesTemporaryDirectories)
struct OccasionsCalendarTests {
    @Test func linesEndInCRLFAreFoldedAt75OctetsWithoutSplittingACharacterAndTextIsEscaped() {
        let summary = String(repeating: "Grand-mère’s “Noël, at last; \\ ” ", count: 6)
        let calendar = ICalendar(name: "Birthdays, and; more", stamp: Date(timeIntervalSince1970: 1_700_000_000), events: [
            ICalendar.Event(uid: "list-1@example.org", summary: summary, start: (2000, 12, 25), recurrence: .yearly, url: "https://example.org/people/a/lists/1"),
        ])
        let text = calendar.text
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(!lines.contains { $0.contains("\n") || $0.contains("\r") }, "every line ends in CRLF, and only there")
        #expect(lines.allSatisfy { $0.utf8.count <= 75 }, "\(lines.map(\.utf8.count))")
        #expect(lines.contains("X-WR-CALNAME:Birthdays\\, and\\; more"))
        #expect(lines.contains("DTSTAMP:20231114T221320Z"))
        #expect(lines.contains("DTSTART;VALUE=DATE:20001225") && lines.contains("DTEND;VALUE=DATE:20001226"))
        // Unfolded (section 3.1: a CRLF followed by a space goes), the summary is whole, escaped.
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        let escaped = summary.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: ";", with: "\\;")
        #expect(unfolded.contains("SUMMARY:" + escaped + "\r\n"))
    }

    @Test func theTwentyNinthOfFebruaryFallsOnTheLastDayOfFebruaryAndTheYearEndsRight() {
        let leap = ICalendar(name: "x", stamp: Date(), events: [
            ICalendar.Event(uid: "a", summary: "a", start: (2000, 2, 29), recurrence: .yearly, url: "u"),
            ICalendar.Event(uid: "b", summary: "b", start: (2027, 12, 31), recurrence: .once, url: "u"),
        ]).text
        #expect(leap.contains("DTSTART;VALUE=DATE:20000229\r\nDTEND;VALUE=DATE:20000301\r\n"))
        #expect(leap.contains("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1\r\n"))
        #expect(leap.contains("DTSTART;VALUE=DATE:20271231\r\nDTEND;VALUE=DATE:20280101\r\n"))
        #expect(leap.components(separatedBy: "RRULE").count == 2, "a dated occasion happens once")
    }

    @Test func theFeedCarriesTheBirthdaysAndSharedOccasionsOfMembersWhoShareAndNothingElse() async throws {
        let home = try await Household.make()
        try await home.run(sharing: [.maya, .ana]) { maya, ana, ben in
            try await home.server.database.pool.write { db in
                try db.execute(sql: "UPDATE user SET birthday = '02-29' WHERE username = 'maya'; UPDATE user SET birthday = '07-04' WHERE username IN ('ana', 'ben')")
            }
            let birthday = try await WishListsHTTPTests.makeList(&maya, "Birthday", occasion: "birthday")
            let christmas = try await WishListsHTTPTests.makeList(&maya, "Christmas", occasion: "christmas")
            _ = try await WishListsHTTPTests.makeList(&maya, "Secret trip", occasion: "date", date: "2027-03-12", visibility: "private")
            let trip = try await WishListsHTTPTests.makeList(&maya, "Lisbon", occasion: "date", date: "2027-05-01")
            _ = try await WishListsHTTPTests.makeList(&ben, "Ben's Christmas", occasion: "christmas")

            let made = try await ana.post("/settings/feed-link", [])
            let path = try #require(made.text.firstMatch(of: /id="calendar-link-url" type="text" readonly value="http:\/\/[^\/"]+(\/calendar\/[A-Za-z0-9_-]{43}\.ics)"/)?.1)
            var stranger = TestBrowser(client: ana.client)
            let feed = try await stranger.get(String(path))
            #expect(feed.status == .ok)
            #expect(feed.headers[.contentType] == "text/calendar; charset=utf-8")
            #expect(feed.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            let text = feed.text.replacingOccurrences(of: "\r\n ", with: "")
            #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:"))
            #expect(text.contains("UID:birthday-1@localhost\r\n"))
            #expect(text.contains("SUMMARY:maya’s birthday\r\n"))
            #expect(text.contains("DTSTART;VALUE=DATE:20000229\r\n"))
            #expect(text.contains("UID:list-\(birthday)@localhost\r\n") && text.contains("SUMMARY:maya’s Birthday list\r\n"))
            #expect(text.contains("UID:list-\(christmas)@localhost\r\n") && text.contains("DTSTART;VALUE=DATE:20001225\r\n"))
            #expect(text.contains("UID:list-\(trip)@localhost\r\n") && text.contains("DTSTART;VALUE=DATE:20270501\r\n"))
            #expect(text.contains("/people/maya/lists/\(trip)\r\n"))
            #expect(!text.contains("Secret trip") && !text.contains("20270312"), "a private list is nobody else's")
            #expect(!text.contains("ben"), "a member who does not share is not in it")
            #expect(!text.contains("birthday-2@"), "nor is the feed's owner")
            #expect(text.components(separatedBy: "BEGIN:VEVENT").count - 1 == 4)

            #expect(try await stranger.get("/calendar/" + String(repeating: "A", count: 43) + ".ics").status == .notFound)
            #expect(try await stranger.get(String(path).replacingOccurrences(of: ".ics", with: ".ical")).status == .notFound)
            _ = try await ana.post("/settings/feed-link", [])
            #expect(try await stranger.get(String(path)).status == .notFound, "a reset link stops the calendar too")
        }
    }
}
