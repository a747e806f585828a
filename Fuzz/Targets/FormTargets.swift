import Foundation
import NIOCore
import WishlistWeb

/// A urlencoded body, as a POST sends it and as a query string reads.
@Sendable func fuzzFormBody(_ bytes: [UInt8]) {
    guard let form = try? FormBody(parsing: ByteBuffer(bytes: bytes)) else { return }
    for name in ["title", "author", "q", "_csrf"] {
        if let text = try? form.text(name) { require(text.count <= 200, "a text field longer than its limit") }
        _ = try? form.checkbox(name)
    }
}

/// `Content-Type` on the first line, the body after it: the boundary and the body are both the
/// sender's.
@Sendable func fuzzMultipart(_ bytes: [UInt8]) {
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = ByteBuffer(bytes: bytes[min(newline + 1, bytes.endIndex)...])
    guard let form = try? MultipartForm(body: body, contentType: contentType) else { return }
    let partBytes = form.parts.reduce(0) { $0 + $1.body.readableBytes }
    require(partBytes <= body.readableBytes, "parts hold more bytes than the body")
    _ = form.text("name")
    _ = form.file("picture")
}
