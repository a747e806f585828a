import CZlib
import Foundation
import NIOCore

/// gzip (RFC 1952) through the system's zlib, in one call over a whole body: pages and static
/// files are small and already in memory, so there is nothing to stream.
enum Gzip {
    /// The level for pages, compressed on every response. Level 5 took about 0.7 ms of a cached
    /// list page's 1.7 ms; level 2 takes a third of that for about 15% more bytes, which leaves
    /// the pages far inside the bytes budget (Benchmarks/README.md, "Bytes over the wire").
    static let pageLevel: Int32 = 2
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

    /// Bytes that many bodies carry (every page's inline stylesheet), deflated once. The stream
    /// ends on a full flush and needs nothing before it, so it can stand between the blocks of
    /// another deflate stream that was itself flushed just before it (RFC 1951, 3.2.3: a block
    /// refers back only to what its decoder has already written, and after a full flush zlib's
    /// compressor refers to nothing before the flush).
    struct SharedPart: Sendable {
        let bytes: [UInt8]
        let deflated: [UInt8]

        init?(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return nil }
            var stream = z_stream()
            guard wishlist_deflate_init_raw(&stream, Gzip.staticLevel) == Z_OK else { return nil }
            defer { deflateEnd(&stream) }
            var output = ByteBufferAllocator().buffer(capacity: bytes.count)
            let done = bytes.withUnsafeBytes { Gzip.deflateRaw($0, flush: Z_FULL_FLUSH, &stream, into: &output) }
            guard done else { return nil }
            self.bytes = bytes
            self.deflated = Array(output.readableBytesView)
        }

        /// Where the part starts in `body`, if it is there.
        func offset(in body: UnsafeRawBufferPointer) -> Int? {
            guard let base = body.baseAddress, body.count >= bytes.count else { return nil }
            var from = 0
            while let found = body[from...].firstIndex(of: bytes[0]), found + bytes.count <= body.count {
                if bytes.withUnsafeBytes({ memcmp(base + found, $0.baseAddress!, bytes.count) }) == 0 { return found }
                from = found + 1
            }
            return nil
        }
    }

    /// `bytes` gzipped, like ``compress(_:level:)``, but where they hold `part` its bytes are
    /// not compressed again: its deflated bytes, made once, go between this body's before and
    /// after it. For a page, the stylesheet's 35 KB are then not compressed on every response.
    static func compress(_ bytes: ByteBuffer, level: Int32, reusing part: SharedPart?) -> ByteBuffer? {
        bytes.withUnsafeReadableBytes { body -> ByteBuffer? in
            guard let part, let start = part.offset(in: body) else { return compress(bytes, level: level) }
            var stream = z_stream()
            guard wishlist_deflate_init_raw(&stream, level) == Z_OK else { return nil }
            defer { deflateEnd(&stream) }
            var output = ByteBufferAllocator().buffer(capacity: body.count / 2 + part.deflated.count)
            // RFC 1952's member header: deflate, no flags, no time, no extra flags, Unix.
            output.writeBytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
            guard deflateRaw(UnsafeRawBufferPointer(rebasing: body[..<start]), flush: Z_FULL_FLUSH, &stream, into: &output) else { return nil }
            output.writeBytes(part.deflated)
            let after = UnsafeRawBufferPointer(rebasing: body[(start + part.bytes.count)...])
            guard deflateRaw(after, flush: Z_FINISH, &stream, into: &output) else { return nil }
            let crc = crc32(0, body.bindMemory(to: Bytef.self).baseAddress, uInt(body.count))
            output.writeInteger(UInt32(truncatingIfNeeded: crc), endianness: .little)
            output.writeInteger(UInt32(truncatingIfNeeded: body.count), endianness: .little)
            return output
        }
    }

    /// Deflates all of `input` into `output` and ends with `flush`; false if zlib did not.
    fileprivate static func deflateRaw(_ input: UnsafeRawBufferPointer, flush: Int32, _ stream: inout z_stream, into output: inout ByteBuffer) -> Bool {
        // deflateBound counts one final block; a flush adds an empty stored block of its own.
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 16
        var done = false
        output.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { out in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
            stream.avail_out = uInt(out.count)
            let status = deflate(&stream, flush)
            done = stream.avail_in == 0 && (flush == Z_FINISH ? status == Z_STREAM_END : status == Z_OK)
            return out.count - Int(stream.avail_out)
        }
        return done
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
