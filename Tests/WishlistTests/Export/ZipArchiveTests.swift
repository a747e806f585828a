import CivilTime
import Foundation
import Testing
@testable import WishlistCore

@Suite("ZIP archives of stored files, read back by Python's zipfile", .removesTemporaryDirectories)
struct ZipArchiveTests {
    @Test func theCheckValueOfCRC32() {
        // The check value of every CRC catalogue: CRC-32 of the nine ASCII digits.
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    @Test func pythonReadsEveryFileBackWithItsNameTimeAndPermissions() throws {
        let modified = CivilDateTime.date(year: 2026, month: 11, day: 24, hour: 17, minute: 5, second: 43)
        var archive = ZipArchive(modified: modified)
        let everyByte = (0..<3000).map { UInt8($0 % 256) }
        archive.add("data.json", Array(#"{"bio": "Ünïcödé ✓"}"#.utf8))
        archive.add("empty.txt", [])
        archive.add("folder/every-byte.bin", everyByte)
        archive.add("Bücher.csv", Array("a,b\r\n".utf8))

        let entries = try readZipWithPython(archive.bytes)

        #expect(entries.map(\.name) == ["data.json", "empty.txt", "folder/every-byte.bin", "Bücher.csv"], "in order, names as UTF-8")
        #expect(entries.map(\.bytes) == [Array(#"{"bio": "Ünïcödé ✓"}"#.utf8), [], everyByte, Array("a,b\r\n".utf8)])
        #expect(entries.allSatisfy { $0.compressType == 0 }, "stored, not compressed")
        #expect(entries.allSatisfy { $0.dateTime == [2026, 11, 24, 17, 5, 42] }, "MS-DOS time counts seconds in twos")
        #expect(entries.allSatisfy { $0.mode == 0o100644 }, "regular files, readable by all, writable by the owner")
    }

    @Test func anEmptyArchiveIsJustTheEndRecord() throws {
        let bytes = ZipArchive(modified: Date(timeIntervalSince1970: 0)).bytes
        #expect(bytes.count == 22)
        #expect(try readZipWithPython(bytes).isEmpty)
    }

    @Test func aDamagedFileIsCaughtByItsCRC() throws {
        var archive = ZipArchive(modified: Date())
        archive.add("note.txt", Array("a note".utf8))
        var bytes = archive.bytes
        // The local header is 30 bytes and the name 8: flip the file's first byte.
        bytes[38] ^= 0x20
        #expect(throws: TestSetupError.self) { try readZipWithPython(bytes) }
    }
}
