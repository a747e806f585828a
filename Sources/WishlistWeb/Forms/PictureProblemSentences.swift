import WishlistCore
import WishlistLanguages

extension PictureProblem {
    /// The sentence beside a picture's upload field, in the reader's language (issue 53), its
    /// numbers in the language's digit groups.
    func sentence(in translations: Translations) -> String {
        let language = translations.language
        func size(_ width: Int, _ height: Int) -> String {
            "\(language.formatted(width)) × \(language.formatted(height))"
        }
        switch self {
        case .empty:
            return translations.text("That file is empty.")
        case .overSizeLimit:
            return translations.text("That picture is over 8 MB.")
        case .notAPicture:
            return translations.text("That file is not a JPEG, PNG or WebP picture.")
        case .declaredTypeDisagrees(let actual):
            return translations.text("That file’s type does not match its contents (it is a {format} picture).", values: ["format": actual.name])
        case .overPixelLimit(let width, let height):
            return translations.text("That picture is over 40 megapixels (it is {size}).", values: ["size": size(width, height)])
        case .sideOutOfRange(let width, let height):
            return translations.text(
                "That picture’s sides must be 1 to {maximum} pixels long (it is {size}).",
                values: ["maximum": language.formatted(20_000), "size": size(width, height)]
            )
        case .shapeOutOfRange(let width, let height):
            return translations.text(
                "That picture is too long and thin: one side may be at most 4 times the other (it is {size}).", values: ["size": size(width, height)]
            )
        case .tooBigForItsLayout(let layout, let width, let height, let tenths):
            return translations.text(
                "That picture, {layout} of {size}, takes too much memory to read; a copy of at most {megapixels} megapixels will do.",
                values: ["layout": translations.text(layout), "size": size(width, height), "megapixels": language.formatted(tenths / 10) + language.decimalSeparator + String(tenths % 10)]
            )
        case .unreadable:
            return translations.text("That picture could not be read; it may be damaged or cut short.")
        case .busy:
            return translations.text("Too many pictures are being processed just now; try again in a moment.")
        }
    }
}

extension ScanProblem {
    /// The sentence beside the barcode photo's field, in the reader's language.
    func sentence(in translations: Translations) -> String {
        switch self {
        case .picture(let problem):
            problem.sentence(in: translations)
        case .noBarcode:
            translations.text(
                "No barcode could be read in that photo. Take it closer, straight on and in good light, with the whole barcode in the picture; or type the ISBN printed above it."
            )
        case .notABook(let barcode):
            translations.text(
                "That barcode is {kind} of another product ({digits}), not a book’s ISBN, which starts with 978 or 979. A book’s barcode is usually on its back cover.",
                values: ["kind": translations.text(barcode.kind.name), "digits": barcode.digits]
            )
        case .tookTooLong:
            translations.text("Reading that photo took too long. Try a closer photo of just the barcode, or type the ISBN printed above it.")
        }
    }
}
