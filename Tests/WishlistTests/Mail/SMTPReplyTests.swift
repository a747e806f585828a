import Testing
@testable import WishlistCore

/// How the server's lines, as libcurl's debug callback passes them on, become replies, and what
/// a failed exchange's last reply means (the `smtp-reply` fuzz target's promises, docs/fuzzing.md).
@Suite("SMTP replies: reading the server's lines, classifying the last")
struct SMTPReplyTests {
    static func replies(_ pieces: [String]) -> [SMTPClient.Reply] {
        var reader = SMTPClient.ReplyReader()
        for piece in pieces { reader.received(Array(piece.utf8)) }
        return reader.replies
    }

    @Test func aMultiLineReplyIsReadAtItsLastLine() {
        #expect(Self.replies(["220 ready\r\n250-mail.example\r\n250-STARTTLS\r\n250 AUTH PLAIN\r\n"]) == [
            .init(code: 220, text: "220 ready"), .init(code: 250, text: "250 AUTH PLAIN"),
        ])
    }

    @Test func aLineIsReadOnlyOnceItsNewlineHasCome() {
        #expect(Self.replies(["55", "0 5.1.1 no such", " user\r"]).isEmpty)
        #expect(Self.replies(["55", "0 5.1.1 no such", " user\r", "\n"]) == [.init(code: 550, text: "550 5.1.1 no such user")])
    }

    /// Spaces, tabs and the CR around a line are not part of the reply; a character is.
    @Test func theBlanksAroundALineAreDropped() {
        #expect(Self.replies([" \t250 OK \t\r\n", "421 fermé\r\n"]) == [.init(code: 250, text: "250 OK"), .init(code: 421, text: "421 fermé")])
        #expect(Self.replies([" \t \r\n"]).isEmpty)
    }

    /// A character whose bytes come in two pieces is read whole, not as two replacement characters.
    @Test func aCharacterCutBetweenTwoPiecesIsReadWhole() {
        var reader = SMTPClient.ReplyReader()
        let line = Array("554 5.7.1 refusé\r\n".utf8)
        let cut = line.firstIndex(of: 0xC3)! + 1
        reader.received(line[..<cut])
        reader.received(line[cut...])
        #expect(reader.replies == [.init(code: 554, text: "554 5.7.1 refusé")])
    }

    /// `Int` reads "+25" and "-50" as numbers; a reply's code is three digits.
    @Test(arguments: ["+25 plus", "-50 minus", "25 short", "2500 long", "25x odd", "abc letters"])
    func aLineWithoutThreeDigitsAndASpaceIsNoReply(_ line: String) {
        #expect(Self.replies([line + "\r\n"]).isEmpty)
    }

    @Test func aLongReplyIsCut() {
        let reply = Self.replies(["421 " + String(repeating: "x", count: 2000) + "\r\n"]).first
        #expect(reply?.code == 421 && reply?.text.count == 512)
    }

    /// A server that never ends its line, a byte at a time: what is held stays within one line's
    /// maximum, and the next whole line is still read.
    @Test func aLineThatNeverEndsIsHeldOnlyToTheMaximum() {
        var reader = SMTPClient.ReplyReader()
        for _ in 0..<100_000 { reader.received([UInt8(ascii: "9")]) }
        #expect(reader.pendingByteCount == SMTPClient.ReplyReader.maximumLineLength)
        #expect(reader.replies.isEmpty)
        reader.received(Array("\r\n250 OK\r\n".utf8))
        #expect(reader.pendingByteCount == 0)
        #expect(reader.replies == [.init(code: 250, text: "250 OK")])
    }

    @Test func onlyA5xxRefusesTheMessageForGood() {
        let rejected = SMTPClient.failure(lastReply: .init(code: 550, text: "550 no"), detail: "curl")
        let deferred = SMTPClient.failure(lastReply: .init(code: 451, text: "451 later"), detail: "curl")
        let unknown = SMTPClient.failure(lastReply: .init(code: 354, text: "354 go on"), detail: "curl")
        #expect(rejected == .rejected(.init(code: 550, text: "550 no")) && rejected.isFinal)
        #expect(deferred == .deferred(.init(code: 451, text: "451 later")) && !deferred.isFinal)
        #expect(unknown == .unreachable("curl; the server's last words: 354 go on") && !unknown.isFinal)
    }
}
