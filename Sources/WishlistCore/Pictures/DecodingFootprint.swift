/// What decoding a picture holds in memory at the picture's full size, read from the file's own
/// header before anything is decoded.
///
/// Most pictures stream: libjpeg and libwebp decode a baseline JPEG or a lossy WebP already
/// shrunk, and a PNG is read row by row, so a 40 megapixel one costs a few MB. Some layouts
/// cannot stream, and their decoders hold the whole picture whatever size we ask for: a
/// progressive JPEG, or one whose first scan leaves components out, keeps every DCT coefficient
/// (2 bytes a sample); an interlaced PNG is read whole (4 bytes a pixel); a lossless or animated
/// WebP is decoded into 4 bytes a pixel, and the alpha plane of a lossy one into 1. Measured
/// with libvips 8.14 at 7000 × 5700: 123 MB for a progressive JPEG, 158 MB for a lossless WebP,
/// against 7 MB for a baseline JPEG.
struct DecodingFootprint {
    /// The kind of file that holds the whole picture, for the sentence that refuses it.
    let layout: String
    /// Bytes held for each pixel of the full-size picture; 0 when it streams.
    let bytesPerPixel: Double

    static let streamed = DecodingFootprint(layout: "", bytesPerPixel: 0)

    init(layout: String, bytesPerPixel: Double) {
        self.layout = layout
        self.bytesPerPixel = bytesPerPixel
    }

    init(reading bytes: [UInt8], as format: PictureFormat) {
        switch format {
        case .jpeg: self = Self.jpeg(bytes)
        case .png: self = Self.png(bytes)
        case .webp: self = Self.webp(bytes)
        }
    }

    func heldBytes(width: Int, height: Int) -> Double {
        Double(width) * Double(height) * bytesPerPixel
    }

    // MARK: JPEG

    /// A header we cannot follow: the decoder will likely refuse it too, and if not, it is
    /// counted as the dearest layout there is (four components, none subsampled).
    private static let unfollowableJPEG = DecodingFootprint(layout: "a JPEG laid out in an unusual way", bytesPerPixel: 8)

    /// Walks the markers to the first scan as libjpeg does, stray bytes before a marker skipped.
    /// libjpeg keeps the whole picture's coefficients when the frame is progressive or its first
    /// scan leaves a component out (`has_multiple_scans` in jdinput.c).
    private static func jpeg(_ bytes: [UInt8]) -> DecodingFootprint {
        var frame: JPEGFrame?
        var index = 2
        while let markerStart = bytes[index...].firstIndex(of: 0xFF) {
            index = markerStart
            while index < bytes.count, bytes[index] == 0xFF { index += 1 }
            guard index < bytes.count else { break }
            let marker = bytes[index]
            index += 1
            // No length: TEM, RSTn and SOI, and FF 00, which libjpeg skips as a stray byte too.
            if marker == 0x00 || marker == 0x01 || (0xD0...0xD8).contains(marker) { continue }
            guard marker != 0xD9, index + 2 <= bytes.count else { break }
            let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            guard length >= 2, index + length <= bytes.count else { break }
            let body = bytes[(index + 2)..<(index + length)]
            if JPEGFrame.isStartOfFrame(marker) {
                frame = JPEGFrame(marker: marker, body: body)
            } else if marker == 0xDA {
                guard let frame, let scanComponents = body.first else { break }
                return frame.footprint(firstScanComponents: Int(scanComponents))
            }
            index += length
        }
        return unfollowableJPEG
    }

    /// A JPEG's frame header (SOFn): whether it is progressive, and each component's sampling.
    private struct JPEGFrame {
        let progressive: Bool
        let sampling: [(horizontal: Int, vertical: Int)]

        /// SOF0 to SOF15 but for DHT (C4), JPG (C8) and DAC (CC), which share the range.
        static func isStartOfFrame(_ marker: UInt8) -> Bool {
            (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
        }

        /// The body: precision (1 byte), height, width (2 each), the count of components, then 3
        /// bytes a component, of which the second holds the sampling factors.
        init?(marker: UInt8, body: ArraySlice<UInt8>) {
            let fields = Array(body)
            guard fields.count >= 6 else { return nil }
            let count = Int(fields[5])
            guard count > 0, fields.count >= 6 + 3 * count else { return nil }
            progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
            sampling = (0..<count).map { component in
                let factors = fields[6 + 3 * component + 1]
                return (horizontal: Int(factors >> 4), vertical: Int(factors & 0x0F))
            }
        }

        func footprint(firstScanComponents: Int) -> DecodingFootprint {
            guard progressive || firstScanComponents < sampling.count else { return .streamed }
            let largest = (sampling.map(\.horizontal).max() ?? 1) * (sampling.map(\.vertical).max() ?? 1)
            let blocksPerLargest = sampling.reduce(0) { $0 + $1.horizontal * $1.vertical }
            guard largest > 0 else { return unfollowableJPEG }
            // A component sampled h × v of the largest's keeps that share of a 2-byte coefficient a pixel.
            return DecodingFootprint(
                layout: progressive ? "a progressive JPEG" : "a JPEG in several scans",
                bytesPerPixel: 2 * Double(blocksPerLargest) / Double(largest)
            )
        }
    }

    // MARK: PNG

    /// IHDR is the first chunk: its interlace method is byte 28 of the file. An interlaced PNG
    /// arrives in seven passes over the whole picture, so it is read whole, as 8-bit RGBA.
    private static func png(_ bytes: [UInt8]) -> DecodingFootprint {
        guard bytes.count >= 29, bytes[12..<16].elementsEqual("IHDR".utf8) else {
            return DecodingFootprint(layout: "a PNG laid out in an unusual way", bytesPerPixel: 4)
        }
        return bytes[28] == 0 ? .streamed : DecodingFootprint(layout: "an interlaced PNG", bytesPerPixel: 4)
    }

    // MARK: WebP

    /// Walks the RIFF chunks after "WEBP" (a four-letter name, a little-endian size, the data
    /// padded to an even length) for the chunks that make libwebp hold the whole picture.
    private static func webp(_ bytes: [UInt8]) -> DecodingFootprint {
        var footprint = DecodingFootprint.streamed
        var index = 12
        while index + 8 <= bytes.count {
            let name = String(decoding: bytes[index..<(index + 4)], as: UTF8.self)
            let size = (0..<4).reduce(0) { $0 | Int(bytes[index + 4 + $1]) << (8 * $1) }
            switch name {
            case "VP8L": return DecodingFootprint(layout: "a lossless WebP", bytesPerPixel: 4)
            case "ANIM", "ANMF": return DecodingFootprint(layout: "an animated WebP", bytesPerPixel: 4)
            case "ALPH": footprint = DecodingFootprint(layout: "a WebP with transparency", bytesPerPixel: 1)
            default: break
            }
            index += 8 + size + size % 2
        }
        return footprint
    }
}
