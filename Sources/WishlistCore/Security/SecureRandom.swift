/// Unpredictable bytes and tokens from the system's cryptographic generator (getrandom on Linux).
package enum SecureRandom {
    /// `count` bytes from the kernel's CSPRNG, eight at a time: the system generator makes a
    /// system call for every value it returns, so a byte at a time was 32 calls a token.
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// `byteCount` random bytes as lowercase hex: ids that go in paths (`added-…` books).
    package static func hex(byteCount: Int) -> String {
        hex(bytes(byteCount))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Two lowercase digits a byte, written straight into the text: an import names each of
    /// its 50,000 added books with one, and a string a byte made a name cost 1.1 µs instead of
    /// 0.5, most of which is the random bytes (issue 58).
    static func hex(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: 2 * bytes.count) { text in
            for (index, byte) in bytes.enumerated() {
                text[2 * index] = hexDigits[Int(byte >> 4)]
                text[2 * index + 1] = hexDigits[Int(byte & 0x0F)]
            }
            return 2 * bytes.count
        }
    }

    /// A 256-bit token as unpadded base64url, safe in cookies and form fields.
    package static func token() -> String {
        Base64URL.encode(bytes(32))
    }
}

/// Unpadded base64url (RFC 4648 §5) and constant-time comparison helpers.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset) }
            for position in 0...chunk.count {
                output.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3f)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Compares two byte strings in time that depends only on their lengths, so a guess at a token
/// learns nothing from how long the comparison took.
func constantTimeEquals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
}
