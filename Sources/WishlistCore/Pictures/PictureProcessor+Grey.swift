import CPictureCodec

extension PictureProcessor {
    /// A photo is read for its barcode at about this many pixels (by whole boxes, and libjpeg's
    /// and libwebp's own scaling, so it can come out up to four times more where the picture is
    /// just under twice the size): a phone's 12 megapixel JPEG is read at 3, 1,512 × 2,016, one
    /// grey byte a pixel. A barcode across a third of that photo still has over 5 pixels a bar module,
    /// and zbar reads down to 2.
    package static let greyPixels = 3_000_000

    /// Checks an upload as a profile picture is checked (size, format, declared type, then on the
    /// pool its header's pixels, sides and what its decoder would hold), decodes it as grey,
    /// upright by its EXIF orientation, and gives it to `read`, on the pool, one at a time.
    package func withGrey<Result: Sendable>(
        bytes: some PictureBytes, declaredType: String?, _ read: @escaping @Sendable (GreyPicture) throws -> Result
    ) async throws -> Result {
        let format = try bytes.withUnsafePictureBytes { try Self.check($0, declaredType: declaredType) }
        return try await run { try read(Self.grey(bytes, format: format)) }
    }

    // MARK: On the pool

    private static func grey(_ bytes: some PictureBytes, format: PictureFormat) throws -> GreyPicture {
        try bytes.withUnsafePictureBytes { buffer in
            let header = try checkedHeader(buffer, format: format)
            var grey = picture_grey()
            var failure = picture_failure()
            let status = withUnsafePointer(to: limits) { limits in
                picture_read_grey(
                    buffer.baseAddress, buffer.count, format.codecFormat, limits,
                    Int32(shorterSide(width: Int(header.width), height: Int(header.height))), &grey, &failure)
            }
            guard status == 0 else { throw PictureProblem.unreadable(reason: failure.text) }
            return GreyPicture(taking: grey)
        }
    }

    /// The shorter side at which the picture holds about `greyPixels`, or its own when smaller.
    static func shorterSide(width: Int, height: Int) -> Int {
        let (shorter, longer) = (min(width, height), max(width, height))
        guard shorter * longer > greyPixels else { return shorter }
        return max(1, Int((Double(greyPixels) * Double(shorter) / Double(longer)).squareRoot()))
    }
}
