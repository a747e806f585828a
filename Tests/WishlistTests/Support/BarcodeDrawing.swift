import Foundation
import CPictureCodec
import CTestPictures
@testable import WishlistCore

/// Barcodes the tests draw themselves, as a printer would: EAN-13's bars (GS1's L, G and R codes,
/// the first digit in the left half's pattern of L and G) on white paper, at any module width and
/// angle, then blurred or noisy like a phone's photo, and encoded by `CPictureCodec`'s test encoder.
/// Nothing binary is committed, and the decoder under test (zbar) is not the drawer.
struct GreyCanvas {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    /// A sheet of paper: light grey, as white paper photographs.
    init(width: Int, height: Int, paper: UInt8 = 235) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: paper, count: width * height)
    }

    /// An EAN-13 of `digits` centred at (`x`, `y`), `moduleWidth` pixels a module, its bars
    /// `barHeight` high (by default 70% of its width, as printed), turned `degrees` clockwise, each
    /// pixel the mean of four samples so that its edges are soft like a lens's.
    mutating func drawEAN13(
        _ digits: String, x centreX: Double, y centreY: Double, moduleWidth: Double, barHeight: Double? = nil, degrees: Double = 0, ink: UInt8 = 25
    ) {
        let modules = EAN13.modules(digits)
        let barcodeWidth = Double(modules.count) * moduleWidth
        let height = barHeight ?? barcodeWidth * 0.7
        let radians = degrees * .pi / 180
        let (cosine, sine) = (cos(radians), sin(radians))
        let reach = (barcodeWidth + height) / 2 + 2
        for y in max(0, Int(centreY - reach))..<min(self.height, Int(centreY + reach) + 1) {
            for x in max(0, Int(centreX - reach))..<min(width, Int(centreX + reach) + 1) {
                var dark = 0
                for (offsetX, offsetY) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                    let dx = Double(x) + offsetX - centreX
                    let dy = Double(y) + offsetY - centreY
                    // Turned back into the barcode's own frame: u along it, v across.
                    let u = dx * cosine + dy * sine + barcodeWidth / 2
                    let v = -dx * sine + dy * cosine
                    if abs(v) < height / 2, u >= 0, u < barcodeWidth, modules[Int(u / moduleWidth)] { dark += 1 }
                }
                guard dark > 0 else { continue }
                let paper = Int(pixels[y * width + x])
                pixels[y * width + x] = UInt8((paper * (4 - dark) + Int(ink) * dark) / 4)
            }
        }
    }

    /// `passes` of a 3 × 3 box blur: about a pixel and a half of defocus after three.
    mutating func blur(passes: Int) {
        for _ in 0..<passes {
            var blurred = pixels
            for y in 0..<height {
                for x in 0..<width {
                    var sum = 0
                    var count = 0
                    for dy in -1...1 where (0..<height).contains(y + dy) {
                        for dx in -1...1 where (0..<width).contains(x + dx) {
                            sum += Int(pixels[(y + dy) * width + x + dx])
                            count += 1
                        }
                    }
                    blurred[y * width + x] = UInt8(sum / count)
                }
            }
            pixels = blurred
        }
    }

    /// A sensor's noise: each pixel moved by up to `amplitude` either way, from a seeded generator
    /// so that a failure repeats.
    mutating func addNoise(amplitude: Int, seed: UInt64 = 52) {
        var state = seed
        for index in pixels.indices {
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            mixed ^= mixed >> 31
            let shift = Int(mixed % UInt64(2 * amplitude + 1)) - amplitude
            pixels[index] = UInt8(max(0, min(255, Int(pixels[index]) + shift)))
        }
    }

    /// The picture as a file of `format`, in grey (JPEG, PNG) or its three channels (WebP).
    func encoded(_ format: PictureFormat) -> [UInt8] {
        var encoded = picture_bytes()
        let colours = format == .webp ? TEST_PICTURE_RGB : TEST_PICTURE_GREY
        let status = pixels.withUnsafeBufferPointer { grey in
            var recipe = test_picture_recipe(
                format: format.codecFormat, width: Int32(width), height: Int32(height), stripes: nil, stripe_count: 1, horizontal: 0,
                colours: colours, with_alpha: 0, whole_frame_layout: 0)
            return test_picture_encode_grey(&recipe, grey.baseAddress, &encoded)
        }
        precondition(status == 0, "could not encode a test picture")
        defer { picture_free(encoded.bytes) }
        return Array(UnsafeRawBufferPointer(start: encoded.bytes, count: encoded.length))
    }
}

enum EAN13 {
    /// The 95 modules of an EAN-13 (true is a bar): start guard, six digits in L or G codes as the
    /// first digit says, centre guard, six digits in R codes, end guard.
    static func modules(_ digits: String) -> [Bool] {
        let values = digits.map { Int(String($0))! }
        precondition(values.count == 13, "an EAN-13 has 13 digits")
        let parity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"][values[0]]
        var bits = "101"
        for (index, choice) in zip(1...6, parity) {
            let l = lCodes[values[index]]
            bits += choice == "L" ? l : String(String(l.map { $0 == "1" ? "0" : "1" }).reversed())
        }
        bits += "01010"
        for index in 7...12 {
            bits += String(lCodes[values[index]].map { $0 == "1" ? "0" : "1" })
        }
        bits += "101"
        return bits.map { $0 == "1" }
    }

    private static let lCodes = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
}

/// A JPEG with an APP1 EXIF segment that holds only an Orientation, right after its start, where
/// a camera writes it.
func withEXIFOrientation(_ orientation: Int, jpeg: [UInt8]) -> [UInt8] {
    let bigEndian = { (value: Int, count: Int) in (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    let tiff = Array("MM".utf8) + [0x00, 0x2A] + bigEndian(8, 4) + bigEndian(1, 2)
        + bigEndian(0x0112, 2) + bigEndian(3, 2) + bigEndian(1, 4) + bigEndian(orientation, 2) + [0, 0] + bigEndian(0, 4)
    let body = Array("Exif".utf8) + [0, 0] + tiff
    return Array(jpeg.prefix(2)) + [0xFF, 0xE1] + bigEndian(body.count + 2, 2) + body + jpeg.dropFirst(2)
}
