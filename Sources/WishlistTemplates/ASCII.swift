/// Byte classification for the tokenizers, which work on UTF-8 bytes rather than Characters for speed.
package extension UInt8 {
    var isASCIIWhitespace: Bool {
        self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D
    }

    var isASCIILetter: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self | 0x20)
    }

    var isASCIIDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }

    var isIdentifierByte: Bool {
        isASCIILetter || isASCIIDigit || self == UInt8(ascii: "_")
    }

    var asciiLowercased: UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) ? self | 0x20 : self
    }
}
