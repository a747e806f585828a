import CivilTime
import Foundation

/// One e-mail as the app writes it: a text part and an HTML part of the same words, and headers
/// built here so that nothing a member typed can start a header or a recipient of its own.
public struct MailMessage: Sendable, Equatable {
    public struct Mailbox: Sendable, Equatable {
        public let address: MailAddress
        /// Shown before the address; any text, encoded as RFC 2047 asks when it is not plain ASCII.
        public let name: String

        public init(_ address: MailAddress, name: String = "") {
            self.address = address
            self.name = name
        }
    }

    public let from: Mailbox
    public let to: Mailbox
    public let subject: String
    public let text: String
    public let html: String
    /// Further headers whose values the app made (`List-Unsubscribe`); names are ASCII constants.
    public let extraHeaders: [(name: String, value: String)]

    public init(from: Mailbox, to: Mailbox, subject: String, text: String, html: String, extraHeaders: [(name: String, value: String)] = []) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.extraHeaders = extraHeaders
    }

    public static func == (lhs: MailMessage, rhs: MailMessage) -> Bool {
        lhs.from == rhs.from && lhs.to == rhs.to && lhs.subject == rhs.subject && lhs.text == rhs.text && lhs.html == rhs.html
            && lhs.extraHeaders.elementsEqual(rhs.extraHeaders) { $0 == $1 }
    }

    /// The message in RFC 5322 form with CRLF line ends, ready for SMTP's DATA.
    public func rendered(date: Date, messageID: String, boundary: String) -> [UInt8] {
        var headers = [
            ("Date", Self.dateHeader(date)),
            ("Message-ID", "<\(messageID)>"),
            ("From", MailHeader.mailbox(from)),
            ("To", MailHeader.mailbox(to)),
            ("Subject", MailHeader.unstructured(subject, nameLength: 8)),
            ("MIME-Version", "1.0"),
        ]
        headers += extraHeaders.map { ($0.name, MailHeader.unstructured($0.value, nameLength: $0.name.utf8.count)) }
        headers.append(("Content-Type", "multipart/alternative; boundary=\"\(boundary)\""))
        var out = headers.map { "\($0.0): \($0.1)\r\n" }.joined()
        out += "\r\n"
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            out += "--\(boundary)\r\n"
            out += "Content-Type: \(type); charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            out += Self.base64Lines(Array(Self.withCRLF(body).utf8))
        }
        out += "--\(boundary)--\r\n"
        return Array(out.utf8)
    }

    /// RFC 5322's date-time, always in UTC.
    static func dateHeader(_ date: Date) -> String {
        let time = CivilDateTime(date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[time.weekday]), \(time.day) \(months[time.month - 1]) \(time.year) \(two(time.hour)):\(two(time.minute)):\(two(time.second)) +0000"
    }

    /// Bodies are written with `\n`; mail wants CRLF everywhere.
    private static func withCRLF(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
    }

    /// Base64 in lines of 76, as MIME asks.
    private static func base64Lines(_ bytes: [UInt8]) -> String {
        let encoded = Data(bytes).base64EncodedString()
        var lines = ""
        var start = encoded.startIndex
        while start < encoded.endIndex {
            let end = encoded.index(start, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines += encoded[start..<end] + "\r\n"
            start = end
        }
        return lines
    }
}

/// Header values from text the app does not control. Every control character (CR and LF among
/// them) becomes a space before anything else, so no value can end its header early.
enum MailHeader {
    /// Encoded words carry at most this many bytes of text each, so that a word (`=?UTF-8?B?` +
    /// 52 base64 characters + `?=`) stays under RFC 2047's 75 and its line, with the header's
    /// name before it, under 78.
    private static let bytesPerWord = 39

    /// A `Subject` or other free-text value: as it is when it is short printable ASCII that
    /// cannot be mistaken for an encoded word, else RFC 2047 encoded words, one per folded line.
    static func unstructured(_ value: String, nameLength: Int) -> String {
        let clean = withoutControls(value)
        guard isPlain(clean), !clean.contains("=?"), clean.utf8.count < 900 else { return encodedWords(clean) }
        return clean.utf8.count + nameLength + 2 <= 78 ? clean : fold(clean)
    }

    /// `"Name" <address>` or, with no name, the address alone. Addresses are already checked by
    /// ``MailAddress``; a name in plain ASCII is quoted, any other name encoded.
    static func mailbox(_ mailbox: MailMessage.Mailbox) -> String {
        let name = withoutControls(mailbox.name).trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return mailbox.address.text }
        let shown: String
        if isPlain(name) && !name.contains("=?") {
            shown = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        } else {
            shown = encodedWords(name)
        }
        return "\(shown) <\(mailbox.address.text)>"
    }

    static func withoutControls(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// Long plain text folded at spaces (a fold is CRLF before a space), so that lines stay
    /// near 78 characters where the text has spaces.
    private static func fold(_ text: String) -> String {
        var lines: [String] = []
        var line: String?
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if let current = line, current.utf8.count + word.utf8.count + 1 > 66 {
                lines.append(current)
                line = String(word)
            } else {
                line = line.map { $0 + " " + word } ?? String(word)
            }
        }
        lines.append(line ?? "")
        return lines.joined(separator: "\r\n ")
    }

    /// UTF-8 in base64 encoded words, split between characters (never inside one), each word on
    /// a line of its own.
    static func encodedWords(_ text: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if !chunk.isEmpty, chunk.count + bytes.count > bytesPerWord {
                words.append(word(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(word(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    private static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }
}
