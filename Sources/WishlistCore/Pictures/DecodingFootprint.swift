import CPictureCodec
import WishlistLanguages

/// What a picture's decoder holds in memory at the picture's full size, whatever size it is
/// asked to decode at, as the decoder reads it from the header before a pixel is decoded.
///
/// Most pictures stream: libjpeg decodes a baseline JPEG already shrunk (to between an eighth
/// and the whole of its size) a few rows at a time, libwebp decodes a lossy WebP straight to its
/// cropped and shrunk square (or, for a cover, its whole picture shrunk), and libpng reads a PNG a row at a time, so the process grows by
/// 2.2 to 2.5 MB for a 40 megapixel one, as for a small one. Some layouts cannot stream, and their
/// decoders hold the whole picture: a progressive JPEG, or one whose first scan leaves a
/// component out, keeps every DCT coefficient (2 bytes a sample: 3 bytes a pixel with the usual
/// chroma subsampling, 6 without); an interlaced PNG is read whole (4 bytes a pixel); a lossless
/// WebP is decoded into 4 bytes a pixel, and the transparency of a lossy one into 1 to 5.
/// `CPictureCodec` counts these buffers as its libraries allocate them: at 16 MiB counted, the
/// process grew by 18.0 MB for a progressive JPEG, 17.4 for an interlaced PNG, 17.6 for a
/// lossless WebP (5.1 for a lossy one with transparency, whose plane its encoder kept to a palette).
struct DecodingFootprint {
    /// The kind of file that holds the whole picture, for the sentence that refuses it.
    let layout: String
    /// What the decoder holds for the whole picture; 0 when it streams.
    let heldBytes: Int

    init(_ header: picture_header) {
        layout = Self.name(of: header.layout)
        heldBytes = header.whole_frame_bytes
    }

    /// The largest picture of the same layout that `budget` holds, in tenths of a megapixel,
    /// rounded down: for the sentence that refuses this one.
    func allowedMegapixelTenths(within budget: Int, width: Int, height: Int) -> Int {
        let bytesPerPixel = Double(heldBytes) / (Double(width) * Double(height))
        return Int(Double(budget) / bytesPerPixel / 100_000)
    }

    /// English, the catalogs' key: the upload form words it in the reader's language.
    private static func name(of layout: picture_layout) -> String {
        switch layout {
        case PICTURE_PROGRESSIVE_JPEG: Translations.marked("a progressive JPEG")
        case PICTURE_MULTI_SCAN_JPEG: Translations.marked("a JPEG in several scans")
        case PICTURE_INTERLACED_PNG: Translations.marked("an interlaced PNG")
        case PICTURE_LOSSLESS_WEBP: Translations.marked("a lossless WebP")
        case PICTURE_WEBP_WITH_TRANSPARENCY: Translations.marked("a WebP with transparency")
        default: Translations.marked("a picture")
        }
    }
}
