import Foundation

/// The UTC offsets of one IANA time zone, read from the system's TZif file (RFC 8536), so that
/// "today" can be reckoned in the server's zone without Foundation's `TimeZone`, which loads ICU
/// (docs/memory.md).
package struct ZoneRules: Sendable {
    /// Where Debian's `tzdata`, like most Unix systems, installs the zone files.
    package static let systemDirectory = "/usr/share/zoneinfo"
    /// Real zone files are under 4 KiB; the cap keeps a wrong file from being read into memory whole.
    static let maximumFileSize = 256 * 1024
    static let maximumNameLength = 100
    /// Answered without a file, so the default setting works on a machine without `tzdata`.
    private static let utcNames: Set<String> = ["UTC", "Etc/UTC", "GMT", "Etc/GMT"]
    /// About ±3 million years, as in `CivilDateTime`: beyond any real date, and safely inside `Int`.
    private static let representableSeconds = 1e14

    package let name: String
    private let contents: TZifContents

    package static let utc = ZoneRules(
        name: "UTC",
        contents: TZifContents(initialOffset: 0, transitionTimes: [], offsetsAfterTransitions: [], footer: nil)
    )

    /// Loads the zone `name` (such as `Europe/Berlin`) from `directory`.
    package static func load(named name: String, from directory: String = systemDirectory) throws(ZoneRulesError) -> ZoneRules {
        guard isZoneName(name) else { throw .notAZoneName(name) }
        if utcNames.contains(name) { return ZoneRules(name: name, contents: utc.contents) }
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let bytes = try readZoneFile(at: path, name: name, directory: directory)
        do {
            return ZoneRules(name: name, contents: try TZifReader.read(bytes))
        } catch {
            throw ZoneRulesError(error, path: path)
        }
    }

    /// Seconds east of UTC at `date`: 7200 in Berlin in summer, -18000 in New York in winter.
    package func utcOffset(at date: Date) -> Int {
        let seconds = Self.wholeSecondsSince1970(date)
        // The footer rules from the last transition on (RFC 8536 §3.2), and at all times in a file with no
        // transitions, as tzcode reads one.
        if let footer = contents.footer, seconds >= contents.transitionTimes.last ?? .min {
            return footer.utcOffset(atSecondsSince1970: seconds)
        }
        guard let index = lastTransitionIndex(atOrBefore: seconds) else { return contents.initialOffset }
        return contents.offsetsAfterTransitions[index]
    }

    /// The wall-clock date and time in this zone at `date`; its `weekday` places a day in its week.
    package func localDateTime(at date: Date) -> CivilDateTime {
        CivilDateTime(date.addingTimeInterval(TimeInterval(utcOffset(at: date))))
    }

    /// The calendar day in this zone at `date`: what "today" is for birthdays and the digest.
    package func localDay(at date: Date) -> (year: Int, month: Int, day: Int) {
        let local = localDateTime(at: date)
        return (local.year, local.month, local.day)
    }

    /// IANA names are letters, digits and `/ _ - +`. Without `.` no component can be `..`, and
    /// without a leading `/` the name stays inside the zone directory: a configured value cannot
    /// name any other file.
    static func isZoneName(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= maximumNameLength && bytes.first != UInt8(ascii: "/")
            && bytes.allSatisfy(isZoneNameByte)
    }

    private static func isZoneNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"):
            true
        default:
            false
        }
    }

    private static func readZoneFile(at path: String, name: String, directory: String) throws(ZoneRulesError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .noSuchZone(name: name, directory: directory)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path: path) }
        defer { try? handle.close() }
        let data: Data?
        do {
            // One byte over the cap tells a file at the cap from a larger one.
            data = try handle.read(upToCount: maximumFileSize + 1)
        } catch {
            throw .unreadable(path: path)
        }
        let bytes = data.map { [UInt8]($0) } ?? []
        guard bytes.count <= maximumFileSize else { throw .tooLarge(path: path) }
        return bytes
    }

    private static func wholeSecondsSince1970(_ date: Date) -> Int {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else { return 0 }
        return Int(min(max(interval, -representableSeconds), representableSeconds).rounded(.down))
    }

    /// Binary search: the index of the last transition at or before `seconds`, nil before the first.
    private func lastTransitionIndex(atOrBefore seconds: Int) -> Int? {
        let times = contents.transitionTimes
        var low = 0
        var high = times.count
        // times[..<low] are at or before `seconds`, times[high...] after it.
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}

/// Why a time zone could not be loaded. Each `description` is one line that says what to change.
package enum ZoneRulesError: Error, Equatable, CustomStringConvertible {
    case notAZoneName(String)
    case noSuchZone(name: String, directory: String)
    case unreadable(path: String)
    case tooLarge(path: String)
    case notTZif(path: String)
    case leapSeconds(path: String)
    case damaged(path: String, problem: String)

    init(_ problem: TZifProblem, path: String) {
        switch problem {
        case .notTZif: self = .notTZif(path: path)
        case .leapSeconds: self = .leapSeconds(path: path)
        case .damaged(let description): self = .damaged(path: path, problem: description)
        }
    }

    package var description: String {
        switch self {
        case .notAZoneName(let name):
            "“\(name.escapedForOneLine)” is not a time zone name: use an IANA name such as Europe/Berlin"
                + " (letters, digits, /, _, - and +, at most \(ZoneRules.maximumNameLength) characters)"
        case .noSuchZone(let name, let directory):
            "no time zone named “\(name)” in \(directory): check the spelling (such as America/New_York), or install tzdata"
        case .unreadable(let path):
            "cannot read the time zone file \(path): check its permissions"
        case .tooLarge(let path):
            "\(path) is larger than \(ZoneRules.maximumFileSize / 1024) KiB, too large to be a time zone file (TZif)"
        case .notTZif(let path):
            "\(path) is not a time zone file (TZif): choose a zone name such as Europe/Berlin"
        case .leapSeconds(let path):
            "\(path) counts leap seconds (a “right/” zone): use the zone's name without “right/”"
        case .damaged(let path, let problem):
            "\(path) is a damaged time zone file (TZif): \(problem); reinstall tzdata"
        }
    }
}

extension String {
    /// At most 60 characters, with control characters and the like escaped, so that a hostile
    /// value cannot stretch or break the one-line message that shows it.
    var escapedForOneLine: String {
        let shown = unicodeScalars.prefix(60).map { $0.escaped(asASCII: false) }.joined()
        return unicodeScalars.count > 60 ? shown + "…" : shown
    }
}
