import CDeflate
import CZlib
import Foundation
import NIOCore

/// gzip (RFC 1952) in one call over a whole body: pages and static files are small and already in
/// memory, so there is nothing to stream. libdeflate compresses (it takes about two thirds of
/// zlib's time on a page, for the same bytes); zlib deflates the one part pages share, which
/// needs a stream that ends on a flush rather than a final block, and unpacks for tests.
enum Gzip {
    /// libdeflate's level for pages, compressed on every response. At level 1 a list page takes
    /// about 60 µs and comes out as small as zlib's level 2 made it in 90 (Benchmarks/history.md,
    /// "twenty-first session"); the higher levels cost half as much again for 2-5% fewer bytes.
    static let pageLevel: Int32 = 1
    /// The level for static files, compressed once when the server starts: libdeflate's best.
    static let staticLevel: Int32 = 12

    /// `bytes` gzipped, or nil if libdeflate cannot have a compressor (short of memory).
    static func compress(_ bytes: ByteBuffer, level: Int32) -> ByteBuffer? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        return bytes.withUnsafeReadableBytes { input -> ByteBuffer? in
            let bound = libdeflate_gzip_compress_bound(compressor, input.count)
            var output = ByteBufferAllocator().buffer(capacity: bound)
            let written = output.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { out in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, out.baseAddress, out.count)
            }
            return written > 0 ? output : nil
        }
    }

    /// Bytes that many bodies carry (every page's inline stylesheet), deflated once. The stream
    /// ends on a full flush and needs nothing before it, so it can stand between the blocks of
    /// another deflate stream that was itself flushed just before it (RFC 1951, 3.2.3: a block
    /// refers back only to what its decoder has already written, and after a full flush zlib's
    /// compressor refers to nothing before the flush).
    struct SharedPart: Sendable {
        let bytes: [UInt8]
        let deflated: [UInt8]
        /// The bytes' CRC-32, combined into each body's without reading them again.
        let crc: UInt32

        init?(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return nil }
            var stream = z_stream()
            guard wishlist_deflate_init_raw(&stream, Z_BEST_COMPRESSION) == Z_OK else { return nil }
            defer { deflateEnd(&stream) }
            var output = ByteBufferAllocator().buffer(capacity: bytes.count)
            let done = bytes.withUnsafeBytes { Gzip.deflateRaw($0, flush: Z_FULL_FLUSH, &stream, into: &output) }
            guard done else { return nil }
            self.bytes = bytes
            self.deflated = Array(output.readableBytesView)
            self.crc = bytes.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
        }

        /// Where the part starts in `body`, if it starts within its first `limit` bytes.
        func offset(in body: UnsafeRawBufferPointer, within limit: Int) -> Int? {
            guard let base = body.baseAddress, body.count >= bytes.count else { return nil }
            let last = min(limit, body.count - bytes.count)
            var from = 0
            while from <= last, let found = body[from...last].firstIndex(of: bytes[0]) {
                if bytes.withUnsafeBytes({ memcmp(base + found, $0.baseAddress!, bytes.count) }) == 0 { return found }
                from = found + 1
            }
            return nil
        }
    }

    /// How far into a body the shared part is looked for: a page's stylesheet comes after a few
    /// hundred bytes of `<head>`, and what stands before it goes out uncompressed.
    static let sharedPartSearch = 4096

    /// `bytes` gzipped, like ``compress(_:level:)``, but where they hold `part` its bytes are
    /// not compressed again: what stands before it goes in a stored block, then its deflated
    /// bytes, made once, then the rest compressed by libdeflate as a stream of its own, which
    /// ends the body. For a page, the stylesheet's 35 KB are then not compressed on every response.
    static func compress(_ bytes: ByteBuffer, level: Int32, reusing part: SharedPart?) -> ByteBuffer? {
        bytes.withUnsafeReadableBytes { body -> ByteBuffer? in
            guard let part, let start = part.offset(in: body, within: sharedPartSearch) else { return compress(bytes, level: level) }
            guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
            defer { libdeflate_free_compressor(compressor) }
            let before = UnsafeRawBufferPointer(rebasing: body[..<start])
            let after = UnsafeRawBufferPointer(rebasing: body[(start + part.bytes.count)...])
            let bound = libdeflate_deflate_compress_bound(compressor, after.count)
            var output = ByteBufferAllocator().buffer(capacity: 10 + 5 + before.count + part.deflated.count + bound + 8)
            // RFC 1952's member header: deflate, no flags, no time, no extra flags, Unix.
            output.writeBytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
            writeStoredBlock(before, into: &output)
            output.writeBytes(part.deflated)
            let written = output.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { out in
                libdeflate_deflate_compress(compressor, after.baseAddress, after.count, out.baseAddress, out.count)
            }
            guard written > 0 else { return nil }
            var crc = UInt32(libdeflate_crc32(0, before.baseAddress, before.count))
            crc = UInt32(truncatingIfNeeded: crc32_combine(uLong(crc), uLong(part.crc), off_t(part.bytes.count)))
            crc = UInt32(libdeflate_crc32(crc, after.baseAddress, after.count))
            output.writeInteger(crc, endianness: .little)
            output.writeInteger(UInt32(truncatingIfNeeded: body.count), endianness: .little)
            return output
        }
    }

    /// `bytes` as a stored block that is not the last (RFC 1951, 3.2.4), written where a block
    /// starts on a byte: a header byte (BFINAL 0, BTYPE 00, padding), LEN and its complement.
    private static func writeStoredBlock(_ bytes: UnsafeRawBufferPointer, into output: inout ByteBuffer) {
        guard !bytes.isEmpty else { return }
        precondition(bytes.count <= Int(UInt16.max), "a stored block holds at most 65,535 bytes")
        output.writeInteger(UInt8(0))
        output.writeInteger(UInt16(bytes.count), endianness: .little)
        output.writeInteger(~UInt16(bytes.count), endianness: .little)
        output.writeBytes(bytes)
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
