import NIOCore
import WishlistCore

/// An uploaded picture (a `MultipartForm.Part`'s body, a slice of the request's buffer) goes to
/// the picture codec as it lies: the processor's queue holds no copy of it.
extension ByteBuffer: PictureBytes {
    package func withUnsafePictureBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeReadableBytes(body)
    }
}
