import CPictureCodec

/// A photo as one grey byte a pixel, as `CPictureCodec` decoded it: what a barcode is read from.
/// It owns its pixels and frees them when released; it lives on the processor's pool, within the
/// work it was made for, and never crosses to another thread.
package final class GreyPicture {
    package let width: Int
    package let height: Int
    /// `width` × `height` bytes, row by row.
    package let pixels: UnsafeMutablePointer<UInt8>

    /// Takes over pixels that `CPictureCodec` allocated.
    init(taking grey: picture_grey) {
        width = Int(grey.width)
        height = Int(grey.height)
        pixels = grey.pixels
    }

    deinit {
        picture_free(pixels)
    }

    /// Half as wide and high, each pixel the mean of four; nil below 2 pixels a side.
    package func halved() -> GreyPicture? {
        made { source, halved in picture_grey_halved(source, halved) }
    }

    /// Turned `degrees` clockwise in a frame that holds all of it, the corners white.
    package func turned(degrees: Double) -> GreyPicture? {
        made { source, turned in picture_grey_turned(source, degrees, turned) }
    }

    private func made(_ make: (UnsafePointer<picture_grey>, UnsafeMutablePointer<picture_grey>) -> Int32) -> GreyPicture? {
        var source = picture_grey(pixels: pixels, width: Int32(width), height: Int32(height))
        var result = picture_grey()
        guard make(&source, &result) == 0 else { return nil }
        return GreyPicture(taking: result)
    }
}
