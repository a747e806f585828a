import Hummingbird

extension Request {
    /// The value of the first cookie named `name`, as `request.cookies[name]?.value` reads it, found
    /// without building a `Cookie` for every pair: each page asks for two or three cookies.
    func cookieValue(_ name: String) -> String? {
        for header in headers[values: .cookie] {
            if let value = Self.cookieValue(name, in: header) { return value }
        }
        return nil
    }

    /// The value of the first `name=value` pair of a `Cookie` header named `name`: one pass over
    /// the header's bytes through a pointer (String's UTF-8 indices cost more than the bytes), nothing
    /// allocated but the value found.
    static func cookieValue(_ name: String, in header: String) -> String? {
        var header = header, name = name
        return header.withUTF8 { bytes in
            name.withUTF8 { wanted in
                var index = 0
                while index < bytes.count {
                    while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
                    let pairStart = index
                    var equals: Int?
                    while index < bytes.count, bytes[index] != UInt8(ascii: ";") {
                        if equals == nil, bytes[index] == UInt8(ascii: "=") { equals = index }
                        index += 1
                    }
                    if let equals, equals - pairStart == wanted.count, UnsafeBufferPointer(rebasing: bytes[pairStart..<equals]).elementsEqual(wanted) {
                        // Hummingbird reads `name=` as no cookie at all.
                        return equals + 1 == index ? nil : String(decoding: UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<index]), as: UTF8.self)
                    }
                    index += 1
                }
                return nil
            }
        }
    }
}
