import CCurl
import Foundation
import NIOPosix

/// What ``MailSender`` hands messages to: the SMTP client, or a test's stand-in.
public protocol MailTransport: Sendable {
    /// Returns the server's answer to the message; throws ``SMTPClient/Failure``.
    func send(_ message: [UInt8], from sender: MailAddress, to recipient: MailAddress) async throws -> SMTPClient.Reply
}

/// Sends one message to one recipient over the system libcurl's SMTP, on a thread of its own so
/// a slow mail server never holds an event loop.
///
/// TLS: `smtps://` is TLS from the first byte; `smtp://` must upgrade with STARTTLS, and the
/// server's certificate is checked, except on loopback, where STARTTLS is used when offered and
/// the certificate is not checked (nobody can sit between two programs on one machine who could
/// not read the configuration anyway, and local relays often have a self-made certificate).
public final class SMTPClient: MailTransport {
    /// A line the server sent, with its three-digit code.
    public struct Reply: Sendable, Equatable, CustomStringConvertible {
        public let code: Int
        public let text: String
        public var description: String { text }

        public init(code: Int, text: String) {
            self.code = code
            self.text = text
        }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A 5xx reply: sending the message again would get the same answer.
        case rejected(Reply)
        /// A 4xx reply: the server asks to try later.
        case deferred(Reply)
        /// The server refused the user name and password: the configuration's fault, not the message's.
        case authenticationFailed(Reply?)
        /// No answer to act on: refused connection, timeout, TLS failure.
        case unreachable(String)

        /// Only a refusal of the message itself ends its tries.
        public var isFinal: Bool {
            if case .rejected = self { return true }
            return false
        }

        public var description: String {
            switch self {
            case .rejected(let reply), .deferred(let reply): return reply.text
            case .authenticationFailed(let reply): return "the server refused the user name and password" + (reply.map { ": \($0.text)" } ?? "")
            case .unreachable(let message): return message
            }
        }
    }

    /// Seconds to connect, and for the whole exchange (`mail.timeoutSeconds`).
    struct Limits: Sendable {
        var connectTimeoutSeconds: Int
        var totalTimeoutSeconds: Int
    }

    let settings: AppConfig.Mail
    private let limits: Limits
    private let threadPool: NIOThreadPool

    public init(settings: AppConfig.Mail) {
        CurlHTTPClient.initializeCurlOnce
        self.settings = settings
        self.limits = Limits(connectTimeoutSeconds: min(10, settings.timeoutSeconds), totalTimeoutSeconds: settings.timeoutSeconds)
        self.threadPool = ThreadPools.process.start(threads: 1)
    }

    deinit {
        ThreadPools.process.close(threadPool)
    }

    /// Hands `message` to the server for `recipient`; returns the server's answer to the message.
    public func send(_ message: [UInt8], from sender: MailAddress, to recipient: MailAddress) async throws -> Reply {
        let settings = self.settings
        let limits = self.limits
        return try await threadPool.runIfActive {
            try Self.perform(message: message, from: sender, to: recipient, settings: settings, limits: limits)
        }
    }

    /// How the connection is protected, by the URL's scheme and host.
    enum Protection: Equatable {
        /// `smtps://`: TLS from the start, certificate checked.
        case implicitTLS(verified: Bool)
        /// `smtp://`: STARTTLS required and checked, or (loopback) used when offered.
        case startTLS(required: Bool)
    }

    static func protection(for url: String) -> Protection? {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else { return nil }
        let loopback = AddressRange.isLoopback(host: host)
        switch components.scheme?.lowercased() {
        case "smtps": return .implicitTLS(verified: !loopback)
        case "smtp": return .startTLS(required: !loopback)
        default: return nil
        }
    }

    /// The message being uploaded and the server's replies as they come.
    private final class Exchange {
        let message: [UInt8]
        var offset = 0
        var replies = ReplyReader()

        init(message: [UInt8]) { self.message = message }
    }

    /// Reads the server's replies from its lines, as libcurl's debug callback passes them on:
    /// whole or in pieces, so a line is decoded only once its newline has come (a character's
    /// bytes may arrive in two pieces). A reply's last line has a space, or nothing, after its
    /// three-digit code; the lines of a multi-line reply before it (`250-…`) and anything that
    /// does not start with three digits are skipped.
    ///
    /// Each byte is looked at once, and a line's bytes past ``maximumLineLength`` are dropped: a
    /// server that sends a long line a few bytes at a time neither makes each piece rescan what
    /// came before (the `smtp-reply` fuzz target's first long run found that) nor grows the buffer.
    package struct ReplyReader {
        /// A reply's text as kept for the log and the outbox, in characters.
        static let maximumTextLength = 512
        /// The bytes of a line kept until its newline: RFC 5321 (4.5.3.1.5) allows a reply line
        /// 512 with its CRLF; twice that leaves room for leading spaces and many-byte characters.
        package static let maximumLineLength = 1024

        package private(set) var replies: [Reply] = []
        private var partial: [UInt8] = []

        package init() {}

        /// Bytes of an unfinished line held.
        package var pendingByteCount: Int { partial.count }

        /// The bytes as libcurl passes them. Not generic: a generic reader called from another
        /// module iterates through unspecialised witnesses, which allocate for every byte.
        package mutating func received(_ bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    let line = Self.trimmed(partial)
                    partial.removeAll(keepingCapacity: true)
                    if let reply = Self.reply(line) { replies.append(reply) }
                } else if partial.count < Self.maximumLineLength {
                    partial.append(byte)
                }
            }
        }

        package mutating func received(_ bytes: ArraySlice<UInt8>) {
            bytes.withUnsafeBytes { received($0) }
        }

        package mutating func received(_ bytes: [UInt8]) {
            received(bytes[...])
        }

        /// The line without the spaces, tabs and CR around it, decoded: replies are ASCII
        /// (RFC 5321, 2.4), and trimming bytes spares a decoding of Unicode's whitespace per line.
        private static func trimmed(_ bytes: [UInt8]) -> String {
            let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
            guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
            return String(decoding: bytes[first...last], as: UTF8.self)
        }

        private static func reply(_ line: String) -> Reply? {
            let digits = line.utf8.prefix(3)
            guard digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  line.utf8.count == 3 || line.utf8.dropFirst(3).first == UInt8(ascii: " "),
                  let code = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
            return Reply(code: code, text: String(line.prefix(maximumTextLength)))
        }
    }

    private static func perform(
        message: [UInt8], from sender: MailAddress, to recipient: MailAddress, settings: AppConfig.Mail, limits: Limits
    ) throws -> Reply {
        guard let protection = protection(for: settings.smtpURL) else { throw Failure.unreachable("mail.smtpURL is not an smtp:// or smtps:// URL") }
        guard let handle = curl_easy_init() else { throw Failure.unreachable("could not start libcurl") }
        defer { curl_easy_cleanup(handle) }
        let exchange = Exchange(message: message)
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorText.deallocate() }
        let recipients = curl_slist_append(nil, "<\(recipient.text)>")
        defer { curl_slist_free_all(recipients) }

        try configure(handle, settings: settings, protection: protection, limits: limits, errorText: errorText)
        try CurlHTTPClient.check(ccurl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(sender.text)>"), CURLOPT_MAIL_FROM)
        try CurlHTTPClient.check(ccurl_setopt_pointer(handle, CURLOPT_MAIL_RCPT, recipients), CURLOPT_MAIL_RCPT)
        try attach(exchange, to: handle)
        let code = withExtendedLifetime(exchange) { curl_easy_perform(handle) }

        let last = exchange.replies.replies.last
        guard code == CURLE_OK else {
            let detail = errorText[0] != 0 ? String(cString: errorText) : String(cString: curl_easy_strerror(code))
            throw failure(code, last: last, detail: detail)
        }
        return last ?? Reply(code: 250, text: "250 accepted")
    }

    private static func failure(_ code: CURLcode, last: Reply?, detail: String) -> Failure {
        if code == CURLE_LOGIN_DENIED { return .authenticationFailed(last) }
        if code == CURLE_OPERATION_TIMEDOUT { return .unreachable("no answer in time: \(detail)") }
        guard let last else { return .unreachable("\(detail) (curl error \(code.rawValue))") }
        return failure(lastReply: last, detail: detail)
    }

    /// What a failed exchange means by the server's last reply: a 5xx refuses the message for
    /// good, a 4xx defers it, anything else leaves the server's state unknown.
    package static func failure(lastReply last: Reply, detail: String) -> Failure {
        switch last.code {
        case 500...599: return .rejected(last)
        case 400...499: return .deferred(last)
        default: return .unreachable("\(detail); the server's last words: \(last.text)")
        }
    }

    private static func configure(
        _ handle: UnsafeMutableRawPointer, settings: AppConfig.Mail, protection: Protection, limits: Limits,
        errorText: UnsafeMutablePointer<CChar>
    ) throws {
        let check = CurlHTTPClient.check
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText), CURLOPT_ERRORBUFFER)
        try check(ccurl_setopt_string(handle, CURLOPT_URL, settings.smtpURL), CURLOPT_URL)
        try check(ccurl_allow_only_smtp(handle), ccurl_protocols_option())
        try check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), CURLOPT_NOSIGNAL)
        try check(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, limits.connectTimeoutSeconds), CURLOPT_CONNECTTIMEOUT)
        try check(ccurl_setopt_long(handle, CURLOPT_TIMEOUT, limits.totalTimeoutSeconds), CURLOPT_TIMEOUT)
        // Also bounds the wait for the answer to QUIT, which libcurl sends when it closes the
        // connection, after a timeout too: without it a server that stalls holds the thread for minutes.
        try check(ccurl_setopt_long(handle, CURLOPT_SERVER_RESPONSE_TIMEOUT, limits.totalTimeoutSeconds), CURLOPT_SERVER_RESPONSE_TIMEOUT)
        let verified: Bool
        switch protection {
        case .implicitTLS(let verify):
            verified = verify
        case .startTLS(let required):
            verified = required
            let level = required ? CURLUSESSL_ALL : CURLUSESSL_TRY
            try check(ccurl_setopt_long(handle, CURLOPT_USE_SSL, Int(level.rawValue)), CURLOPT_USE_SSL)
        }
        try check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, verified ? 1 : 0), CURLOPT_SSL_VERIFYPEER)
        try check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, verified ? 2 : 0), CURLOPT_SSL_VERIFYHOST)
        if !settings.username.isEmpty {
            try check(ccurl_setopt_string(handle, CURLOPT_USERNAME, settings.username), CURLOPT_USERNAME)
            try check(ccurl_setopt_string(handle, CURLOPT_PASSWORD, settings.password), CURLOPT_PASSWORD)
        }
    }

    /// The message goes out through the read callback; the server's lines come back through the
    /// debug callback, of which only what the server sent is kept (what we send holds the password).
    private static func attach(_ exchange: Exchange, to handle: UnsafeMutableRawPointer) throws {
        let check = CurlHTTPClient.check
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        try check(ccurl_setopt_long(handle, CURLOPT_UPLOAD, 1), CURLOPT_UPLOAD)
        try check(ccurl_setopt_pointer(handle, CURLOPT_READDATA, context), CURLOPT_READDATA)
        try check(ccurl_setopt_read_function(handle) { buffer, size, count, context in
            let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
            let length = min(size * count, exchange.message.count - exchange.offset)
            exchange.message.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer!).copyMemory(from: bytes.baseAddress! + exchange.offset, byteCount: length)
            }
            exchange.offset += length
            return length
        }, CURLOPT_READFUNCTION)
        try check(ccurl_setopt_pointer(handle, CURLOPT_DEBUGDATA, context), CURLOPT_DEBUGDATA)
        try check(ccurl_setopt_debug_function(handle) { _, kind, data, size, context in
            guard kind == CURLINFO_HEADER_IN, let data else { return 0 }
            let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
            exchange.replies.received(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }, CURLOPT_DEBUGFUNCTION)
        try check(ccurl_setopt_long(handle, CURLOPT_VERBOSE, 1), CURLOPT_VERBOSE)
    }
}
