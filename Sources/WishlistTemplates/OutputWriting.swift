import NIOCore

extension ByteBuffer {
    /// Writes an expression's value with the escaping its HTML context requires.
    @usableFromInline
    mutating func writeOutput(_ value: TemplateValue, escaping: OutputEscaping) {
        switch escaping {
        case .text:
            if case .html(let html) = value {
                writeString(html.html)
            } else {
                writeEscaped(value)
            }
        case .attribute:
            writeEscaped(value)
        case .url:
            guard let text = value.text else { return }
            writeURL(text, isAllowed: URLSafety.isAllowedURL(text))
        case .urlContinuation:
            guard let text = value.text else { return }
            writeURL(text, isAllowed: !URLSafety.introducesScheme(text))
        }
    }

    private mutating func writeURL(_ text: String, isAllowed: Bool) {
        if isAllowed {
            writeHTMLEscaped(text)
        } else {
            writeStaticString(URLSafety.replacement)
        }
    }

    private mutating func writeEscaped(_ value: TemplateValue) {
        switch value {
        case .string(let text): writeHTMLEscaped(text)
        case .html(let html): writeHTMLEscaped(html.html)
        case .int(let number): writeString(String(number))
        // Numbers, booleans and yyyy-MM-dd dates contain no character that needs escaping.
        case .double, .bool, .date: writeString(value.text ?? "")
        case .null, .array, .dictionary, .slot: break
        }
    }

    /// Writes `text` with `& < > " '` replaced by entities, copying unchanged runs in bulk.
    mutating func writeHTMLEscaped(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                // Every special character is at most '>' (0x3E): most bytes leave after one comparison.
                guard byte <= UInt8(ascii: ">") else { continue }
                let entity: StaticString
                switch byte {
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "\""): entity = "&quot;"
                case UInt8(ascii: "'"): entity = "&#39;"
                default: continue
                }
                writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart..<index])))
                writeStaticString(entity)
                runStart = index + 1
            }
            writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart...])))
        }
    }
}

/// Decides which URLs may be written into URL attributes such as `href` and `src`.
///
/// Browsers ignore tabs and newlines anywhere in a URL and spaces or control
/// characters around it, so `" java\tscript:"` is still `javascript:`. The checks
/// below do the same before looking for a scheme, the part before the first `:`
/// that comes before any `/`, `?` or `#`.
enum URLSafety {
    /// What a rejected URL is replaced with: a URL that does nothing.
    static let replacement: StaticString = "about:invalid"
    private static let https = Array("https".utf8)

    /// True for relative URLs and for http and https URLs (in any letter case).
    static func isAllowedURL(_ text: String) -> Bool {
        var schemeLength = 0
        var matchesHTTPS = true
        var isLeading = true
        for byte in text.utf8 where !isIgnoredInURL(byte) {
            if isLeading && byte <= 0x20 { continue }
            isLeading = false
            switch byte {
            case UInt8(ascii: ":"):
                return matchesHTTPS && (schemeLength == 4 || schemeLength == 5)
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return true
            default:
                matchesHTTPS = matchesHTTPS && schemeLength < https.count && byte.asciiLowercased == https[schemeLength]
                schemeLength += 1
            }
        }
        return true
    }

    /// True when `text` contains a `:` before any `/`, `?` or `#`, that is, when
    /// appended to a prefix that has not settled the scheme it could complete one.
    static func introducesScheme(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: ":"): return true
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): return false
            default: continue
            }
        }
        return false
    }

    private static func isIgnoredInURL(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
