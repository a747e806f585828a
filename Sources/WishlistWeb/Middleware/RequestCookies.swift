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
    /// the header's bytes, nothing allocated but the value found.
    static func cookieValue(_ name: String, in header: String) -> String? {
        let bytes = header.utf8, wanted = name.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index = bytes.index(after: index)
            }
            let pairStart = index
            var equals: String.UTF8View.Index?
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: ";") {
                if equals == nil, bytes[index] == UInt8(ascii: "=") { equals = index }
                index = bytes.index(after: index)
            }
            if let equals, bytes[pairStart..<equals].elementsEqual(wanted) {
                let value = bytes[bytes.index(after: equals)..<index]
                // Hummingbird reads `name=` as no cookie at all.
                return value.isEmpty ? nil : String(Substring(value))
            }
            if index < bytes.endIndex { index = bytes.index(after: index) }
        }
        return nil
    }
}
