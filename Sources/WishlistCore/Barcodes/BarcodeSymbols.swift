import CZBar
import WishlistLanguages

/// A barcode zbar read: its kind and its digits, check digit included (zbar has checked it).
package struct ScannedBarcode: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case ean13, ean8, upcA, upcE

        /// For sentences: Translations.marked("an EAN-13").
        package var name: String {
            switch self {
            case .ean13: Translations.marked("an EAN-13")
            case .ean8: Translations.marked("an EAN-8")
            case .upcA: Translations.marked("a UPC-A")
            case .upcE: Translations.marked("a UPC-E")
            }
        }
    }

    package let kind: Kind
    package let digits: String
}

/// zbar (Debian's `libzbar0`, through `CZBar`) over a grey picture, for the retail barcodes a
/// book or another product carries: EAN-13 (a book's, and most products'), EAN-8, UPC-A and
/// UPC-E, so that a product's code can be named rather than go unseen. QR codes and the other
/// symbologies are off: a book's back has none, and they cost most of zbar's time.
enum BarcodeSymbols {
    private static let kinds: [(symbology: zbar_symbol_type_t, kind: ScannedBarcode.Kind)] = [
        (ZBAR_EAN13, .ean13), (ZBAR_EAN8, .ean8), (ZBAR_UPCA, .upcA), (ZBAR_UPCE, .upcE),
    ]

    /// Every barcode zbar finds scanning each row and column of the picture.
    static func read(_ picture: GreyPicture) -> [ScannedBarcode] {
        guard let scanner = zbar_image_scanner_create() else { return [] }
        defer { zbar_image_scanner_destroy(scanner) }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for kind in kinds {
            zbar_image_scanner_set_config(scanner, kind.symbology, ZBAR_CFG_ENABLE, 1)
        }
        guard let image = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(image) }
        // Y800: one grey byte a pixel. With no cleanup handler zbar never frees the pixels,
        // which stay the picture's while it scans.
        zbar_image_set_format(image, zbar_fourcc_parse("Y800"))
        zbar_image_set_size(image, UInt32(picture.width), UInt32(picture.height))
        zbar_image_set_data(image, picture.pixels, UInt(picture.width * picture.height), nil)
        guard zbar_scan_image(scanner, image) > 0 else { return [] }
        var found: [ScannedBarcode] = []
        var symbol = zbar_image_first_symbol(image)
        while let current = symbol {
            let type = zbar_symbol_get_type(current)
            if let kind = kinds.first(where: { $0.symbology == type })?.kind, let data = zbar_symbol_get_data(current) {
                found.append(ScannedBarcode(kind: kind, digits: String(cString: data)))
            }
            symbol = zbar_symbol_next(current)
        }
        return found
    }
}
