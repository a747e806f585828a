import CPictureCodec
import CTestPictures
import Testing
@testable import WishlistCore

/// Covers are made as the tests run, as the profile pictures' are (`picture` in
/// PictureUploadTests, drawn by `TestPictures.h`), and read back by their frame and pixels.
@Suite("Book covers: the whole picture at fixed widths")
struct CoverPictureTests {
    let processor: PictureProcessor

    init() throws {
        processor = try PictureProcessor()
    }

    // MARK: What comes out

    /// Smaller and larger than the large width, both come out exactly 384 and 128 wide. 1000 ×
    /// 1457 is 559.49 and 186.50 high at those widths, and 560 and 187 at the shape libjpeg
    /// decodes it at (500 × 729): the height is the picture's own shape, rounded.
    @Test(arguments: PictureFormat.allCases, [(30, 45), (1000, 1457)])
    func aPortraitCoverKeepsItsShapeAtBothWidths(format: PictureFormat, size: (width: Int, height: Int)) async throws {
        let bytes = picture(format, width: size.width, height: size.height, alpha: format == .png)
        let cover = try await processor.processCover(bytes: bytes)
        let rounded = { (width: Int) in (width * size.height + size.width / 2) / size.width }
        #expect(frameSize(cover.large) == [384, rounded(384)])
        #expect(frameSize(cover.small) == [128, rounded(128)])
        #expect(cover.largeHeight == rounded(384))
        let noMetadata = [cover.large, cover.small].allSatisfy { PictureSamples.jpegFrame($0)?.hasAPP1 == false }
        #expect(noMetadata, "no EXIF or XMP leaves the server")
    }

    /// Half-transparent green on white is a pale green, as a browser shows it on a white page.
    @Test func transparencyIsFlattenedOntoWhite() async throws {
        let cover = try await processor.processCover(bytes: picture(.png, width: 300, height: 450, alpha: true))
        #expect(isClose(colour(of: cover.large, x: 192, y: 288), [137, 227, 137]))
    }

    /// Red, green and blue thirds along the long side: a centre square would keep only the green
    /// one. Each third is found at its middle and beside the borders between them.
    @Test(arguments: PictureFormat.allCases, [false, true])
    func theWholePictureIsKept(format: PictureFormat, tall: Bool) async throws {
        let (width, height) = tall ? (300, 900) : (900, 300)
        let colours = [PictureUploadTests.red, PictureUploadTests.green, PictureUploadTests.blue]
        let bytes = picture(format, width: width, height: height, colours: colours, horizontal: tall)
        let cover = try await processor.processCover(bytes: bytes)
        #expect(cover.largeHeight == (tall ? 1152 : 128))
        let along = tall ? cover.largeHeight : 384
        let expected: [(fraction: Double, colour: [UInt8])] = [
            (0.05, colours[0]), (0.25, colours[0]), (0.42, colours[1]), (0.5, colours[1]),
            (0.58, colours[1]), (0.75, colours[2]), (0.95, colours[2]),
        ]
        for (fraction, colour) in expected {
            let position = Int(fraction * Double(along))
            let (x, y) = tall ? (192, position) : (position, 64)
            #expect(isClose(self.colour(of: cover.large, x: x, y: y), colour), "large at \(x), \(y)")
        }
        let smallAlong = tall ? 384 : 128
        for (fraction, colour) in expected where [0.05, 0.5, 0.95].contains(fraction) {
            let position = Int(fraction * Double(smallAlong))
            let (x, y) = tall ? (64, position) : (position, 21)
            #expect(isClose(self.colour(of: cover.small, x: x, y: y), colour), "small at \(x), \(y)")
        }
    }

    /// Stored 400 × 200 with red on the left, orientation 6 ("turn 90° clockwise to show"): shown
    /// 200 × 400, red on top.
    @Test func anEXIFTurnedCoverComesOutUprightWithItsSidesSwapped() async throws {
        let stored = picture(.jpeg, width: 400, height: 200, colours: [PictureUploadTests.red, PictureUploadTests.blue])
        let cover = try await processor.processCover(bytes: Self.turning(stored, orientation: 6))
        #expect(frameSize(cover.large) == [384, 768])
        #expect(frameSize(cover.small) == [128, 256])
        #expect(cover.largeHeight == 768)
        #expect(isClose(colour(of: cover.large, x: 192, y: 100), PictureUploadTests.red))
        #expect(isClose(colour(of: cover.large, x: 192, y: 668), PictureUploadTests.blue))
    }

    /// The same file as an upload is still cut square at its centre.
    @Test(arguments: PictureFormat.allCases)
    func aProfilePictureIsStillSquare(format: PictureFormat) async throws {
        let colours = [PictureUploadTests.red, PictureUploadTests.green, PictureUploadTests.blue]
        let bytes = picture(format, width: 300, height: 900, colours: colours, horizontal: true)
        let processed = try await processor.process(bytes: bytes, declaredType: nil)
        #expect(frameSize(processed.large) == [256, 256])
        #expect(frameSize(processed.small) == [64, 64])
        #expect(isClose(colour(of: processed.large, x: 128, y: 8), PictureUploadTests.green))
        #expect(isClose(colour(of: processed.large, x: 128, y: 247), PictureUploadTests.green))
    }

    // MARK: What is refused

    @Test func aWebPageServedAsACoverIsNotAPicture() async {
        let page = Array("<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>No such cover</body></html>".utf8)
        #expect(await problem(with: page) == .notAPicture)
    }

    @Test func aDecompressionBombIsRefusedByItsHeader() async {
        let bomb = PictureSamples.pngClaiming(width: 50_000, height: 50_000)
        #expect(await problem(with: bomb) == .overPixelLimit(width: 50_000, height: 50_000))
    }

    @Test func aShapeNoCoverHasIsRefused() async throws {
        #expect(await problem(with: picture(.jpeg, width: 600, height: 30)) == .shapeOutOfRange(width: 600, height: 30))
        #expect(await problem(with: picture(.png, width: 30, height: 121)) == .shapeOutOfRange(width: 30, height: 121))
        #expect(PictureProblem.shapeOutOfRange(width: 600, height: 30).message
            == "That picture is too long and thin: one side may be at most 4 times the other (it is 600 × 30).")
        let widest = try await processor.processCover(bytes: picture(.webp, width: 400, height: 100))
        #expect(widest.largeHeight == 96, "4 to 1 is still a cover")
    }

    /// Should a shape get past the check above, the codec still writes no JPEG taller than the
    /// longest side a picture may have (20,000 pixels), here 38,400.
    @Test func theCodecRefusesToWriteACoverTallerThanAnyPicture() {
        let bytes = picture(.png, width: 10, height: 1000)
        var large = picture_bytes()
        var small = picture_bytes()
        var largeHeight: Int32 = 0
        var failure = picture_failure()
        let limits = picture_limits(longest_side: 20_000, whole_frame_bytes: 16 << 20)
        let status = withUnsafePointer(to: limits) { limits in
            picture_make_fitted(bytes, bytes.count, PICTURE_PNG, limits, 384, 128, &large, &small, &largeHeight, &failure)
        }
        #expect(status == -1)
        #expect(large.bytes == nil && small.bytes == nil)
        #expect(!failure.text.isEmpty)
    }

    // MARK: Helpers

    private func problem(with bytes: [UInt8]) async -> PictureProblem? {
        do {
            _ = try await processor.processCover(bytes: bytes)
            Issue.record("accepted")
        } catch let problem as PictureProblem {
            return problem
        } catch {
            Issue.record("not a PictureProblem: \(error)")
        }
        return nil
    }

    /// Width and height, from the JPEG's frame header.
    private func frameSize(_ jpeg: [UInt8]) -> [Int]? {
        PictureSamples.jpegFrame(jpeg).map { [$0.width, $0.height] }
    }

    private func colour(of jpeg: [UInt8], x: Int, y: Int) -> [UInt8] {
        var rgb: [UInt8] = [0, 0, 0]
        precondition(test_picture_pixel(jpeg, jpeg.count, Int32(x), Int32(y), &rgb) == 0, "outside the picture, or not a JPEG")
        return rgb
    }

    /// Within what JPEG's compression moves a flat colour.
    private func isClose(_ colour: [UInt8], _ expected: [UInt8]) -> Bool {
        zip(colour, expected).allSatisfy { abs(Int($0) - Int($1)) <= 40 }
    }

    /// `jpeg` with an APP1 Exif segment after its start-of-image marker, where cameras put it: a
    /// big-endian TIFF header and a directory of one entry, Orientation (0x0112), one SHORT.
    private static func turning(_ jpeg: [UInt8], orientation: UInt8) -> [UInt8] {
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8] + [0, 1]
            + [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0] + [0, 0, 0, 0]
        let segment = Array("Exif".utf8) + [0, 0] + tiff
        let length = segment.count + 2
        return Array(jpeg.prefix(2)) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + segment + jpeg.dropFirst(2)
    }
}
