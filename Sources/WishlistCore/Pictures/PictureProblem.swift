/// Why an uploaded picture or a fetched book cover was refused, each with the sentence shown beside
/// the upload form's field. All but `busy` are the person's to fix (a 422); `busy` passes in a moment (a 503).
package enum PictureProblem: Error, Equatable, Sendable {
    case empty
    /// Over `PictureProcessor.maximumBytes`.
    case overSizeLimit
    /// Not a JPEG, PNG or WebP by its first bytes.
    case notAPicture
    /// The browser declared one type and the bytes are another.
    case declaredTypeDisagrees(actual: PictureFormat)
    /// Over `PictureProcessor.maximumPixels`, from the header: a "decompression bomb" is refused here.
    case overPixelLimit(width: Int, height: Int)
    /// A side over `PictureProcessor.maximumSide`, or none at all.
    case sideOutOfRange(width: Int, height: Int)
    /// A cover whose longer side is over `PictureProcessor.coverMaximumAspectRatio` times its shorter.
    case shapeOutOfRange(width: Int, height: Int)
    /// Laid out so that its decoder holds the whole picture (`DecodingFootprint`), and too big for that.
    case tooBigForItsLayout(layout: String, width: Int, height: Int, allowedMegapixelTenths: Int)
    /// Its decoder could not read it; `reason` is the library's own words, for the log only.
    case unreadable(reason: String)
    /// As many pictures as the processor takes are being processed or waiting.
    case busy

    package var message: String {
        switch self {
        case .empty:
            "That file is empty."
        case .overSizeLimit:
            "That picture is over 8 MB."
        case .notAPicture:
            "That file is not a JPEG, PNG or WebP picture."
        case .declaredTypeDisagrees(let actual):
            "That file’s type does not match its contents (it is a \(actual.name) picture)."
        case .overPixelLimit(let width, let height):
            "That picture is over 40 megapixels (it is \(Self.size(width, height)))."
        case .sideOutOfRange(let width, let height):
            "That picture’s sides must be 1 to 20,000 pixels long (it is \(Self.size(width, height)))."
        case .shapeOutOfRange(let width, let height):
            "That picture is too long and thin: one side may be at most 4 times the other "
                + "(it is \(Self.size(width, height)))."
        case .tooBigForItsLayout(let layout, let width, let height, let tenths):
            "That picture, \(layout) of \(Self.size(width, height)), takes too much memory to read; "
                + "a copy of at most \(tenths / 10).\(tenths % 10) megapixels will do."
        case .unreadable:
            "That picture could not be read; it may be damaged or cut short."
        case .busy:
            "Too many pictures are being processed just now; try again in a moment."
        }
    }

    /// "12,000 × 9,000"
    private static func size(_ width: Int, _ height: Int) -> String {
        "\(grouped(width)) × \(grouped(height))"
    }

    /// Thousands separated by commas, as the site's English pages write them (no locale, so no ICU).
    private static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return number < 0 ? "-" + text : text
    }
}
