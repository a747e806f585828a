/// Bytes the picture codec reads where they lie, without copying them first.
///
/// An uploaded picture is a slice of its request's body (WishlistWeb makes NIO's `ByteBuffer`
/// conform): a copy would hold a second 8 MB for each upload that waits its turn in the
/// processor's queue (issue 34). A fetched cover is an array.
package protocol PictureBytes: Sendable {
    /// Calls `body` with the bytes; the pointer is valid only while it runs.
    func withUnsafePictureBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
}

extension Array: PictureBytes where Element == UInt8 {
    package func withUnsafePictureBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(body)
    }
}
