import WishlistCore

/// What an SMTP server sends back, as libcurl's debug callback passes it on. The first byte
/// sets the size of the pieces the rest arrives in: the replies read do not depend on it.
/// Every reply has a three-digit code that its text starts with, and only a 5xx refuses a
/// message for good.
@Sendable func fuzzSMTPReply(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let lines = bytes.dropFirst()
    var whole = SMTPClient.ReplyReader()
    whole.received(lines)
    var pieces = SMTPClient.ReplyReader()
    let size = Int(first % 16) + 1
    for start in stride(from: lines.startIndex, to: lines.endIndex, by: size) {
        pieces.received(lines[start..<min(start + size, lines.endIndex)])
    }
    require(pieces.replies == whole.replies, "the replies depend on how the lines were cut")
    for reply in whole.replies {
        let digits = reply.text.utf8.prefix(3)
        require(digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } && Int(String(decoding: digits, as: UTF8.self)) == reply.code,
                "reply \(reply.code) reads \(reply.text.debugDescription)")
        require(reply.text.count <= 512, "a reply of \(reply.text.count) characters kept")
        let failure = SMTPClient.failure(lastReply: reply, detail: "curl said no")
        require(failure.isFinal == (500...599).contains(reply.code), "reply \(reply.code) classified \(failure)")
    }
}
