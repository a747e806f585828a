import Foundation

/// A file of a ZIP archive as Python's `zipfile` sees it.
struct ZipEntryRead: Decodable, Equatable {
    let name: String
    let bytes: [UInt8]
    /// Year, month, day, hour, minute, second, from the entry's MS-DOS time.
    let dateTime: [Int]
    let compressType: Int
    /// The Unix permission bits of the central directory's external attributes.
    let mode: Int
}

/// Reads an archive with Python's `zipfile`, which checks every CRC (`testzip`), so the app's
/// archives are checked by a reader that is not ours. Throws with Python's words when it refuses.
func readZipWithPython(_ archive: [UInt8]) throws -> [ZipEntryRead] {
    let path = try temporaryDirectory().appendingPathComponent("archive.zip")
    try Data(archive).write(to: path)
    let script = """
        import json, sys, zipfile
        with zipfile.ZipFile(sys.argv[1]) as archive:
            broken = archive.testzip()
            if broken is not None:
                sys.exit("bad CRC in " + broken)
            print(json.dumps([
                {"name": info.filename, "bytes": list(archive.read(info)), "dateTime": list(info.date_time),
                 "compressType": info.compress_type, "mode": info.external_attr >> 16}
                for info in archive.infolist()
            ]))
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, path.path]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complaint = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw TestSetupError(description: "python's zipfile refused the archive: \(String(decoding: complaint, as: UTF8.self))")
    }
    return try JSONDecoder().decode([ZipEntryRead].self, from: printed)
}
