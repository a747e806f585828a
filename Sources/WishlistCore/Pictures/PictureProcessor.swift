import CVipsShim
import NIOPosix
import Synchronization

/// A profile picture made from an upload: one square, centre-cropped, as two JPEGs in sRGB that
/// carry no metadata (no EXIF, GPS position, XMP or ICC profile leaves the server).
package struct ProcessedPicture: Sendable, Equatable {
    /// `PictureProcessor.largeSide` pixels a side.
    package let large: [UInt8]
    /// `PictureProcessor.smallSide` pixels a side.
    package let small: [UInt8]
}

/// Checks uploaded pictures and re-encodes them with libvips, on threads of its own so that no
/// decode ever runs on an event loop.
///
/// The checks come cheapest first, all before a pixel is decoded: the size in bytes, the format
/// by its first bytes (which the declared type must agree with), then on the pool the width and
/// height from the header, and what the decoder would hold in memory (`DecodingFootprint`).
/// Whatever still fails to decode is `PictureProblem.unreadable`, never a crash.
///
/// At most `threads` pictures decode at once and `maxWaiting` more may wait; past that the caller
/// gets `PictureProblem.busy` at once, instead of a queue that would hold every waiting upload's
/// bytes. The pool starts with the processor and stops when the processor is released.
package final class PictureProcessor: Sendable {
    package static let maximumBytes = 8 * 1024 * 1024
    package static let maximumPixels = 40_000_000
    package static let maximumSide = 20_000
    package static let largeSide = 256
    package static let smallSide = 64
    /// What a decoder may hold at the picture's full size (`DecodingFootprint`), on top of the
    /// 5 to 12 MB that any picture costs. A 40 megapixel progressive JPEG would hold 123 MB; this
    /// lets through progressive JPEGs up to 5.5 megapixels (2.7 without chroma subsampling),
    /// interlaced PNGs and lossless WebPs up to 4.1, and the process grows by at most 23 MB
    /// for one picture (measured at those sizes, libvips 8.14).
    static let decodingBudget = 16 * 1024 * 1024

    /// libvips would not start (a broken install): the server should not start without it.
    package struct StartFailure: Error, CustomStringConvertible {
        package let description: String
    }

    private let threadPool: NIOThreadPool
    private let capacity: Int
    private let admitted = Atomic<Int>(0)

    /// Starts libvips (once a process) and `threads` threads. One thread is the default: a
    /// picture takes a second or so of a core at most, and each one decoding at once adds its
    /// memory to the server's peak.
    package init(threads: Int = 1, maxWaiting: Int = 4) throws {
        guard cvips_start() == 0 else { throw StartFailure(description: "libvips did not start: " + Self.takeError()) }
        self.capacity = threads + maxWaiting
        self.threadPool = NIOThreadPool(numberOfThreads: threads)
        self.threadPool.start()
    }

    deinit {
        threadPool.shutdownGracefully { _ in }
    }

    /// The picture's two sizes, or a `PictureProblem`. `declaredType` is the upload's
    /// `Content-Type`, when the browser sent one.
    package func process(bytes: [UInt8], declaredType: String?) async throws -> ProcessedPicture {
        let format = try Self.check(bytes, declaredType: declaredType)
        return try await run { try Self.reencode(bytes, format: format) }
    }

    /// The checks that need no decoder, in the design's order: the size before anything else.
    static func check(_ bytes: [UInt8], declaredType: String?) throws -> PictureFormat {
        guard bytes.count <= maximumBytes else { throw PictureProblem.overSizeLimit }
        guard !bytes.isEmpty else { throw PictureProblem.empty }
        guard let format = PictureFormat(sniffing: bytes) else { throw PictureProblem.notAPicture }
        guard format.agrees(withDeclaredType: declaredType) else { throw PictureProblem.declaredTypeDisagrees(actual: format) }
        return format
    }

    /// Pictures admitted and not yet finished, decoding or waiting.
    var admittedCount: Int { admitted.load(ordering: .relaxed) }

    func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        let previouslyAdmitted = admitted.add(1, ordering: .relaxed).oldValue
        defer { admitted.subtract(1, ordering: .relaxed) }
        guard previouslyAdmitted < capacity else { throw PictureProblem.busy }
        return try await threadPool.runIfActive(work)
    }

    // MARK: On the pool

    private static func reencode(_ bytes: [UInt8], format: PictureFormat) throws -> ProcessedPicture {
        try bytes.withUnsafeBytes { buffer in
            let (width, height) = try readSize(buffer, format: format)
            try checkDimensions(width: width, height: height)
            let footprint = DecodingFootprint(reading: bytes, as: format)
            guard footprint.heldBytes(width: width, height: height) <= Double(decodingBudget) else {
                let allowedTenths = Int(Double(decodingBudget) / footprint.bytesPerPixel / 100_000)
                throw PictureProblem.tooBigForItsLayout(
                    layout: footprint.layout, width: width, height: height, allowedMegapixelTenths: allowedTenths)
            }
            return try squareJPEGs(buffer, format: format)
        }
    }

    /// Pixels first, so that a bomb (50,000 × 50,000) hears about its megapixels, not its sides.
    private static func checkDimensions(width: Int, height: Int) throws {
        guard width * height <= maximumPixels else { throw PictureProblem.overPixelLimit(width: width, height: height) }
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
            throw PictureProblem.sideOutOfRange(width: width, height: height)
        }
    }

    private static func readSize(_ buffer: UnsafeRawBufferPointer, format: PictureFormat) throws -> (Int, Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        guard cvips_read_size(buffer.baseAddress, buffer.count, format.vipsFormat, &width, &height) == 0 else {
            throw PictureProblem.unreadable(reason: takeError())
        }
        return (Int(width), Int(height))
    }

    private static func squareJPEGs(_ buffer: UnsafeRawBufferPointer, format: PictureFormat) throws -> ProcessedPicture {
        var large = cvips_bytes()
        var small = cvips_bytes()
        let status = cvips_square_jpegs(
            buffer.baseAddress, buffer.count, format.vipsFormat, Int32(largeSide), Int32(smallSide), &large, &small)
        guard status == 0 else { throw PictureProblem.unreadable(reason: takeError()) }
        return ProcessedPicture(large: takeBytes(large), small: takeBytes(small))
    }

    private static func takeBytes(_ encoded: cvips_bytes) -> [UInt8] {
        defer { cvips_free(encoded.bytes) }
        return Array(UnsafeRawBufferPointer(start: encoded.bytes, count: encoded.length))
    }

    /// libvips's words for what went wrong, on one line, for the log.
    private static func takeError() -> String {
        guard let text = cvips_take_error() else { return "libvips gave no reason" }
        defer { cvips_free(text) }
        return String(cString: text).split(whereSeparator: \.isNewline).joined(separator: "; ")
    }
}

extension PictureFormat {
    var vipsFormat: cvips_format {
        switch self {
        case .jpeg: CVIPS_JPEG
        case .png: CVIPS_PNG
        case .webp: CVIPS_WEBP
        }
    }
}
