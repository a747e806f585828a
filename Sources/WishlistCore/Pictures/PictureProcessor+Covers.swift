import CPictureCodec

/// A book cover re-encoded by us: two JPEGs of fixed widths, the picture's shape kept.
package struct ProcessedCover: Sendable, Equatable {
    /// `PictureProcessor.coverLargeWidth` pixels wide.
    package let large: [UInt8]
    /// `PictureProcessor.coverSmallWidth` pixels wide.
    package let small: [UInt8]
    /// The large JPEG's height, so that a page can reserve the cover's box before it loads.
    package let largeHeight: Int
}

extension PictureProcessor {
    package static let coverLargeWidth = 384
    package static let coverSmallWidth = 128
    /// The longer side over the shorter: past it a "cover" is a banner or a strip, and at 384
    /// pixels wide a tall one would be a column of thousands of pixels.
    package static let coverMaximumAspectRatio = 4

    /// Covers come from other servers, not people: the format is sniffed from the bytes (no
    /// declared type), and the same checks run as for uploads (size, pixels, sides, decoding
    /// budget) before a pixel is decoded, then the shape.
    package func processCover(bytes: [UInt8]) async throws -> ProcessedCover {
        let format = try bytes.withUnsafeBytes { try Self.checkedFormat(of: $0) }
        return try await run { try Self.reencodeCover(bytes, format: format) }
    }

    // MARK: On the pool

    private static func reencodeCover(_ bytes: [UInt8], format: PictureFormat) throws -> ProcessedCover {
        try bytes.withUnsafeBytes { buffer in
            let header = try checkedHeader(buffer, format: format)
            try checkCoverShape(width: Int(header.width), height: Int(header.height))
            var largeHeight: Int32 = 0
            let (large, small) = try twoJPEGs { limits, large, small, failure in
                picture_make_fitted(
                    buffer.baseAddress, buffer.count, format.codecFormat, limits, Int32(coverLargeWidth),
                    Int32(coverSmallWidth), large, small, &largeHeight, failure)
            }
            return ProcessedCover(large: large, small: small, largeHeight: Int(largeHeight))
        }
    }

    /// Turning by EXIF orientation swaps the sides, so the ratio is checked either way round.
    private static func checkCoverShape(width: Int, height: Int) throws {
        guard max(width, height) <= coverMaximumAspectRatio * min(width, height) else {
            throw PictureProblem.shapeOutOfRange(width: width, height: height)
        }
    }
}
