import Foundation
import Testing
@testable import CivilTime

// Expected offsets come from the rules themselves (tzdata's, as published), written out as numbers,
// never from Foundation's TimeZone: that would load ICU and check the reader against another reader.

private let hour = 3600
private let minute = 60

private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
    CivilDateTime.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
}

/// A zone, an instant and the offset the zone's rules give it.
struct ZoneInstant: Sendable, CustomTestStringConvertible {
    let zone: String
    let date: Date
    let offset: Int

    init(_ zone: String, _ date: Date, _ offset: Int) {
        (self.zone, self.date, self.offset) = (zone, date, offset)
    }

    var testDescription: String { "\(zone) at \(CivilDateTime(date).rfc3339)" }
}

@Suite("Time zones: the system's zoneinfo, read without ICU")
struct ZoneRulesTests {
    @Test("offsets either side of each change", arguments: [
        // Second Sunday of March, 02:00 EST; first Sunday of November, 02:00 EDT.
        ZoneInstant("America/New_York", utc(2026, 3, 8, 6, 59, 59), -5 * hour),
        ZoneInstant("America/New_York", utc(2026, 3, 8, 7, 0, 0), -4 * hour),
        ZoneInstant("America/New_York", utc(2026, 11, 1, 5, 59, 59), -4 * hour),
        ZoneInstant("America/New_York", utc(2026, 11, 1, 6, 0, 0), -5 * hour),
        // Last Sundays of March and October, at 01:00 UTC.
        ZoneInstant("Europe/Berlin", utc(2026, 3, 29, 0, 59, 59), 1 * hour),
        ZoneInstant("Europe/Berlin", utc(2026, 3, 29, 1, 0, 0), 2 * hour),
        ZoneInstant("Europe/Berlin", utc(2026, 10, 25, 0, 59, 59), 2 * hour),
        ZoneInstant("Europe/Berlin", utc(2026, 10, 25, 1, 0, 0), 1 * hour),
        // Half an hour of daylight saving: +11 until 02:00 on the first Sunday of April
        // (5 April 2026), +10:30 until 02:00 on the first Sunday of October (4 October 2026).
        ZoneInstant("Australia/Lord_Howe", utc(2026, 4, 4, 14, 59, 59), 11 * hour),
        ZoneInstant("Australia/Lord_Howe", utc(2026, 4, 4, 15, 0, 0), 10 * hour + 30 * minute),
        ZoneInstant("Australia/Lord_Howe", utc(2026, 10, 3, 15, 29, 59), 10 * hour + 30 * minute),
        ZoneInstant("Australia/Lord_Howe", utc(2026, 10, 3, 15, 30, 0), 11 * hour),
        ZoneInstant("Asia/Kolkata", utc(2026, 1, 15), 5 * hour + 30 * minute),
        ZoneInstant("Asia/Kolkata", utc(2026, 7, 15), 5 * hour + 30 * minute),
        ZoneInstant("Pacific/Kiritimati", utc(2026, 6, 15), 14 * hour),
        // Kiritimati was at -10 until it skipped 31 December 1994.
        ZoneInstant("Pacific/Kiritimati", utc(1990, 6, 1), -10 * hour),
        ZoneInstant("America/St_Johns", utc(2026, 1, 15), -(3 * hour + 30 * minute)),
        ZoneInstant("America/St_Johns", utc(2026, 7, 15), -(2 * hour + 30 * minute)),
        ZoneInstant("UTC", utc(2026, 7, 15), 0),
    ])
    func offsetsAroundChanges(_ instant: ZoneInstant) throws {
        let zone = try ZoneRules.load(named: instant.zone)
        #expect(zone.utcOffset(at: instant.date) == instant.offset)
    }

    @Test("2090 is past tzdata's transitions, so the footer's rule answers", arguments: [
        // 12 March and 5 November 2090 are the second and first Sundays; 26 March and 29 October the last.
        ZoneInstant("America/New_York", utc(2090, 1, 15), -5 * hour),
        ZoneInstant("America/New_York", utc(2090, 3, 12, 6, 59, 59), -5 * hour),
        ZoneInstant("America/New_York", utc(2090, 3, 12, 7, 0, 0), -4 * hour),
        ZoneInstant("America/New_York", utc(2090, 11, 5, 5, 59, 59), -4 * hour),
        ZoneInstant("America/New_York", utc(2090, 11, 5, 6, 0, 0), -5 * hour),
        ZoneInstant("Europe/Berlin", utc(2090, 3, 26, 0, 59, 59), 1 * hour),
        ZoneInstant("Europe/Berlin", utc(2090, 3, 26, 1, 0, 0), 2 * hour),
        ZoneInstant("Europe/Berlin", utc(2090, 10, 29, 0, 59, 59), 2 * hour),
        ZoneInstant("Europe/Berlin", utc(2090, 10, 29, 1, 0, 0), 1 * hour),
        // Southern hemisphere: daylight saving time spans New Year. 2 April and 1 October 2090 are Sundays.
        ZoneInstant("Australia/Lord_Howe", utc(2090, 1, 15), 11 * hour),
        ZoneInstant("Australia/Lord_Howe", utc(2090, 4, 1, 14, 59, 59), 11 * hour),
        ZoneInstant("Australia/Lord_Howe", utc(2090, 4, 1, 15, 0, 0), 10 * hour + 30 * minute),
        ZoneInstant("Australia/Lord_Howe", utc(2090, 9, 30, 15, 29, 59), 10 * hour + 30 * minute),
        ZoneInstant("Australia/Lord_Howe", utc(2090, 9, 30, 15, 30, 0), 11 * hour),
        // AEST-10AEDT,M10.1.0,M4.1.0/3: daylight saving time ends at 03:00 local.
        ZoneInstant("Australia/Sydney", utc(2090, 4, 1, 15, 59, 59), 11 * hour),
        ZoneInstant("Australia/Sydney", utc(2090, 4, 1, 16, 0, 0), 10 * hour),
        ZoneInstant("Asia/Kolkata", utc(2090, 6, 1), 5 * hour + 30 * minute),
        ZoneInstant("Pacific/Kiritimati", utc(2090, 6, 1), 14 * hour),
        ZoneInstant("America/St_Johns", utc(2090, 7, 1), -(2 * hour + 30 * minute)),
    ])
    func farFuture(_ instant: ZoneInstant) throws {
        let zone = try ZoneRules.load(named: instant.zone)
        #expect(zone.utcOffset(at: instant.date) == instant.offset)
    }

    @Test("before the first transition, local mean time: the file's first time type", arguments: [
        ZoneInstant("America/New_York", utc(1800, 1, 1), -(4 * hour + 56 * minute + 2)),
        ZoneInstant("Europe/Berlin", utc(1800, 1, 1), 53 * minute + 28),
        ZoneInstant("Asia/Kolkata", utc(1800, 1, 1), 5 * hour + 53 * minute + 28),
    ])
    func beforeTheFirstTransition(_ instant: ZoneInstant) throws {
        let zone = try ZoneRules.load(named: instant.zone)
        #expect(zone.utcOffset(at: instant.date) == instant.offset)
    }

    @Test func theLocalDayTurnsAtLocalMidnight() throws {
        let kolkata = try ZoneRules.load(named: "Asia/Kolkata")
        #expect(kolkata.localDay(at: utc(2026, 1, 1, 18, 29, 59)) == (2026, 1, 1))
        #expect(kolkata.localDay(at: utc(2026, 1, 1, 18, 30, 0)) == (2026, 1, 2))

        let kiritimati = try ZoneRules.load(named: "Pacific/Kiritimati")
        #expect(kiritimati.localDay(at: utc(2026, 2, 28, 9, 59, 59)) == (2026, 2, 28))
        #expect(kiritimati.localDay(at: utc(2026, 2, 28, 10, 0, 0)) == (2026, 3, 1))

        let stJohns = try ZoneRules.load(named: "America/St_Johns")
        #expect(stJohns.localDay(at: utc(2026, 1, 1, 3, 29, 59)) == (2025, 12, 31))
        #expect(stJohns.localDay(at: utc(2026, 1, 1, 3, 30, 0)) == (2026, 1, 1))

        let newYork = try ZoneRules.load(named: "America/New_York")
        #expect(newYork.localDay(at: utc(2028, 3, 1, 4, 59, 59)) == (2028, 2, 29))
        #expect(newYork.localDay(at: utc(2028, 3, 1, 5, 0, 0)) == (2028, 3, 1))
    }

    @Test func theLocalDateTimeCarriesTheWeekday() throws {
        let berlin = try ZoneRules.load(named: "Europe/Berlin")
        // Sunday 23:30 in London is Monday 00:30 in Berlin.
        let local = berlin.localDateTime(at: utc(2026, 1, 4, 23, 30))
        #expect((local.year, local.month, local.day, local.hour, local.minute) == (2026, 1, 5, 0, 30))
        #expect(local.weekday == 1)
    }

    @Test("UTC needs no zoneinfo", arguments: ["UTC", "Etc/UTC", "GMT", "Etc/GMT"])
    func utcWithoutZoneinfo(name: String) throws {
        try ZoneFiles.withDirectory { directory in
            let zone = try ZoneRules.load(named: name, from: directory)
            #expect(zone.name == name)
            #expect(zone.utcOffset(at: utc(2026, 7, 1)) == 0)
            #expect(zone.localDay(at: utc(2026, 12, 31, 23, 59, 59)) == (2026, 12, 31))
        }
    }

    @Test func everyZoneInTheSystemsTableLoads() throws {
        let table = try String(contentsOfFile: ZoneRules.systemDirectory + "/zone1970.tab", encoding: .utf8)
        let names = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: "\t")[2]) }
        #expect(names.count > 300)
        for name in names {
            let zone = try ZoneRules.load(named: name)
            #expect(abs(zone.utcOffset(at: utc(2026, 6, 1))) <= 14 * hour, "\(name)")
        }
    }
}

@Suite("Time zones: names and files that are refused")
struct ZoneRulesRefusalTests {
    @Test("a name that is not IANA-shaped never reaches the file system", arguments: [
        "../../etc/passwd", "/etc/passwd", "", "Europe/../../../etc/passwd", "zone1970.tab",
        "Europe/Berlin\n", "Europe/Berlin ", "Europe\\Berlin", "Europe/Zürich", String(repeating: "A", count: 101),
    ])
    func notAZoneName(name: String) {
        let error = #expect(throws: ZoneRulesError.self) { try ZoneRules.load(named: name) }
        #expect(error == .notAZoneName(name))
        #expect(error?.description.contains("is not a time zone name") == true)
        #expect(error?.description.contains("\n") == false)
        #expect((error?.description.count ?? .max) < 250)
    }

    @Test func aNameOfOneHundredCharactersIsLookedUp() {
        let name = String(repeating: "A", count: 100)
        let error = #expect(throws: ZoneRulesError.self) { try ZoneRules.load(named: name) }
        #expect(error == .noSuchZone(name: name, directory: "/usr/share/zoneinfo"))
    }

    @Test func anUnknownZoneSaysWhereItWasLookedFor() {
        let error = #expect(throws: ZoneRulesError.self) { try ZoneRules.load(named: "Mars/Olympus") }
        #expect(error?.description.hasPrefix("no time zone named “Mars/Olympus” in /usr/share/zoneinfo") == true)
    }

    @Test func aDirectoryOfZonesIsNotAZone() {
        let error = #expect(throws: ZoneRulesError.self) { try ZoneRules.load(named: "America") }
        #expect(error == .noSuchZone(name: "America", directory: "/usr/share/zoneinfo"))
    }

    @Test func aZoneOtherThanUTCNeedsZoneinfo() throws {
        try ZoneFiles.withDirectory { directory in
            let error = #expect(throws: ZoneRulesError.self) { try ZoneRules.load(named: "Europe/Berlin", from: directory) }
            #expect(error == .noSuchZone(name: "Europe/Berlin", directory: directory))
        }
    }

    @Test("a file that is not TZif", arguments: [
        [UInt8](), Array("hello, world".utf8), Array("TZi".utf8), Array("# tzdb timezone descriptions\n".utf8),
    ])
    func notTZif(bytes: [UInt8]) throws {
        let (error, path) = try ZoneFiles.loadError(bytes)
        #expect(error == .notTZif(path: path))
        #expect(error.description.hasSuffix("Zone is not a time zone file (TZif): choose a zone name such as Europe/Berlin"))
    }

    @Test("a damaged file is refused with what is wrong", arguments: [
        (Array(ZoneFiles.TZif.utc.bytes().prefix(30)), "it ends early"),
        (ZoneFiles.patched(ZoneFiles.TZif.utc.version1Only.bytes(), count: .transitions, to: 0xFFFF_FFFF),
         "its header counts 21474836487 bytes of data, but only"),
        (ZoneFiles.patched(ZoneFiles.TZif.utc.version1Only.bytes(), count: .types, to: 0), "its header counts no time types"),
        (ZoneFiles.patched(ZoneFiles.TZif.utc.version1Only.bytes(), count: .characters, to: 0), "its header counts no abbreviation characters"),
        (ZoneFiles.patched(ZoneFiles.TZif.utc.version1Only.bytes(), count: .utLocal, to: 2), "its header's indicator counts differ from its time type count"),
        (ZoneFiles.TZif(version: UInt8(ascii: "1")).bytes(), "its version byte is 49"),
        (ZoneFiles.TZif(footer: "not a TZ string").bytes(), "its footer “not a TZ string” is not a POSIX TZ string"),
        (ZoneFiles.TZif(footer: "EST5EDT").bytes(), "its footer “EST5EDT” is not a POSIX TZ string"),
        (ZoneFiles.TZif(footer: "EST5\u{1B}[2J").bytes(), #"its footer “EST5\u{1B}[2J” is not"#),
        (Array(ZoneFiles.TZif().bytes().dropLast()), "its footer does not end with a newline"),
        (Array(ZoneFiles.TZif(footer: "").bytes().dropLast(2)), "no footer after the data"),
        (ZoneFiles.TZif(transitions: [(100, 0), (50, 0)]).bytes(), "its transition times are not in ascending order"),
        (ZoneFiles.TZif(transitions: [(100, 1)]).bytes(), "a transition names time type 1 of 1"),
        (ZoneFiles.TZif(types: [(30 * Int32(hour), false)]).bytes(), "a UTC offset of 108000 seconds"),
        (ZoneFiles.TZif(abbreviationIndex: 4).bytes(), "an abbreviation at 4 of 4 characters"),
    ])
    func damaged(bytes: [UInt8], problem: String) throws {
        let (error, _) = try ZoneFiles.loadError(bytes)
        #expect(error.description.contains("is a damaged time zone file (TZif): \(problem)"), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func aFileCountingLeapSecondsIsRefused() throws {
        let (error, path) = try ZoneFiles.loadError(ZoneFiles.TZif(leapSecondCount: 1).bytes())
        #expect(error == .leapSeconds(path: path))
        #expect(error.description.contains("counts leap seconds (a “right/” zone)"))
    }

    @Test func aFileOverTheCapIsNotRead() throws {
        var bytes = ZoneFiles.TZif.utc.bytes()
        bytes += [UInt8](repeating: 0, count: ZoneRules.maximumFileSize + 1 - bytes.count)
        let (error, path) = try ZoneFiles.loadError(bytes)
        #expect(error == .tooLarge(path: path))
        #expect(error.description.contains("is larger than 256 KiB"))
    }

    @Test func everyTruncationOfARealFileIsAnError() throws {
        let bytes = try ZoneFiles.realFile("America/New_York")
        #expect(throws: Never.self) { try TZifReader.read(bytes) }
        for length in 0..<bytes.count {
            #expect(throws: TZifProblem.self) { try TZifReader.read(Array(bytes.prefix(length))) }
        }
    }

    @Test func corruptedBytesAreAnErrorOrAnAnswerNeverACrash() throws {
        let original = try ZoneFiles.realFile("Australia/Lord_Howe")
        var random = SeededRandom(seed: 20_260_308)
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if let contents = try? TZifReader.read(bytes) {
                #expect(contents.offsetsAfterTransitions.count == contents.transitionTimes.count)
                _ = contents.footer?.utcOffset(atSecondsSince1970: 4_000_000_000)
            }
        }
    }
}

@Suite("Time zones: hand-made TZif files")
struct HandMadeZoneFileTests {
    /// +1 from 2000-01-01, +2 from 2010-01-01; before 2000 the first time type, -1.
    private static let twoTransitions = ZoneFiles.TZif(
        transitions: [(946_684_800, 1), (1_262_304_000, 2)],
        types: [(-1 * Int32(hour), false), (1 * Int32(hour), false), (2 * Int32(hour), true)],
        footer: nil
    )

    @Test func aVersion1FileKeepsItsLastOffsetAfterItsLastTransition() throws {
        let zone = try ZoneFiles.load(Self.twoTransitions.version1Only.bytes())
        #expect(zone.utcOffset(at: utc(1999, 12, 31, 23, 59, 59)) == -1 * hour)
        #expect(zone.utcOffset(at: utc(2000, 1, 1)) == 1 * hour)
        #expect(zone.utcOffset(at: utc(2009, 12, 31, 23, 59, 59)) == 1 * hour)
        #expect(zone.utcOffset(at: utc(2010, 1, 1)) == 2 * hour)
        #expect(zone.utcOffset(at: utc(2090, 7, 1)) == 2 * hour)
    }

    @Test("versions 2, 3 and 4 read the 64-bit data and the footer", arguments: ["2", "3", "4"])
    func laterVersions(version: Character) throws {
        var file = Self.twoTransitions
        file.version = version.asciiValue ?? 0
        file.footer = "XXX-3YYY-4,M3.5.0,M10.5.0/3"
        // The 32-bit block says otherwise, so a reader that used it would fail this test.
        file.version1Offset = 9 * Int32(hour)
        let zone = try ZoneFiles.load(file.bytes())
        #expect(zone.utcOffset(at: utc(1999, 1, 1)) == -1 * hour)
        #expect(zone.utcOffset(at: utc(2005, 1, 1)) == 1 * hour)
        #expect(zone.utcOffset(at: utc(2009, 12, 31, 23, 59, 59)) == 1 * hour)
        // From the last transition on, the footer: 3 hours east, 4 in summer.
        #expect(zone.utcOffset(at: utc(2010, 1, 1)) == 3 * hour)
        #expect(zone.utcOffset(at: utc(2010, 7, 1)) == 4 * hour)
    }

    @Test func withoutTransitionsTheFooterRulesAllTime() throws {
        let zone = try ZoneFiles.load(ZoneFiles.TZif(footer: "XXX-3YYY-4,M3.5.0,M10.5.0/3").bytes())
        #expect(zone.utcOffset(at: utc(1900, 1, 1)) == 3 * hour)
        #expect(zone.utcOffset(at: utc(1900, 7, 1)) == 4 * hour)
    }

    @Test func anEmptyFooterLeavesTheLastTransitionInForce() throws {
        var file = Self.twoTransitions
        file.footer = ""
        let zone = try ZoneFiles.load(file.bytes())
        #expect(zone.utcOffset(at: utc(2090, 7, 1)) == 2 * hour)
    }
}

@Suite("Time zones: the footer's POSIX TZ strings")
struct PosixTimeZoneTests {
    static func offset(_ text: String, at date: Date) throws -> Int {
        let zone = try #require(PosixTimeZone(parsing: Array(text.utf8)), "\(text)")
        return zone.utcOffset(atSecondsSince1970: Int(date.timeIntervalSince1970))
    }

    @Test func fixedOffsets() throws {
        #expect(try Self.offset("UTC0", at: utc(2026, 7, 1)) == 0)
        #expect(try Self.offset("IST-5:30", at: utc(2026, 7, 1)) == 5 * hour + 30 * minute)
        #expect(try Self.offset("<+0545>-5:45", at: utc(2026, 7, 1)) == 5 * hour + 45 * minute)
        #expect(try Self.offset("<-0330>+3:30", at: utc(2026, 7, 1)) == -(3 * hour + 30 * minute))
        #expect(try Self.offset("<+14>-14", at: utc(2026, 7, 1)) == 14 * hour)
        #expect(try Self.offset("XXX4:05:07", at: utc(2026, 7, 1)) == -(4 * hour + 5 * minute + 7))
    }

    @Test func monthWeekDayRules() throws {
        let newYork = "EST5EDT,M3.2.0,M11.1.0"
        #expect(try Self.offset(newYork, at: utc(2026, 3, 8, 6, 59, 59)) == -5 * hour)
        #expect(try Self.offset(newYork, at: utc(2026, 3, 8, 7)) == -4 * hour)
        #expect(try Self.offset(newYork, at: utc(2026, 11, 1, 5, 59, 59)) == -4 * hour)
        #expect(try Self.offset(newYork, at: utc(2026, 11, 1, 6)) == -5 * hour)
        // Week 5 is the last: in 2026 the fourth Sunday of October is the last.
        let berlin = "CET-1CEST,M3.5.0,M10.5.0/3"
        #expect(try Self.offset(berlin, at: utc(2026, 10, 25, 0, 59, 59)) == 2 * hour)
        #expect(try Self.offset(berlin, at: utc(2026, 10, 25, 1)) == 1 * hour)
        // March 2026 has five Sundays, the last on the 29th.
        #expect(try Self.offset(berlin, at: utc(2026, 3, 29, 0, 59, 59)) == 1 * hour)
        #expect(try Self.offset(berlin, at: utc(2026, 3, 29, 1)) == 2 * hour)
    }

    @Test func southernRulesSpanNewYear() throws {
        let lordHowe = "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"
        #expect(try Self.offset(lordHowe, at: utc(2026, 12, 31, 13)) == 11 * hour)
        #expect(try Self.offset(lordHowe, at: utc(2027, 1, 1, 13)) == 11 * hour)
        #expect(try Self.offset(lordHowe, at: utc(2026, 4, 4, 14, 59, 59)) == 11 * hour)
        #expect(try Self.offset(lordHowe, at: utc(2026, 4, 4, 15)) == 10 * hour + 30 * minute)
        let sydney = "AEST-10AEDT,M10.1.0,M4.1.0/3"
        #expect(try Self.offset(sydney, at: utc(2026, 4, 4, 15, 59, 59)) == 11 * hour)
        #expect(try Self.offset(sydney, at: utc(2026, 4, 4, 16)) == 10 * hour)
        #expect(try Self.offset(sydney, at: utc(2026, 10, 3, 15, 59, 59)) == 10 * hour)
        #expect(try Self.offset(sydney, at: utc(2026, 10, 3, 16)) == 11 * hour)
    }

    @Test func julianDaysNeverCountTheLeapDay() throws {
        // J60 is 1 March even in the leap year 2028; the change is at 02:00 local, 05:00 UTC.
        let rule = "XXX3YYY,J60,J300"
        #expect(try Self.offset(rule, at: utc(2028, 3, 1, 4, 59, 59)) == -3 * hour)
        #expect(try Self.offset(rule, at: utc(2028, 3, 1, 5)) == -2 * hour)
        #expect(try Self.offset(rule, at: utc(2027, 3, 1, 5)) == -2 * hour)
    }

    @Test func zeroBasedDaysCountTheLeapDay() throws {
        // Day 59 is 29 February in 2028 and 1 March in 2027.
        let rule = "XXX3YYY,59,299"
        #expect(try Self.offset(rule, at: utc(2028, 2, 29, 4, 59, 59)) == -3 * hour)
        #expect(try Self.offset(rule, at: utc(2028, 2, 29, 5)) == -2 * hour)
        #expect(try Self.offset(rule, at: utc(2027, 2, 28, 5)) == -3 * hour)
        #expect(try Self.offset(rule, at: utc(2027, 3, 1, 5)) == -2 * hour)
    }

    @Test func negativeTimesMoveTheChangeIntoTheDayBefore() throws {
        // Greenland: from -1:00 on the last Sunday of March (Saturday 23:00 at -2) to 00:00 on the
        // last Sunday of October (at -1): 01:00 UTC both times, with the rest of Europe.
        let nuuk = "<-02>2<-01>,M3.5.0/-1,M10.5.0/0"
        #expect(try Self.offset(nuuk, at: utc(2026, 3, 29, 0, 59, 59)) == -2 * hour)
        #expect(try Self.offset(nuuk, at: utc(2026, 3, 29, 1)) == -1 * hour)
        #expect(try Self.offset(nuuk, at: utc(2026, 10, 25, 0, 59, 59)) == -1 * hour)
        #expect(try Self.offset(nuuk, at: utc(2026, 10, 25, 1)) == -2 * hour)
    }

    @Test func timesPast24HoursMoveTheChangeIntoALaterDay() throws {
        // Israel: Thursday of the fourth week of March at 26:00 is Friday 27 March 2026, 02:00 (+2).
        let jerusalem = "IST-2IDT,M3.4.4/26,M10.5.0"
        #expect(try Self.offset(jerusalem, at: utc(2026, 3, 26, 23, 59, 59)) == 2 * hour)
        #expect(try Self.offset(jerusalem, at: utc(2026, 3, 27)) == 3 * hour)
        #expect(try Self.offset(jerusalem, at: utc(2026, 10, 24, 22, 59, 59)) == 3 * hour)
        #expect(try Self.offset(jerusalem, at: utc(2026, 10, 24, 23)) == 2 * hour)
        // Palestine: Thursday of the fourth week plus 50 hours is Saturday 02:00: 28 March 2026 at +2.
        let gaza = "EET-2EEST,M3.4.4/50,M10.4.4/50"
        #expect(try Self.offset(gaza, at: utc(2026, 3, 27, 23, 59, 59)) == 2 * hour)
        #expect(try Self.offset(gaza, at: utc(2026, 3, 28)) == 3 * hour)
    }

    @Test func daylightSavingTimeAllYearHasNoGapAtNewYear() throws {
        // Starts on 1 January at 00:00 and ends on 31 December at 25:00 daylight time: the same instant.
        let rule = "EST5EDT,0/0,J365/25"
        #expect(try Self.offset(rule, at: utc(2031, 1, 1, 3)) == -4 * hour)
        #expect(try Self.offset(rule, at: utc(2031, 1, 1, 5)) == -4 * hour)
        #expect(try Self.offset(rule, at: utc(2031, 7, 1)) == -4 * hour)
        #expect(try Self.offset(rule, at: utc(2032, 12, 31, 23)) == -4 * hour)
    }

    @Test func aDaylightOffsetOtherThanOneHour() throws {
        let rule = "XXX-1YYY-3:30,M3.5.0,M10.5.0"
        #expect(try Self.offset(rule, at: utc(2026, 7, 1)) == 3 * hour + 30 * minute)
        #expect(try Self.offset(rule, at: utc(2026, 1, 1)) == 1 * hour)
    }

    @Test("strings that are not TZ strings", arguments: [
        "", "EST", "ES5", "5", "EST5EDT", "EST5EDT,M3.2.0", "EST5EDT,M3.2.0,", "EST25", "EST-25",
        "EST5:60", "EST5:00:60", "EST5EDT,M13.2.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,M3.2.7,M11.1.0",
        "EST5EDT,M3.0.0,M11.1.0", "EST5EDT,J0,J365", "EST5EDT,J366,J1", "EST5EDT,366,0", "EST5EDT,M3.2.0/168,M11.1.0",
        "EST5EDT,M3.2.0/-168,M11.1.0", "<+05", "<+5>-5", "<+05>", "EST5EDT,M3.2.0,M11.1.0 ", "EST5\u{0}",
        "EST5EDT4,M3.2.0", "EST 5",
    ])
    func refused(text: String) {
        #expect(PosixTimeZone(parsing: Array(text.utf8)) == nil)
    }
}

/// Hand-made TZif files, written to a temporary zone directory.
private enum ZoneFiles {
    static let zoneName = "Test/Zone"

    struct TZif {
        static let utc = TZif()

        var version = UInt8(ascii: "2")
        var transitions: [(time: Int64, type: UInt8)] = []
        var types: [(utcOffset: Int32, isDaylightSaving: Bool)] = [(0, false)]
        var abbreviationIndex: UInt8 = 0
        var leapSecondCount = 0
        /// Nil writes no footer, as version 1 files have none.
        var footer: String? = "UTC0"
        /// Every offset in the version 1 block of a later version, to tell which block was read.
        var version1Offset: Int32?

        var version1Only: TZif {
            var file = self
            file.version = 0
            file.footer = nil
            return file
        }

        func bytes() -> [UInt8] {
            let version1 = header() + dataBlock(timeSize: 4, offsetOverride: version == 0 ? nil : version1Offset)
            guard version != 0 else { return version1 }
            return version1 + header() + dataBlock(timeSize: 8, offsetOverride: nil) + Array("\n\(footer ?? "")\n".utf8)
        }

        private func header() -> [UInt8] {
            let counts = [types.count, types.count, leapSecondCount, transitions.count, types.count, 4]
            return Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15) + counts.flatMap { ZoneFiles.bigEndian(Int64($0), size: 4) }
        }

        private func dataBlock(timeSize: Int, offsetOverride: Int32?) -> [UInt8] {
            var block = transitions.flatMap { ZoneFiles.bigEndian($0.time, size: timeSize) }
            block += transitions.map(\.type)
            for type in types {
                block += ZoneFiles.bigEndian(Int64(offsetOverride ?? type.utcOffset), size: 4)
                block += [type.isDaylightSaving ? 1 : 0, abbreviationIndex]
            }
            block += Array("XYZ\0".utf8)
            for _ in 0..<leapSecondCount {
                block += ZoneFiles.bigEndian(78_796_800, size: timeSize) + ZoneFiles.bigEndian(1, size: 4)
            }
            return block + [UInt8](repeating: 0, count: 2 * types.count)
        }
    }

    enum Count: Int {
        case utLocal = 0, standardWall, leap, transitions, types, characters
    }

    /// Sets one of a version 1 file's header counts.
    static func patched(_ bytes: [UInt8], count: Count, to value: Int64) -> [UInt8] {
        var patched = bytes
        let start = 20 + 4 * count.rawValue
        patched.replaceSubrange(start..<start + 4, with: bigEndian(value, size: 4))
        return patched
    }

    static func bigEndian(_ value: Int64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    static func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zone-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }

    static func load(_ bytes: [UInt8]) throws -> ZoneRules {
        try loadResult(bytes).zone.get()
    }

    /// The error loading `bytes` gives, and the path of the file it was read from.
    static func loadError(_ bytes: [UInt8]) throws -> (ZoneRulesError, path: String) {
        let (zone, path) = try loadResult(bytes)
        let error = #expect(throws: ZoneRulesError.self) { try zone.get() }
        return (try #require(error), path)
    }

    private static func loadResult(_ bytes: [UInt8]) throws -> (zone: Result<ZoneRules, ZoneRulesError>, path: String) {
        var result: (Result<ZoneRules, ZoneRulesError>, String)?
        try withDirectory { directory in
            let path = directory + "/" + zoneName
            try FileManager.default.createDirectory(atPath: directory + "/Test", withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            result = (Result { () throws(ZoneRulesError) in try ZoneRules.load(named: zoneName, from: directory) }, path)
        }
        return try #require(result)
    }

    static func realFile(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: ZoneRules.systemDirectory + "/" + name)))
    }
}

/// SplitMix64, so that a failing run of the corruption test can be repeated.
private struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
