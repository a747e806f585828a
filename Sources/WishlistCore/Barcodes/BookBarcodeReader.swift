/// Why a photo gave no ISBN, each with the sentence shown beside the photo field: all but
/// `picture(.busy)` are the person's to fix (a 422).
package enum ScanProblem: Error, Equatable, Sendable {
    /// The photo itself was refused, as a profile picture would be (`PictureProblem`).
    case picture(PictureProblem)
    /// No barcode zbar could read.
    case noBarcode
    /// A barcode, but another product's: not an EAN-13 starting 978 or 979.
    case notABook(ScannedBarcode)
    /// The reading stopped at `BookBarcodeReader.timeLimit` with nothing found yet.
    case tookTooLong

    package var message: String {
        switch self {
        case .picture(let problem):
            problem.message
        case .noBarcode:
            "No barcode could be read in that photo. Take it closer, straight on and in good light, "
                + "with the whole barcode in the picture; or type the ISBN printed above it."
        case .notABook(let barcode):
            "That barcode is \(barcode.kind.name) of another product (\(barcode.digits)), not a book’s ISBN, "
                + "which starts with 978 or 979. A book’s barcode is usually on its back cover."
        case .tookTooLong:
            "Reading that photo took too long. Try a closer photo of just the barcode, or type the ISBN printed above it."
        }
    }
}

/// Reads a book's ISBN from a photo of its barcode: the photo is checked and decoded as a profile
/// picture is (`PictureProcessor`, on a pool of its own), then zbar looks for a barcode in it as
/// read, at half the size (less noise), and turned by 45° (a barcode no row or column crosses
/// whole), stopping at the first that finds one. Only an EAN-13 starting 978 or 979 whose check
/// digit holds is an ISBN (`ISBN(barcode:)`).
package struct BookBarcodeReader: Sendable {
    /// Past this, no further way of looking is tried; one way takes a tenth of a second or so.
    package static let defaultTimeLimit: Duration = .seconds(5)

    let pictures: PictureProcessor
    let timeLimit: Duration

    /// `pictures` should be a processor of its own, so that a photo waits behind photos only.
    package init(pictures: PictureProcessor, timeLimit: Duration = defaultTimeLimit) {
        self.pictures = pictures
        self.timeLimit = timeLimit
    }

    /// The ISBN in the photo, or a `ScanProblem`.
    package func isbn(inPhoto bytes: some PictureBytes, declaredType: String?) async throws(ScanProblem) -> ISBN {
        let found: Result<ISBN, ScanProblem>
        do {
            let timeLimit = timeLimit
            found = try await pictures.withGrey(bytes: bytes, declaredType: declaredType) { Self.isbn(in: $0, timeLimit: timeLimit) }
        } catch let problem as PictureProblem {
            throw .picture(problem)
        } catch {
            // The pool stopped: the server is shutting down.
            throw .picture(.busy)
        }
        return try found.get()
    }

    // MARK: On the pool

    /// Each way of looking at the photo in turn, each made only when the one before found nothing.
    static func isbn(in photo: GreyPicture, timeLimit: Duration) -> Result<ISBN, ScanProblem> {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeLimit)
        var halved: GreyPicture?
        let looks: [() -> GreyPicture?] = [
            { photo },
            { halved = photo.halved(); return halved },
            // The halved one is turned when there is one: a quarter of the pixels, and less noise.
            { (halved ?? photo).turned(degrees: 45) },
        ]
        for (index, look) in looks.enumerated() {
            if index > 0, clock.now >= deadline { return .failure(.tookTooLong) }
            guard let picture = look() else { continue }
            let barcodes = BarcodeSymbols.read(picture)
            if let isbn = barcodes.lazy.filter({ $0.kind == .ean13 }).compactMap({ ISBN(barcode: $0.digits) }).first { return .success(isbn) }
            if let other = barcodes.first { return .failure(.notABook(other)) }
        }
        return .failure(.noBarcode)
    }
}
