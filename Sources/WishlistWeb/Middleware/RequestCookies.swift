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

    /// The value of the first `name=value` pair of a `Cookie` header named `name`.
    static func cookieValue(_ name: String, in header: String) -> String? {
        let wanted = name.utf8
        for pair in header.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            let trimmed = pair.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard let equals = trimmed.firstIndex(of: UInt8(ascii: "=")) else { continue }
            if trimmed[..<equals].elementsEqual(wanted) {
                let value = trimmed[trimmed.index(after: equals)...]
                // Hummingbird reads `name=` as no cookie at all.
                return value.isEmpty ? nil : String(Substring(value))
            }
        }
        return nil
    }
}
