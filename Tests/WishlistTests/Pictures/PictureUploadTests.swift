import CPictureCodec
import CTestPictures
import Dispatch
import Testing
@testable import WishlistCore

/// Every picture here is made as the test runs (`TestPictures.h` draws stripes with the same
/// libraries; headers, metadata and damage are spliced in by hand), so no binary file is committed.
@Suite("Profile pictures: checks and re-encoding")
struct PictureUploadTests {
    static let red: [UInt8] = [220, 20, 20]
    static let green: [UInt8] = [20, 200, 20]
    static let blue: [UInt8] = [20, 20, 220]
    static let black: [UInt8] = [0, 0, 0]

    let processor: PictureProcessor

    init() throws {
        processor = try PictureProcessor()
    }

    // MARK: What comes out

    @Test(arguments: PictureFormat.allCases)
    func eachFormatBecomesTwoSquareJPEGs(format: PictureFormat) async throws {
        let processed = try await processor.process(bytes: picture(format, width: 600, height: 400), declaredType: nil)
        #expect(frame(of: processed.large) == Frame(width: 256, height: 256, components: 3))
        #expect(frame(of: processed.small) == Frame(width: 64, height: 64, components: 3))
    }

    @Test(arguments: PictureFormat.allCases)
    func aTinyPictureIsEnlarged(format: PictureFormat) async throws {
        let processed = try await processor.process(bytes: picture(format, width: 1, height: 1), declaredType: nil)
        #expect(frame(of: processed.large) == Frame(width: 256, height: 256, components: 3))
    }

    /// Red, green and blue thirds: only the green one survives a centre crop, where squashing
    /// the picture square would keep all three.
    @Test(arguments: PictureFormat.allCases, [false, true])
    func aLongPictureIsCroppedAtItsCentre(format: PictureFormat, tall: Bool) async throws {
        let (width, height) = tall ? (300, 900) : (900, 300)
        let bytes = picture(format, width: width, height: height, colours: [Self.red, Self.green, Self.blue], horizontal: tall)
        let processed = try await processor.process(bytes: bytes, declaredType: nil)
        for (x, y) in [(8, 8), (128, 128), (247, 247), (8, 247)] {
            #expect(isClose(pixel(of: processed.large, x: x, y: y), Self.green), "at \(x), \(y)")
        }
        #expect(isClose(pixel(of: processed.small, x: 32, y: 32), Self.green))
    }

    /// Orientation 6 is "turn 90° clockwise to show": the left half (red) comes out on top.
    @Test(arguments: [PictureFormat.jpeg, .webp])
    func aPictureIsTurnedUprightByItsEXIFOrientation(format: PictureFormat) async throws {
        let stored = picture(format, width: 200, height: 100, colours: [Self.red, Self.blue])
        let exif = exifTIFF(description: "turned", orientation: 6)
        let bytes = format == .jpeg ? insertingSegments(into: stored, [exifSegment(exif)]) : addingChunk("EXIF", exif, to: stored)
        let processed = try await processor.process(bytes: bytes, declaredType: nil)
        #expect(isClose(pixel(of: processed.large, x: 128, y: 40), Self.red))
        #expect(isClose(pixel(of: processed.large, x: 128, y: 215), Self.blue))
    }

    /// Where the red half of a square picture shows, stored on the left and stored on top, for
    /// each orientation: no two orientations agree on both.
    @Test(arguments: [
        (1, Side.left, Side.top), (2, .right, .top), (3, .right, .bottom), (4, .left, .bottom),
        (5, .top, .left), (6, .top, .right), (7, .bottom, .right), (8, .bottom, .left),
    ])
    func everyEXIFOrientationIsApplied(orientation: Int, redStoredLeftShows: Side, redStoredOnTopShows: Side) async throws {
        let exif = exifSegment(exifTIFF(description: "turned", orientation: orientation))
        for (horizontal, side) in [(false, redStoredLeftShows), (true, redStoredOnTopShows)] {
            let stored = picture(.jpeg, width: 200, height: 200, colours: [Self.red, Self.blue], horizontal: horizontal)
            let processed = try await processor.process(bytes: insertingSegments(into: stored, [exif]), declaredType: nil)
            #expect(isClose(pixel(of: processed.large, x: side.point.x, y: side.point.y), Self.red), "\(side)")
        }
    }

    @Test func noMetadataLeavesTheServer() async throws {
        let marker = "GPS 51.50070N 0.12460W taken at home"
        let jpeg = insertingSegments(
            into: picture(.jpeg, width: 300, height: 300),
            [exifSegment(exifTIFF(description: marker)), xmpSegment(text: marker)])
        let textChunk = pngChunk("tEXt", Array("Comment".utf8) + [0] + Array(marker.utf8))
        let png = insertingChunk(textChunk, into: picture(.png, width: 300, height: 300))
        let webp = addingChunk("EXIF", exifTIFF(description: marker), to: picture(.webp, width: 300, height: 300))
        #expect([jpeg, png, webp].allSatisfy { containsText($0, marker) }, "the marker is in what goes in")
        for bytes in [jpeg, png, webp] {
            let processed = try await processor.process(bytes: bytes, declaredType: nil)
            for output in [processed.large, processed.small] {
                let leaked = containsText(output, marker)
                let applicationSegments = jpegSegments(output).map(\.marker).filter { (0xE1...0xEF).contains($0) }
                #expect(!leaked)
                #expect(applicationSegments.isEmpty, "APP1 to APP15 carry EXIF, XMP, ICC and IPTC")
            }
        }
    }

    /// Grey and CMYK are turned into RGB with their colours kept.
    @Test(arguments: [(PictureFormat.jpeg, StoredColours.grey), (.png, .grey), (.jpeg, .cmyk)])
    func greyAndCMYKPicturesComeOutInRGB(format: PictureFormat, stored: StoredColours) async throws {
        let colour: [UInt8] = stored == .grey ? [90, 90, 90] : Self.red
        let bytes = picture(format, width: 300, height: 300, colours: [colour], stored: stored)
        let processed = try await processor.process(bytes: bytes, declaredType: nil)
        #expect(frame(of: processed.large)?.components == 3)
        #expect(isClose(pixel(of: processed.large, x: 128, y: 128), colour))
    }

    /// Half-transparent black on white is mid grey; on black it would stay black.
    @Test(arguments: [PictureFormat.png, .webp])
    func transparencyIsFlattenedOntoWhite(format: PictureFormat) async throws {
        let bytes = picture(format, width: 300, height: 300, colours: [Self.black], alpha: true)
        let processed = try await processor.process(bytes: bytes, declaredType: nil)
        let grey = pixel(of: processed.large, x: 128, y: 128)
        #expect(grey.allSatisfy { (112...142).contains($0) }, "\(grey)")
    }

    /// 7000 × 5700 is 39.9 megapixels: inside the limit, and shrunk while it loads or streamed.
    @Test(arguments: [PictureFormat.jpeg, .png])
    func theLargestPicturesAreAccepted(format: PictureFormat) async throws {
        let processed = try await processor.process(bytes: picture(format, width: 7000, height: 5700), declaredType: nil)
        #expect(frame(of: processed.large) == Frame(width: 256, height: 256, components: 3))
    }

    // MARK: What is refused

    @Test func anEmptyFileIsRefused() async {
        #expect(await problem(with: []) == .empty)
    }

    @Test func overEightMBIsRefusedBeforeAnythingElse() async throws {
        let limit = PictureProcessor.maximumBytes
        let jpeg = picture(.jpeg, width: 64, height: 64)
        #expect(await problem(with: [UInt8](repeating: 0, count: limit + 1)) == .overSizeLimit)
        #expect(await problem(with: jpeg + [UInt8](repeating: 0, count: limit + 1 - jpeg.count)) == .overSizeLimit)
        // Exactly 8 MB, the JPEG followed by zeros its decoder never reads: accepted.
        _ = try await processor.process(bytes: jpeg + [UInt8](repeating: 0, count: limit - jpeg.count), declaredType: nil)
        #expect(PictureProblem.overSizeLimit.message == "That picture is over 8 MB.")
    }

    @Test(arguments: [
        "Just some notes.\n",
        #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#,
        #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>"#,
        "GIF89a\u{1}\0\u{1}\0",
    ])
    func whatIsNotAJPEGPNGOrWebPIsRefused(text: String) async {
        #expect(await problem(with: Array(text.utf8), declaredType: "image/svg+xml") == .notAPicture)
        #expect(PictureProblem.notAPicture.message == "That file is not a JPEG, PNG or WebP picture.")
    }

    @Test(arguments: PictureFormat.allCases)
    func aPictureCutShortIsUnreadableNotACrash(format: PictureFormat) async {
        let whole = picture(format, width: 400, height: 400, colours: [Self.red, Self.green, Self.blue])
        let problem = await problem(with: Array(whole.prefix(whole.count / 2)))
        #expect(problem?.isUnreadable == true, "\(String(describing: problem))")
        #expect(problem?.message == "That picture could not be read; it may be damaged or cut short.")
    }

    /// Damage inside the compressed data: libjpeg only warns about it, and would go on to decode
    /// grey or noise where it is.
    @Test(arguments: [false, true])
    func aDamagedJPEGIsUnreadableNotACrash(progressive: Bool) async {
        let whole = picture(.jpeg, width: 400, height: 400, colours: [Self.red, Self.green, Self.blue], wholeFrame: progressive)
        let problem = await problem(with: flippingEntropyCodedBytes(of: whole))
        #expect(problem?.isUnreadable == true, "\(String(describing: problem))")
    }

    /// A byte changed (its chunk's CRC left as it was) and garbage (with a CRC that matches it):
    /// libpng's checksum and zlib's own checks.
    @Test func aDamagedPNGIsUnreadableNotACrash() async {
        let whole = picture(.png, width: 400, height: 400, colours: [Self.red, Self.green, Self.blue])
        let badChecksum = await problem(with: changingAByteOfIDAT(in: whole))
        #expect(badChecksum?.isUnreadable == true, "a byte changed, the CRC left: \(String(describing: badChecksum))")
        let garbage = await problem(with: replacingIDAT(in: whole, with: [UInt8](repeating: 0xA5, count: 500)))
        #expect(garbage?.isUnreadable == true, "garbage with a good CRC: \(String(describing: garbage))")
    }

    /// Only its first frame could be shown; a moving picture shown still would surprise.
    @Test func anAnimatedWebPIsRefused() async {
        let still = picture(.webp, width: 64, height: 64)
        let frameHeader = [UInt8](repeating: 0, count: 6) + littleEndian(63, bytes: 3) + littleEndian(63, bytes: 3)
            + littleEndian(100, bytes: 3) + [0]
        let animated = webpFile([
            vp8xChunk(flags: 0x02, width: 64, height: 64),
            riffChunk("ANIM", [255, 255, 255, 255, 0, 0]),
            riffChunk("ANMF", frameHeader + imageChunk(of: still)),
        ])
        #expect(await problem(with: animated)?.isUnreadable == true)
    }

    /// A header claiming 50,000 × 50,000 (7.5 GB of pixels) is refused from the header alone.
    @Test func aDecompressionBombIsRefusedByItsHeader() async {
        let problem = await problem(with: handMadePNG(width: 50_000, height: 50_000))
        #expect(problem == .overPixelLimit(width: 50_000, height: 50_000))
        #expect(problem?.message == "That picture is over 40 megapixels (it is 50,000 × 50,000).")
        #expect(PictureProblem.overPixelLimit(width: 12_000, height: 9_000).message
            == "That picture is over 40 megapixels (it is 12,000 × 9,000).")
    }

    @Test func aSideOverTwentyThousandIsRefused() async {
        #expect(await problem(with: handMadePNG(width: 25_000, height: 100)) == .sideOutOfRange(width: 25_000, height: 100))
    }

    @Test func aFileThatLiesAboutItsTypeIsRefused() async {
        let png = picture(.png, width: 64, height: 64)
        let problem = await problem(with: png, declaredType: "image/jpeg")
        #expect(problem == .declaredTypeDisagrees(actual: .png))
        #expect(problem?.message == "That file’s type does not match its contents (it is a PNG picture).")
    }

    @Test(arguments: [
        (nil, true), ("", true), ("application/octet-stream", true), ("image/png", true), ("IMAGE/PNG; charset=binary", true),
        ("image/x-png", true), ("image/jpeg", false), ("image/webp", false), ("image/svg+xml", false), ("text/plain", false),
    ] as [(String?, Bool)])
    func theDeclaredTypeMustAgreeWithTheBytes(declared: String?, agrees: Bool) {
        #expect(PictureFormat.png.agrees(withDeclaredType: declared) == agrees)
    }

    /// A polyglot is read as what its first bytes say, by that format's decoder only.
    @Test func polyglotsAreReadAsTheirFirstBytesSay() async throws {
        let jpeg = picture(.jpeg, width: 300, height: 300)
        let png = picture(.png, width: 300, height: 300)
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(await problem(with: pngSignature + jpeg)?.isUnreadable == true, "PNG magic, JPEG inside")
        let jpegMagicThenSVG = [0xFF, 0xD8, 0xFF] + Array(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8)
        #expect(await problem(with: jpegMagicThenSVG)?.isUnreadable == true, "JPEG magic, SVG inside")
        let jpegThenPNG = try await processor.process(bytes: jpeg + png, declaredType: "image/jpeg")
        #expect(frame(of: jpegThenPNG.large)?.width == 256, "a JPEG with a PNG after its end is a JPEG")
    }

    /// Layouts whose decoder holds the whole picture are refused past `decodingBudget`, and read below it.
    @Test(arguments: PictureFormat.allCases)
    func aWholeFrameLayoutIsRefusedWhenItWouldNotFit(format: PictureFormat) async throws {
        let large = picture(format, width: 2500, height: 2500, wholeFrame: true)
        let problem = await problem(with: large)
        guard case .tooBigForItsLayout(let layout, 2500, 2500, _) = problem else {
            Issue.record("\(String(describing: problem))")
            return
        }
        let expectedLayout = switch format {
        case .jpeg: "a progressive JPEG"
        case .png: "an interlaced PNG"
        case .webp: "a lossless WebP"
        }
        #expect(layout == expectedLayout)
        let small = picture(format, width: 500, height: 300, wholeFrame: true)
        #expect(frame(of: try await processor.process(bytes: small, declaredType: nil).large)?.width == 256)
    }

    /// libwebp decodes the transparency of a lossy WebP whole, and through its lossless decoder
    /// when it is compressed, as libwebp's encoder does by default: 5 bytes a pixel.
    @Test func aLargeWebPWithTransparencyIsRefused() async {
        let problem = await problem(with: picture(.webp, width: 2500, height: 2500, alpha: true))
        #expect(problem == .tooBigForItsLayout(
            layout: "a WebP with transparency", width: 2500, height: 2500, allowedMegapixelTenths: 33))
    }

    /// The decoders keep to limits of their own, should a file get past the header checks.
    @Test func theDecodersKeepToTheirOwnLimits() {
        let limits = picture_limits(longest_side: 800, whole_frame_bytes: 1 << 20)
        let refused: [(String, PictureFormat, [UInt8])] = [
            ("libjpeg's max_memory_to_use", .jpeg, picture(.jpeg, width: 1000, height: 1000, wholeFrame: true)),
            ("libpng's user limits", .png, picture(.png, width: 900, height: 100)),
            ("the interlaced rows' limit", .png, picture(.png, width: 600, height: 600, wholeFrame: true)),
        ]
        for (limit, format, bytes) in refused {
            #expect(makeSquares(bytes, format, limits) != nil, "\(limit)")
        }
        #expect(makeSquares(picture(.jpeg, width: 1000, height: 1000), .jpeg, limits) == nil, "a baseline JPEG streams")
    }

    @Test func aProgressiveJPEGsRefusalSaysWhatWouldDo() {
        let problem = PictureProblem.tooBigForItsLayout(
            layout: "a progressive JPEG", width: 7000, height: 5700, allowedMegapixelTenths: 55)
        #expect(problem.message == "That picture, a progressive JPEG of 7,000 × 5,700, takes too much memory to read; "
            + "a copy of at most 5.5 megapixels will do.")
    }

    @Test func pastTheQueueUploadsAreTurnedAwayNotQueued() async throws {
        let processor = try PictureProcessor(threads: 1, maxWaiting: 1)
        // One picture decoding and one waiting fill the processor; they hold until the gate opens.
        let gate = DispatchSemaphore(value: 0)
        let holders = (0..<2).map { _ in Task { try await processor.run { gate.wait() } } }
        while processor.admittedCount < 2 { await Task.yield() }
        let bytes = picture(.jpeg, width: 64, height: 64)
        await #expect(throws: PictureProblem.busy) { try await processor.process(bytes: bytes, declaredType: nil) }
        gate.signal()
        gate.signal()
        for holder in holders { try await holder.value }
        #expect(frame(of: try await processor.process(bytes: bytes, declaredType: nil).small)?.width == 64, "free again")
    }

    // MARK: Helpers

    private func problem(with bytes: [UInt8], declaredType: String? = nil) async -> PictureProblem? {
        do {
            _ = try await processor.process(bytes: bytes, declaredType: declaredType)
            Issue.record("accepted")
        } catch let problem as PictureProblem {
            return problem
        } catch {
            Issue.record("not a PictureProblem: \(error)")
        }
        return nil
    }
}

// MARK: Making pictures

extension PictureUploadTests {
    /// A half of the large square, by a point well inside it.
    enum Side: Sendable {
        case left, right, top, bottom

        var point: (x: Int, y: Int) {
            switch self {
            case .left: (40, 128)
            case .right: (215, 128)
            case .top: (128, 40)
            case .bottom: (128, 215)
            }
        }
    }

    /// How a test picture stores its colours (`test_picture_colours`).
    enum StoredColours: Sendable {
        case rgb
        /// From each colour's red byte: JPEG and PNG.
        case grey
        /// Inverted, as Adobe's applications write it: JPEG.
        case cmyk

        var recipeColours: test_picture_colours {
            switch self {
            case .rgb: TEST_PICTURE_RGB
            case .grey: TEST_PICTURE_GREY
            case .cmyk: TEST_PICTURE_CMYK
            }
        }
    }
}

/// Stripes of `colours`, drawn and encoded by `test_picture_encode`.
func picture(
    _ format: PictureFormat, width: Int, height: Int, colours: [[UInt8]] = [PictureUploadTests.green],
    horizontal: Bool = false, stored: PictureUploadTests.StoredColours = .rgb, alpha: Bool = false,
    wholeFrame: Bool = false
) -> [UInt8] {
    var encoded = picture_bytes()
    let status = colours.flatMap { $0 }.withUnsafeBufferPointer { stripes in
        var recipe = test_picture_recipe(
            format: format.codecFormat, width: Int32(width), height: Int32(height), stripes: stripes.baseAddress,
            stripe_count: Int32(colours.count), horizontal: horizontal ? 1 : 0, colours: stored.recipeColours,
            with_alpha: alpha ? 1 : 0, whole_frame_layout: wholeFrame ? 1 : 0)
        return test_picture_encode(&recipe, &encoded)
    }
    precondition(status == 0, "could not make a test picture")
    defer { picture_free(encoded.bytes) }
    return Array(UnsafeRawBufferPointer(start: encoded.bytes, count: encoded.length))
}

private func bigEndian(_ value: Int, bytes: Int) -> [UInt8] {
    (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

private func jpegSegment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
    [0xFF, marker] + bigEndian(body.count + 2, bytes: 2) + body
}

/// An EXIF block: a big-endian TIFF header and one directory with ImageDescription and, when
/// given, Orientation (entries in tag order, the text after the directory).
private func exifTIFF(description: String, orientation: Int? = nil) -> [UInt8] {
    let text = Array(description.utf8) + [0]
    let entries = orientation == nil ? 1 : 2
    var tiff = Array("MM".utf8) + [0x00, 0x2A] + bigEndian(8, bytes: 4) + bigEndian(entries, bytes: 2)
    tiff += bigEndian(0x010E, bytes: 2) + bigEndian(2, bytes: 2) + bigEndian(text.count, bytes: 4)
        + bigEndian(8 + 2 + 12 * entries + 4, bytes: 4)
    if let orientation {
        tiff += bigEndian(0x0112, bytes: 2) + bigEndian(3, bytes: 2) + bigEndian(1, bytes: 4)
            + bigEndian(orientation, bytes: 2) + [0, 0]
    }
    tiff += bigEndian(0, bytes: 4) + text
    return tiff
}

/// An APP1 Exif segment, as cameras write it.
private func exifSegment(_ tiff: [UInt8]) -> [UInt8] {
    jpegSegment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
}

private func xmpSegment(text: String) -> [UInt8] {
    jpegSegment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        + Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/">\#(text)</x:xmpmeta>"#.utf8))
}

/// Right after the start-of-image marker, where cameras put their EXIF.
private func insertingSegments(into jpeg: [UInt8], _ segments: [[UInt8]]) -> [UInt8] {
    Array(jpeg.prefix(2)) + segments.flatMap { $0 } + jpeg.dropFirst(2)
}

private func pngChunk(_ name: String, _ data: [UInt8]) -> [UInt8] {
    let nameAndData = Array(name.utf8) + data
    return bigEndian(data.count, bytes: 4) + nameAndData + bigEndian(Int(crc32(nameAndData)), bytes: 4)
}

/// After the signature (8 bytes) and IHDR (25).
private func insertingChunk(_ chunk: [UInt8], into png: [UInt8]) -> [UInt8] {
    Array(png.prefix(33)) + chunk + png.dropFirst(33)
}

/// A PNG whose header claims `width` × `height` of 8-bit RGB, followed by a few bytes of image
/// data: enough for a decoder to read the header, and far too little for the picture.
private func handMadePNG(width: Int, height: Int) -> [UInt8] {
    let header = bigEndian(width, bytes: 4) + bigEndian(height, bytes: 4) + [8, 2, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", header)
        + pngChunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00]) + pngChunk("IEND", [])
}

/// The PNG's chunks after its signature: each one's name, and where it starts and ends (length,
/// name, data, CRC).
private func pngChunks(_ png: [UInt8]) -> [(name: String, chunk: Range<Int>)] {
    var chunks: [(name: String, chunk: Range<Int>)] = []
    var index = 8
    while index + 12 <= png.count {
        let length = png[index..<(index + 4)].reduce(0) { $0 << 8 | Int($1) }
        chunks.append((String(decoding: png[(index + 4)..<(index + 8)], as: UTF8.self), index..<(index + 12 + length)))
        index += 12 + length
    }
    return chunks
}

/// One byte in the middle of the first IDAT's data inverted, and its CRC left as it was.
private func changingAByteOfIDAT(in png: [UInt8]) -> [UInt8] {
    let idat = pngChunks(png).first { $0.name == "IDAT" }!.chunk
    var damaged = png
    damaged[(idat.lowerBound + 8 + idat.upperBound - 4) / 2] ^= 0xFF
    return damaged
}

/// The first IDAT's data replaced by `data`, with a CRC that matches it.
private func replacingIDAT(in png: [UInt8], with data: [UInt8]) -> [UInt8] {
    let idat = pngChunks(png).first { $0.name == "IDAT" }!.chunk
    return Array(png[..<idat.lowerBound]) + pngChunk("IDAT", data) + png[idat.upperBound...]
}

/// The CRC-32 PNG's chunks end with (ISO 3309, reflected, polynomial 0xEDB88320).
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// Bytes in the middle of the data after the first scan's header inverted: Huffman codes
/// that no longer decode, or decode to more or less than the picture.
private func flippingEntropyCodedBytes(of jpeg: [UInt8]) -> [UInt8] {
    let dataStart = jpegSegments(jpeg).last!.body.endIndex
    let middle = (dataStart + jpeg.count - 2) / 2
    var damaged = jpeg
    for index in middle..<(middle + 32) { damaged[index] ^= 0xFF }
    return damaged
}

private func littleEndian(_ value: Int, bytes: Int) -> [UInt8] {
    (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

/// A four-letter name, the data's size (little-endian), the data padded to an even length.
private func riffChunk(_ name: String, _ data: [UInt8]) -> [UInt8] {
    Array(name.utf8) + littleEndian(data.count, bytes: 4) + data + (data.count % 2 == 1 ? [0] : [])
}

private func webpFile(_ chunks: [[UInt8]]) -> [UInt8] {
    let body = Array("WEBP".utf8) + chunks.flatMap { $0 }
    return Array("RIFF".utf8) + littleEndian(body.count, bytes: 4) + body
}

/// The extended format's header: flags (0x08 EXIF, 0x02 animation), 3 reserved bytes, then the
/// canvas's width and height less one, 3 bytes each.
private func vp8xChunk(flags: UInt8, width: Int, height: Int) -> [UInt8] {
    riffChunk("VP8X", [flags, 0, 0, 0] + littleEndian(width - 1, bytes: 3) + littleEndian(height - 1, bytes: 3))
}

/// The `VP8 ` chunk of a lossy WebP in the simple format, which is all there is after "WEBP".
private func imageChunk(of webp: [UInt8]) -> [UInt8] {
    Array(webp[12...])
}

/// A lossy WebP in the extended format, with a `name` chunk after the image, as EXIF and XMP go.
/// The canvas size must be the frame's, from its header: a 3-byte tag, 3 bytes of start code,
/// then the width and height in 14 bits each.
private func addingChunk(_ name: String, _ data: [UInt8], to webp: [UInt8]) -> [UInt8] {
    let frame = imageChunk(of: webp)[8...]
    let width = (Int(frame[frame.startIndex + 6]) | Int(frame[frame.startIndex + 7]) << 8) & 0x3FFF
    let height = (Int(frame[frame.startIndex + 8]) | Int(frame[frame.startIndex + 9]) << 8) & 0x3FFF
    return webpFile([vp8xChunk(flags: 0x08, width: width, height: height), imageChunk(of: webp), riffChunk(name, data)])
}

/// `picture_make_squares` with `limits` and no header check: its failure, or nil.
private func makeSquares(_ bytes: [UInt8], _ format: PictureFormat, _ limits: picture_limits) -> String? {
    var large = picture_bytes()
    var small = picture_bytes()
    var failure = picture_failure()
    let status = withUnsafePointer(to: limits) { limits in
        picture_make_squares(bytes, bytes.count, format.codecFormat, limits, 256, 64, &large, &small, &failure)
    }
    picture_free(large.bytes)
    picture_free(small.bytes)
    return status == 0 ? nil : failure.text
}

// MARK: Reading what came out

private struct Frame: Equatable {
    let width: Int
    let height: Int
    let components: Int
}

/// The segments of a JPEG up to its first scan, each marker with its body.
private func jpegSegments(_ jpeg: [UInt8]) -> [(marker: UInt8, body: ArraySlice<UInt8>)] {
    var segments: [(marker: UInt8, body: ArraySlice<UInt8>)] = []
    var index = 2
    while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
        let marker = jpeg[index + 1]
        let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
        segments.append((marker, jpeg[(index + 4)..<min(index + 2 + length, jpeg.count)]))
        if marker == 0xDA { break }
        index += 2 + length
    }
    return segments
}

/// From the frame header (SOF0 to SOF2): precision, height, width, then the count of components.
private func frame(of jpeg: [UInt8]) -> Frame? {
    guard let body = jpegSegments(jpeg).first(where: { (0xC0...0xC2).contains($0.marker) }).map({ Array($0.body) }),
        body.count >= 6
    else { return nil }
    return Frame(width: Int(body[3]) << 8 | Int(body[4]), height: Int(body[1]) << 8 | Int(body[2]), components: Int(body[5]))
}

private func pixel(of jpeg: [UInt8], x: Int, y: Int) -> [UInt8] {
    var rgb: [UInt8] = [0, 0, 0]
    precondition(test_picture_pixel(jpeg, jpeg.count, Int32(x), Int32(y), &rgb) == 0, "not a JPEG libjpeg can read")
    return rgb
}

/// Within what JPEG's compression moves a flat colour.
private func isClose(_ colour: [UInt8], _ expected: [UInt8]) -> Bool {
    zip(colour, expected).allSatisfy { abs(Int($0) - Int($1)) <= 40 }
}

private func containsText(_ bytes: [UInt8], _ text: String) -> Bool {
    let needle = Array(text.utf8)
    return bytes.indices.contains { bytes[$0...].starts(with: needle) }
}

private extension PictureProblem {
    var isUnreadable: Bool {
        if case .unreadable = self { true } else { false }
    }
}
