import CPictureCodec
import NIOPosix
import Synchronization

/// A profile picture made from an upload: one square, centre-cropped, as two JPEGs that carry no
/// metadata (no EXIF, GPS position, XMP or ICC profile leaves the server). Colours are taken as
/// sRGB, as nearly every picture's are: an embedded ICC profile is not applied.
package struct ProcessedPicture: Sendable, Equatable {
    /// `PictureProcessor.largeSide` pixels a side.
    package let large: [UInt8]
    /// `PictureProcessor.smallSide` pixels a side.
    package let small: [UInt8]
}

/// Checks uploaded pictures and book covers and re-encodes them with libjpeg-turbo, libpng and
/// libwebp (the libraries browsers use on untrusted images, through `CPictureCodec`), on threads of
/// its own so that no decode ever runs on an event loop.
///
/// The checks come cheapest first, all before a pixel is decoded: the size in bytes, the format
/// by its first bytes (which an upload's declared type must agree with), then on the pool the
/// width and height from the header, and what the decoder would hold in memory (`DecodingFootprint`).
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
    /// 2 to 3 MB that any picture costs. This lets through progressive JPEGs up to 5.5
    /// megapixels (2.7 without chroma subsampling), interlaced PNGs and lossless WebPs up to 4.1,
    /// lossy WebPs with transparency up to 3.3, and the process grows by at most 18 MB for one
    /// picture (measured at those sizes).
    static let decodingBudget = 16 * 1024 * 1024

    /// The codec libraries loaded are not ones this build can use (a broken install): the
    /// server should not start without them.
    package struct StartFailure: Error, CustomStringConvertible {
        package let description: String
    }

    private let threadPool: NIOThreadPool
    private let capacity: Int
    private let admitted = Atomic<Int>(0)

    /// Checks the codec libraries and starts `threads` threads. One thread is the default: a
    /// picture takes under half a second of a core (a 40 megapixel PNG; a JPEG or WebP a tenth of
    /// that), and each one decoding at once adds its memory to the server's peak.
    package init(threads: Int = 1, maxWaiting: Int = 4) throws {
        var failure = picture_failure()
        guard picture_check_codecs(&failure) == 0 else {
            throw StartFailure(description: "the picture codecs cannot be used: " + failure.text)
        }
        self.capacity = threads + maxWaiting
        self.threadPool = ThreadPools.process.start(threads: threads)
    }

    deinit {
        ThreadPools.process.close(threadPool)
    }

    /// The picture's two sizes, or a `PictureProblem`. `declaredType` is the upload's
    /// `Content-Type`, when the browser sent one.
    package func process(bytes: some PictureBytes, declaredType: String?) async throws -> ProcessedPicture {
        let format = try bytes.withUnsafePictureBytes { try Self.check($0, declaredType: declaredType) }
        return try await run { try Self.reencode(bytes, format: format) }
    }

    /// The checks that need no decoder, in the design's order: the size before anything else,
    /// the declared type last.
    static func check(_ bytes: UnsafeRawBufferPointer, declaredType: String?) throws -> PictureFormat {
        let format = try checkedFormat(of: bytes)
        guard format.agrees(withDeclaredType: declaredType) else { throw PictureProblem.declaredTypeDisagrees(actual: format) }
        return format
    }

    /// The format by the first bytes, once the size is one we take.
    static func checkedFormat(of bytes: UnsafeRawBufferPointer) throws -> PictureFormat {
        guard bytes.count <= maximumBytes else { throw PictureProblem.overSizeLimit }
        guard !bytes.isEmpty else { throw PictureProblem.empty }
        guard let format = PictureFormat(sniffing: bytes) else { throw PictureProblem.notAPicture }
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

    private static func reencode(_ bytes: some PictureBytes, format: PictureFormat) throws -> ProcessedPicture {
        try bytes.withUnsafePictureBytes { buffer in
            _ = try checkedHeader(buffer, format: format)
            let (large, small) = try twoJPEGs { limits, large, small, failure in
                picture_make_squares(
                    buffer.baseAddress, buffer.count, format.codecFormat, limits, Int32(largeSide), Int32(smallSide),
                    large, small, failure)
            }
            return ProcessedPicture(large: large, small: small)
        }
    }

    /// The header, once its size and what its decoder would hold are ones we take.
    static func checkedHeader(_ buffer: UnsafeRawBufferPointer, format: PictureFormat) throws -> picture_header {
        let header = try readHeader(buffer, format: format)
        let (width, height) = (Int(header.width), Int(header.height))
        try checkDimensions(width: width, height: height)
        let footprint = DecodingFootprint(header)
        guard footprint.heldBytes <= decodingBudget else {
            throw PictureProblem.tooBigForItsLayout(
                layout: footprint.layout, width: width, height: height,
                allowedMegapixelTenths: footprint.allowedMegapixelTenths(within: decodingBudget, width: width, height: height))
        }
        return header
    }

    /// Pixels first, so that a bomb (50,000 × 50,000) hears about its megapixels, not its sides.
    private static func checkDimensions(width: Int, height: Int) throws {
        guard width * height <= maximumPixels else { throw PictureProblem.overPixelLimit(width: width, height: height) }
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
            throw PictureProblem.sideOutOfRange(width: width, height: height)
        }
    }

    private static func readHeader(_ buffer: UnsafeRawBufferPointer, format: PictureFormat) throws -> picture_header {
        var header = picture_header()
        var failure = picture_failure()
        guard picture_read_header(buffer.baseAddress, buffer.count, format.codecFormat, &header, &failure) == 0 else {
            throw PictureProblem.unreadable(reason: failure.text)
        }
        return header
    }

    /// The decoders' own guards, behind the checks above.
    static let limits = picture_limits(longest_side: Int32(maximumSide), whole_frame_bytes: decodingBudget)

    /// The two JPEGs that `make` (a `picture_make_…` call, given the decoders' limits and where to
    /// put them) writes.
    static func twoJPEGs(
        _ make: (
            UnsafePointer<picture_limits>, UnsafeMutablePointer<picture_bytes>, UnsafeMutablePointer<picture_bytes>,
            UnsafeMutablePointer<picture_failure>
        ) -> Int32
    ) throws -> (large: [UInt8], small: [UInt8]) {
        var large = picture_bytes()
        var small = picture_bytes()
        var failure = picture_failure()
        let status = withUnsafePointer(to: limits) { limits in make(limits, &large, &small, &failure) }
        guard status == 0 else { throw PictureProblem.unreadable(reason: failure.text) }
        return (takeBytes(large), takeBytes(small))
    }

    private static func takeBytes(_ encoded: picture_bytes) -> [UInt8] {
        defer { picture_free(encoded.bytes) }
        return Array(UnsafeRawBufferPointer(start: encoded.bytes, count: encoded.length))
    }
}

extension PictureFormat {
    var codecFormat: picture_format {
        switch self {
        case .jpeg: PICTURE_JPEG
        case .png: PICTURE_PNG
        case .webp: PICTURE_WEBP
        }
    }
}

extension picture_failure {
    /// The library's words, for the log.
    var text: String {
        withUnsafeBytes(of: reason) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
