import Foundation
import HummingbirdTesting
import NIOCore
import Testing

/// Pictures for the HTTP tests, made here byte by byte so that the tests do not lean on the codec
/// they check: PNGs with stored (uncompressed) deflate blocks, and a reader of a JPEG's frame.
enum PictureSamples {
    /// A `width` × `height` RGB PNG: the left half red, the right half blue; with `exifText`, an
    /// `eXIf` chunk holding it (where a camera puts its GPS position).
    static func png(width: Int, height: Int, exifText: String? = nil) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + width * 3))
        for _ in 0..<height {
            raw.append(0)
            for x in 0..<width { raw += x < width / 2 ? [220, 30, 30] : [30, 30, 220] }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(width, 4) + bigEndian(height, 4) + [8, 2, 0, 0, 0])
        if let exifText { png += chunk("eXIf", Array("MM\u{0}*".utf8) + Array(exifText.utf8)) }
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    /// A PNG whose header claims `width` × `height` and whose pixels are a few bytes: a
    /// decompression bomb as far as any check before decoding can tell.
    static func pngClaiming(width: Int, height: Int) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(width, 4) + bigEndian(height, 4) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlibStored([0, 0, 0, 0]))
        png += chunk("IEND", [])
        return png
    }

    /// The width and height in a JPEG's start-of-frame segment, and whether it holds an APP1
    /// (EXIF or XMP) segment; nil when the bytes are not a JPEG.
    static func jpegFrame(_ jpeg: [UInt8]) -> (width: Int, height: Int, hasAPP1: Bool)? {
        guard jpeg.starts(with: [0xFF, 0xD8]) else { return nil }
        var index = 2, hasAPP1 = false
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            if marker == 0xE1 { hasAPP1 = true }
            if (0xC0...0xC3).contains(marker), index + 9 <= jpeg.count {
                let height = Int(jpeg[index + 5]) << 8 | Int(jpeg[index + 6])
                let width = Int(jpeg[index + 7]) << 8 | Int(jpeg[index + 8])
                return (width, height, hasAPP1)
            }
            index += 2 + length
        }
        return nil
    }

    private static func chunk(_ name: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(name.utf8) + data
        return bigEndian(data.count, 4) + typed + bigEndian(Int(crc32(typed)), 4)
    }

    /// zlib around deflate's stored blocks (RFC 1950, 1951 §3.2.4): no compression, so no codec.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let size = min(65_535, data.count - offset)
            let isLast: UInt8 = offset + size == data.count ? 1 : 0
            output += [isLast, UInt8(size & 0xFF), UInt8(size >> 8), UInt8(~size & 0xFF), UInt8((~size >> 8) & 0xFF)]
            output += data[offset..<offset + size]
            offset += size
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return output + bigEndian(Int(b << 16 | a), 4)
    }

    private static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension TestBrowser {
    /// Uploads `bytes` as the profile picture, as the settings form does.
    @discardableResult
    mutating func uploadPicture(_ bytes: [UInt8], filename: String = "me.png", contentType: String? = "image/png") async throws -> TestResponse {
        if csrfTokenSession != sessionCookie { try await refreshCSRFToken() }
        let boundary = "----PictureBoundary9dF2"
        var body = ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n\(csrfToken)\r\n")
        body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"picture\"; filename=\"\(filename)\"\r\n")
        if let contentType { body.writeString("Content-Type: \(contentType)\r\n") }
        body.writeString("\r\n")
        body.writeBytes(bytes)
        body.writeString("\r\n--\(boundary)--\r\n")
        return try await send(
            "/settings/profile/picture", method: .post, headers: [.contentType: "multipart/form-data; boundary=\(boundary)"], body: body
        )
    }
}
