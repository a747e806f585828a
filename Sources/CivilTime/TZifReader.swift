/// What a TZif file says about a zone's UTC offsets, in seconds east of UTC.
struct TZifContents: Sendable, Equatable {
    /// In effect before the first transition: the file's first time type (RFC 8536 §3.2).
    let initialOffset: Int
    /// Seconds since 1970, strictly ascending; `offsetsAfterTransitions[i]` starts at `transitionTimes[i]`.
    let transitionTimes: [Int]
    let offsetsAfterTransitions: [Int]
    /// The rule from the last transition on; nil in version 1 files and for an empty footer.
    var footer: PosixTimeZone?
}

enum TZifProblem: Error, Equatable {
    case notTZif
    /// The leap-second tables of the `right/` zones would have to be applied to every instant.
    case leapSeconds
    case damaged(String)
}

/// Reads TZif files (RFC 8536). Version 1 holds 32-bit times and no footer; versions 2 to 4 follow
/// it with the same data in 64-bit times and a footer, and only that second part is read. Every
/// count in a header is checked against the bytes that follow before anything is read or allocated,
/// so a truncated or hostile file is an error, never a crash.
struct TZifReader {
    private static let version2 = UInt8(ascii: "2")
    /// ±25:59:59, the range RFC 8536 §3.2 allows a UTC offset.
    private static let plausibleOffsets = -93_599...93_599

    private var cursor: TZifCursor

    static func read(_ bytes: [UInt8]) throws(TZifProblem) -> TZifContents {
        var reader = TZifReader(cursor: TZifCursor(bytes))
        return try reader.readFile()
    }

    private mutating func readFile() throws(TZifProblem) -> TZifContents {
        let version1 = try readHeader(withoutMagic: .notTZif)
        guard version1.version >= Self.version2 else { return try readDataBlock(version1, timeSize: 4) }
        try cursor.skip(version1.dataBlockSize(timeSize: 4))
        let version2 = try readHeader(withoutMagic: .damaged("the version 1 data is not followed by a second header"))
        var contents = try readDataBlock(version2, timeSize: 8)
        contents.footer = try readFooter()
        return contents
    }

    private mutating func readHeader(withoutMagic problem: TZifProblem) throws(TZifProblem) -> TZifHeader {
        guard cursor.remaining >= 4, try cursor.read(4).elementsEqual("TZif".utf8) else { throw problem }
        let version = try cursor.byte()
        guard version == 0 || version >= Self.version2 else { throw .damaged("its version byte is \(version)") }
        try cursor.skip(15)  // Unused, for future versions.
        var counts: [Int] = []
        for _ in 0..<6 {
            counts.append(try cursor.unsigned32())
        }
        let header = TZifHeader(version: version, counts: counts)
        try header.check()
        return header
    }

    private mutating func readDataBlock(_ header: TZifHeader, timeSize: Int) throws(TZifProblem) -> TZifContents {
        let size = header.dataBlockSize(timeSize: timeSize)
        guard size <= cursor.remaining else {
            throw .damaged("its header counts \(size) bytes of data, but only \(cursor.remaining) follow")
        }
        guard header.leapCount == 0 else { throw .leapSeconds }
        let times = try readTransitionTimes(count: header.transitionCount, size: timeSize)
        let typeIndices = try readTypeIndices(count: header.transitionCount, typeCount: header.typeCount)
        let offsets = try readTimeTypeOffsets(count: header.typeCount, characterCount: header.characterCount)
        // Abbreviations and the standard/wall and UT/local indicators do not change an offset.
        try cursor.skip(header.characterCount + header.standardWallCount + header.utLocalCount)
        return TZifContents(
            initialOffset: offsets[0],
            transitionTimes: times,
            offsetsAfterTransitions: typeIndices.map { offsets[$0] },
            footer: nil
        )
    }

    private mutating func readTransitionTimes(count: Int, size: Int) throws(TZifProblem) -> [Int] {
        var times: [Int] = []
        times.reserveCapacity(count)
        for _ in 0..<count {
            let time = try cursor.signed(size: size)
            guard time > times.last ?? .min else { throw .damaged("its transition times are not in ascending order") }
            times.append(time)
        }
        return times
    }

    private mutating func readTypeIndices(count: Int, typeCount: Int) throws(TZifProblem) -> [Int] {
        var indices: [Int] = []
        indices.reserveCapacity(count)
        for _ in 0..<count {
            let index = Int(try cursor.byte())
            guard index < typeCount else { throw .damaged("a transition names time type \(index) of \(typeCount)") }
            indices.append(index)
        }
        return indices
    }

    /// Each time type is a UTC offset, a daylight saving flag and where its abbreviation starts;
    /// only the offset is kept, the others are checked.
    private mutating func readTimeTypeOffsets(count: Int, characterCount: Int) throws(TZifProblem) -> [Int] {
        var offsets: [Int] = []
        for _ in 0..<count {
            let offset = try cursor.signed(size: 4)
            let isDaylightSaving = try cursor.byte()
            let abbreviationIndex = Int(try cursor.byte())
            guard Self.plausibleOffsets.contains(offset) else { throw .damaged("a UTC offset of \(offset) seconds") }
            guard isDaylightSaving <= 1 else { throw .damaged("a daylight saving flag of \(isDaylightSaving)") }
            guard abbreviationIndex < characterCount else {
                throw .damaged("an abbreviation at \(abbreviationIndex) of \(characterCount) characters")
            }
            offsets.append(offset)
        }
        return offsets
    }

    /// A newline, a POSIX TZ string (possibly empty) and a newline.
    private mutating func readFooter() throws(TZifProblem) -> PosixTimeZone? {
        let newline = UInt8(ascii: "\n")
        guard cursor.remaining > 0, try cursor.byte() == newline else { throw .damaged("no footer after the data") }
        guard let text = try cursor.read(upTo: newline) else { throw .damaged("its footer does not end with a newline") }
        if text.isEmpty { return nil }
        guard let zone = PosixTimeZone(parsing: text) else {
            let shown = String(decoding: text, as: UTF8.self).escapedForOneLine
            throw .damaged("its footer “\(shown)” is not a POSIX TZ string")
        }
        return zone
    }
}

/// The six counts of a TZif header, in the file's order.
private struct TZifHeader {
    let version: UInt8
    let utLocalCount: Int
    let standardWallCount: Int
    let leapCount: Int
    let transitionCount: Int
    let typeCount: Int
    let characterCount: Int

    init(version: UInt8, counts: [Int]) {
        self.version = version
        (utLocalCount, standardWallCount, leapCount) = (counts[0], counts[1], counts[2])
        (transitionCount, typeCount, characterCount) = (counts[3], counts[4], counts[5])
    }

    /// The rules of RFC 8536 §3.1 that keep the data readable.
    func check() throws(TZifProblem) {
        guard typeCount > 0 else { throw .damaged("its header counts no time types") }
        guard characterCount > 0 else { throw .damaged("its header counts no abbreviation characters") }
        guard utLocalCount == 0 || utLocalCount == typeCount, standardWallCount == 0 || standardWallCount == typeCount else {
            throw .damaged("its header's indicator counts differ from its time type count")
        }
    }

    /// Counts are at most 2³² - 1, so on a 64-bit platform this cannot overflow.
    func dataBlockSize(timeSize: Int) -> Int {
        transitionCount * (timeSize + 1) + typeCount * 6 + characterCount
            + leapCount * (timeSize + 4) + standardWallCount + utLocalCount
    }
}

/// Big-endian reads that refuse to go past the end of the bytes.
private struct TZifCursor {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    mutating func read(_ count: Int) throws(TZifProblem) -> ArraySlice<UInt8> {
        guard count <= remaining else { throw .damaged("it ends early, after \(bytes.count) bytes") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func skip(_ count: Int) throws(TZifProblem) {
        _ = try read(count)
    }

    mutating func byte() throws(TZifProblem) -> UInt8 {
        try read(1).first ?? 0
    }

    mutating func unsigned32() throws(TZifProblem) -> Int {
        try read(4).reduce(0) { $0 << 8 | Int($1) }
    }

    /// A two's-complement integer of 4 or 8 bytes.
    mutating func signed(size: Int) throws(TZifProblem) -> Int {
        let raw = try read(size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let unusedBits = UInt64(64 - size * 8)
        return Int(Int64(bitPattern: raw << unusedBits) >> Int64(unusedBits))
    }

    /// The bytes before the next `delimiter`, which is consumed; nil when there is none.
    mutating func read(upTo delimiter: UInt8) throws(TZifProblem) -> ArraySlice<UInt8>? {
        guard let end = bytes[offset...].firstIndex(of: delimiter) else { return nil }
        let text = try read(end - offset)
        try skip(1)
        return text
    }
}
