import Foundation
import Testing
@testable import WishlistCore

/// Issue 52: a book's ISBN read from a photo of its barcode, on the server, by zbar, behind the
/// picture rules of round 3. Every picture here is drawn by the test (`GreyCanvas`).
@Suite("Barcodes: a book's ISBN from a photo of its barcode")
struct BarcodeReadingTests {
    static let isbn = "9780593331309"
    static let reader = BookBarcodeReader(pictures: try! PictureProcessor(threads: 1, maxWaiting: 8))

    /// A barcode on a page `width` × `height`, at its centre.
    static func page(
        _ digits: String = isbn, width: Int = 900, height: Int = 700, moduleWidth: Double = 4, degrees: Double = 0, truncated: Bool = false
    ) -> GreyCanvas {
        var canvas = GreyCanvas(width: width, height: height)
        // A truncated barcode, as many books print, has bars a quarter of its width high.
        let barHeight = truncated ? moduleWidth * 95 * 0.25 : nil
        canvas.drawEAN13(digits, x: Double(width) / 2, y: Double(height) / 2, moduleWidth: moduleWidth, barHeight: barHeight, degrees: degrees)
        return canvas
    }

    static func read(_ bytes: [UInt8], declaredType: String? = nil, reader: BookBarcodeReader = reader) async -> Result<String, ScanProblem> {
        do throws(ScanProblem) {
            return .success(try await reader.isbn(inPhoto: bytes, declaredType: declaredType).isbn13)
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [2.5, 3, 5, 8])
    func aBarcodeIsReadAtEachModuleWidth(moduleWidth: Double) async {
        let width = Int(moduleWidth * 95) + 200
        let photo = Self.page(width: width, height: Int(Double(width) * 0.8), moduleWidth: moduleWidth).encoded(.png)
        #expect(await Self.read(photo) == .success(Self.isbn))
    }

    /// Quarter turns and angles off square are read by zbar's rows or columns (each half of the
    /// barcode may come from another row); a truncated barcode at 45° or 135°, whose halves no row
    /// or column crosses, by the turned look.
    @Test(arguments: [(90.0, false), (180, false), (270, false), (7, false), (-12, false), (30, false), (45, false), (45, true), (135, true)])
    func aTurnedBarcodeIsRead(degrees: Double, truncated: Bool) async {
        let photo = Self.page(width: 900, height: 900, degrees: degrees, truncated: truncated).encoded(.png)
        #expect(await Self.read(photo) == .success(Self.isbn))
    }

    @Test func aBlurredBarcodeIsRead() async {
        var canvas = Self.page(moduleWidth: 5)
        canvas.blur(passes: 3)
        #expect(await Self.read(canvas.encoded(.jpeg)) == .success(Self.isbn))
    }

    /// Noise on a slightly soft photo defeats zbar at full size; the halved look averages it away.
    @Test func aNoisyBarcodeIsRead() async {
        var canvas = Self.page(moduleWidth: 5)
        canvas.blur(passes: 1)
        canvas.addNoise(amplitude: 40)
        #expect(await Self.read(canvas.encoded(.png)) == .success(Self.isbn))
    }

    @Test(arguments: PictureFormat.allCases)
    func eachFormatIsRead(format: PictureFormat) async {
        #expect(await Self.read(Self.page().encoded(format)) == .success(Self.isbn))
    }

    /// A phone's photo: 4,000 × 3,000 stored sideways with EXIF orientation 6, the barcode a
    /// third of its width, read at about three megapixels.
    @Test func aPhotoSizedJPEGTurnedByItsEXIFIsRead() async {
        var canvas = GreyCanvas(width: 4000, height: 3000)
        canvas.drawEAN13(Self.isbn, x: 1700, y: 1400, moduleWidth: 14, degrees: 93)
        let photo = withEXIFOrientation(6, jpeg: canvas.encoded(.jpeg))
        #expect(photo.count < PictureProcessor.maximumBytes)
        #expect(await Self.read(photo, declaredType: "image/jpeg") == .success(Self.isbn))
    }

    /// The photo is read upright: stored 400 × 300 with orientation 6 (turn a quarter clockwise to
    /// show), it comes out 300 wide and 400 high, the dark corner stored top left at the top right.
    @Test func aPhotoIsReadUprightByItsEXIFOrientation() async throws {
        var canvas = GreyCanvas(width: 400, height: 300)
        for y in 0..<60 { for x in 0..<60 { canvas.pixels[y * 400 + x] = 0 } }
        let photo = withEXIFOrientation(6, jpeg: canvas.encoded(.jpeg))
        let seen = try await Self.reader.pictures.withGrey(bytes: photo, declaredType: nil) { grey in
            (grey.width, grey.height, grey.pixels[20 * grey.width + grey.width - 20], grey.pixels[20 * grey.width + 20])
        }
        #expect(seen.0 == 300 && seen.1 == 400)
        #expect(seen.2 < 60, "the top right is the stored top left, dark")
        #expect(seen.3 > 200, "the top left is paper")
    }

    /// 4006381333931 is a real product's EAN-13 (a pen's): a barcode, but no book's.
    @Test func anotherProductsBarcodeIsNamedNotTakenForABook() async {
        let result = await Self.read(Self.page("4006381333931").encoded(.png))
        #expect(result == .failure(.notABook(ScannedBarcode(kind: .ean13, digits: "4006381333931"))))
        if case .failure(let problem) = result {
            #expect(problem.message.hasPrefix("That barcode is an EAN-13 of another product (4006381333931), not a book’s ISBN"))
        }
    }

    /// Drawn with its last digit wrong, the barcode is no barcode zbar reads: nothing is found.
    @Test func aWrongCheckDigitReadsAsNoBarcode() async {
        #expect(await Self.read(Self.page("9780593331308").encoded(.png)) == .failure(.noBarcode))
    }

    @Test func aPictureWithoutABarcodeSaysSo() async {
        var canvas = GreyCanvas(width: 800, height: 600)
        canvas.addNoise(amplitude: 30)
        let result = await Self.read(canvas.encoded(.jpeg))
        #expect(result == .failure(.noBarcode))
        if case .failure(let problem) = result { #expect(problem.message.hasPrefix("No barcode could be read in that photo.")) }
    }

    /// Round 3's hostile pictures are refused as a profile picture is, before any barcode is looked for.
    @Test func hostilePicturesAreRefusedWithTheirSentence() async {
        #expect(await Self.read(PictureSamples.pngClaiming(width: 50_000, height: 50_000)) == .failure(.picture(.overPixelLimit(width: 50_000, height: 50_000))))
        let whole = Self.page().encoded(.png)
        guard case .failure(.picture(let problem)) = await Self.read(Array(whole.prefix(whole.count / 2))), case .unreadable = problem else {
            Issue.record("a picture cut short is unreadable")
            return
        }
        #expect(await Self.read(whole, declaredType: "image/jpeg") == .failure(.picture(.declaredTypeDisagrees(actual: .png))))
        #expect(await Self.read(Array("GIF89a\u{1}\0\u{1}\0".utf8)) == .failure(.picture(.notAPicture)))
        #expect(await Self.read([]) == .failure(.picture(.empty)))
        #expect(await Self.read([UInt8](repeating: 0xFF, count: PictureProcessor.maximumBytes + 1)) == .failure(.picture(.overSizeLimit)))
    }

    /// Past its time limit the reader tries no further look: a truncated barcode at 45°, which
    /// only the turned look reads, is then not found, and the sentence says why.
    @Test func theTimeLimitStopsFurtherLooks() async {
        let limited = BookBarcodeReader(pictures: Self.reader.pictures, timeLimit: .zero)
        let turned = Self.page(width: 900, height: 900, degrees: 45, truncated: true).encoded(.png)
        #expect(await Self.read(turned, reader: limited) == .failure(.tookTooLong))
        #expect(await Self.read(Self.page().encoded(.png), reader: limited) == .success(Self.isbn), "the first look is always made")
    }

    @Test func onlyABooklandEAN13WithItsCheckDigitIsAnISBN() {
        #expect(ISBN(barcode: "9780593331309")?.isbn13 == "9780593331309")
        #expect(ISBN(barcode: "9798881042578")?.isbn13 == "9798881042578")
        #expect(ISBN(barcode: "9780593331308") == nil, "a wrong check digit")
        #expect(ISBN(barcode: "4006381333931") == nil, "another product")
        #expect(ISBN(barcode: "0593331303") == nil, "an ISBN-10 is no barcode's")
        #expect(ISBN(barcode: "978059333130") == nil)
    }
}
