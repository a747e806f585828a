import CZlib
import NIOCore

/// gzip (RFC 1952) through the system's zlib, in one call over a whole body: pages and static
/// files are small and already in memory, so there is nothing to stream.
enum Gzip {
    /// The level for pages, compressed on every response: about 0.5 ms for the list page; levels 6
    /// to 9 take longer for 1-2% fewer bytes (Benchmarks/README.md, "Bytes over the wire").
    static let pageLevel: Int32 = 5
    /// The level for static files, compressed once when the server starts.
    static let staticLevel: Int32 = 9

    /// `bytes` gzipped, or nil if zlib fails (it does not for input in memory, short of memory).
    static func compress(_ bytes: ByteBuffer, level: Int32) -> ByteBuffer? {
        var stream = z_stream()
        guard wishlist_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.readableBytes)))
        var output = ByteBufferAllocator().buffer(capacity: bound)
        var finished = false
        _ = bytes.withUnsafeReadableBytes { input in
            output.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                finished = deflate(&stream, Z_FINISH) == Z_STREAM_END
                return finished ? out.count - Int(stream.avail_out) : 0
            }
        }
        return finished ? output : nil
    }

    /// A gzip body unpacked, or nil if it is not one; for tests, and at most `limit` bytes.
    static func decompress(_ bytes: ByteBuffer, limit: Int = 16 << 20) -> ByteBuffer? {
        var stream = z_stream()
        guard wishlist_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = ByteBufferAllocator().buffer(capacity: bytes.readableBytes * 4)
        var input = [UInt8](bytes.readableBytesView)
        let count = input.count
        var status = Z_OK
        return input.withUnsafeMutableBufferPointer { input -> ByteBuffer? in
            stream.next_in = input.baseAddress
            stream.avail_in = uInt(count)
            while status == Z_OK {
                guard output.readableBytes < limit else { return nil }
                output.writeWithUnsafeMutableBytes(minimumWritableBytes: 16 << 10) { out in
                    stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                    stream.avail_out = uInt(out.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
            }
            return status == Z_STREAM_END && stream.avail_in == 0 ? output : nil
        }
    }
}
