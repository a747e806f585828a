import CivilTime
import Foundation

/// A ZIP archive (PKWARE's APPNOTE, version 2.0) of files stored as they are, built in memory.
///
/// Stored entries need no compression library, and what a member downloads is small (a JSON
/// file, a CSV and a JPEG that is compressed already). Without ZIP64 an archive holds fewer
/// than 65,535 files of under 4 GiB in all, far beyond one member's data.
public struct ZipArchive {
    private var files: [UInt8] = []
    private var directory: [UInt8] = []
    private var count = 0
    private let dosTime: UInt16
    private let dosDate: UInt16

    /// An empty archive whose files will all say they were modified at `modified` (UTC).
    public init(modified: Date) {
        let moment = CivilDateTime(modified)
        // MS-DOS dates start in 1980 and count seconds in twos.
        dosTime = UInt16(moment.hour << 11 | moment.minute << 5 | moment.second / 2)
        dosDate = UInt16(max(moment.year - 1980, 0) << 9 | moment.month << 5 | moment.day)
    }

    /// Adds a file under `name` (a relative path with `/` between folders).
    public mutating func add(_ name: String, _ bytes: [UInt8]) {
        precondition(count < 0xFFFF && files.count + bytes.count < 0xFFFF_0000, "past the limits of a ZIP without ZIP64")
        let nameBytes = Array(name.utf8)
        let offset = UInt32(files.count)
        let common = entryFields(name: nameBytes, crc: CRC32.checksum(bytes), size: UInt32(bytes.count))
        files.append(uint32: 0x0403_4B50)
        files += common
        files += nameBytes
        files += bytes
        directory.append(uint32: 0x0201_4B50)
        directory.append(uint16: 3 << 8 | 20)  // made by Unix, so the permissions below are read
        directory += common
        directory.append(uint16: 0)  // comment length
        directory.append(uint16: 0)  // disk number
        directory.append(uint16: 0)  // internal attributes
        directory.append(uint32: 0o100644 << 16)  // a regular file, rw-r--r--
        directory.append(uint32: offset)
        directory += nameBytes
        count += 1
    }

    /// The whole archive: the files, the central directory, and its end record.
    public var bytes: [UInt8] {
        var archive = files + directory
        archive.append(uint32: 0x0605_4B50)
        archive.append(uint16: 0)  // this disk
        archive.append(uint16: 0)  // the disk where the directory starts
        archive.append(uint16: UInt16(count))
        archive.append(uint16: UInt16(count))
        archive.append(uint32: UInt32(directory.count))
        archive.append(uint32: UInt32(files.count))
        archive.append(uint16: 0)  // comment length
        return archive
    }

    /// The fields a local header and a directory entry share, from "version needed" to "extra length".
    private func entryFields(name: [UInt8], crc: UInt32, size: UInt32) -> [UInt8] {
        var fields: [UInt8] = []
        fields.append(uint16: 20)
        fields.append(uint16: 1 << 11)  // the name is UTF-8
        fields.append(uint16: 0)  // stored, not compressed
        fields.append(uint16: dosTime)
        fields.append(uint16: dosDate)
        fields.append(uint32: crc)
        fields.append(uint32: size)  // compressed
        fields.append(uint32: size)  // uncompressed
        fields.append(uint16: UInt16(name.count))
        fields.append(uint16: 0)  // extra field length
        return fields
    }
}

/// CRC-32 as ZIP, PNG and Ethernet use it (the reflected polynomial 0xEDB88320).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}

extension [UInt8] {
    /// ZIP's numbers are little-endian.
    fileprivate mutating func append(uint16 value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    fileprivate mutating func append(uint32 value: UInt32) {
        append(uint16: UInt16(value & 0xFFFF))
        append(uint16: UInt16(value >> 16))
    }
}
