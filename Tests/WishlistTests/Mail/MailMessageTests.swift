import Foundation
import Testing
@testable import WishlistCore

@Suite("Mail messages: addresses, headers that nothing typed can break, MIME parts")
struct MailMessageTests {
    static let from = MailAddress("wishlist@example.com")!
    static let to = MailAddress("ann@example.org")!

    /// The header block of a rendered message, unfolded: one string a header.
    static func headers(of message: [UInt8]) -> [String] {
        let text = String(decoding: message, as: UTF8.self)
        let block = text.components(separatedBy: "\r\n\r\n")[0]
        return block.replacingOccurrences(of: "\r\n ", with: " ").components(separatedBy: "\r\n")
    }

    static func render(subject: String = "Hello", name: String = "", extra: [(name: String, value: String)] = []) -> [UInt8] {
        MailMessage(from: .init(from, name: "Bestseller Wishlist"), to: .init(to, name: name), subject: subject, text: "Text body\nline two", html: "<p>HTML</p>", extraHeaders: extra)
            .rendered(date: Date(timeIntervalSince1970: 1_795_000_000), messageID: "abc@example.com", boundary: "=_b")
    }

    @Test("hostile addresses are refused", arguments: [
        "\"a@b\"@example.com", "ann@example.com\r\nBcc: eve@example.com", "ann@example.com\nBcc: eve@example.com", "ann@example.com, eve@example.com",
        "ann <ann@example.com>", "ann@example.com>", "ann@[127.0.0.1]", "ännä@example.com", "ann@exämple.com", "ann@@example.com",
        "ann.@example.com", ".ann@example.com", "ann@example", "ann@-example.com", "ann example@example.com", "",
        String(repeating: "a", count: 65) + "@example.com", "a@" + String(repeating: "b", count: 250) + ".com",
    ])
    func hostileAddressesAreRefused(_ text: String) {
        #expect(MailAddress(text) == nil)
        #expect(AccountRules.emailProblem(text) != nil, "sign-up and Settings refuse what mail could not be sent to")
    }

    @Test("ordinary addresses are taken as they are", arguments: ["ann@example.com", "ann.lee+books@mail.example.co.uk", "o'brien@example.ie", "x_y-z@a-b.example"])
    func ordinaryAddresses(_ text: String) {
        #expect(MailAddress(text)?.text == text)
    }

    @Test("CR and LF in a subject or a name never start a header", arguments: [
        "Hi\r\nBcc: eve@example.com", "Hi\nBcc: eve@example.com", "Hi\rBcc: eve@example.com", "Hi\u{0}\r\n\r\n<html>injected",
    ])
    func noHeaderInjection(_ hostile: String) {
        let headers = Self.headers(of: Self.render(subject: hostile, name: hostile))
        #expect(!headers.contains { $0.lowercased().hasPrefix("bcc") }, "\(headers)")
        let names = headers.map { String($0.prefix { $0 != ":" }) }
        #expect(names == ["Date", "Message-ID", "From", "To", "Subject", "MIME-Version", "Content-Type"])
        #expect(headers.allSatisfy { !$0.contains("\r") && !$0.contains("\n") })
    }

    @Test func nonASCIISubjectAndNameAreEncodedWordsThatDecodeBack() throws {
        let subject = "Zoë's list: 北京 and more 📚, " + String(repeating: "ü", count: 40)
        let headers = Self.headers(of: Self.render(subject: subject, name: "Zoë \"Z\" Müller"))
        let subjectLine = try #require(headers.first { $0.hasPrefix("Subject: ") })
        #expect(subjectLine.utf8.allSatisfy { $0 < 0x80 }, "headers are ASCII")
        #expect(Self.decodeWords(String(subjectLine.dropFirst(9))) == subject)
        let toLine = try #require(headers.first { $0.hasPrefix("To: ") })
        #expect(toLine.hasSuffix(" <ann@example.org>"))
        #expect(toLine.hasPrefix("To: =?UTF-8?B?"))
        // Every encoded word fits RFC 2047's 75 characters.
        let raw = String(decoding: Self.render(subject: subject), as: UTF8.self)
        #expect(raw.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
    }

    @Test func plainNamesAreQuotedWithTheirQuotesEscaped() throws {
        let headers = Self.headers(of: Self.render(name: "Ann \"Books\" Lee, Esq."))
        #expect(headers.contains("To: \"Ann \\\"Books\\\" Lee, Esq.\" <ann@example.org>"))
        #expect(headers.contains("From: \"Bestseller Wishlist\" <wishlist@example.com>"))
    }

    @Test func textThatLooksLikeAnEncodedWordIsEncoded() throws {
        let headers = Self.headers(of: Self.render(subject: "=?UTF-8?B?SGk=?="))
        let line = try #require(headers.first { $0.hasPrefix("Subject: ") })
        #expect(Self.decodeWords(String(line.dropFirst(9))) == "=?UTF-8?B?SGk=?=")
    }

    @Test func dateMessageIDAndPartsAreWellFormed() throws {
        let raw = String(decoding: Self.render(), as: UTF8.self)
        let headers = Self.headers(of: Self.render())
        #expect(headers.contains("Date: Wed, 18 Nov 2026 11:06:40 +0000"))
        #expect(headers.contains("Message-ID: <abc@example.com>"))
        #expect(headers.contains("Content-Type: multipart/alternative; boundary=\"=_b\""))
        let parts = raw.components(separatedBy: "--=_b\r\n").dropFirst()
        #expect(parts.count == 2)
        let text = try #require(parts.first)
        #expect(text.hasPrefix("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"))
        let encoded = text.components(separatedBy: "\r\n\r\n")[1].replacingOccurrences(of: "\r\n", with: "")
        #expect(String(decoding: Data(base64Encoded: encoded) ?? Data(), as: UTF8.self) == "Text body\r\nline two")
        #expect(raw.hasSuffix("--=_b--\r\n"))
    }

    @Test func extraHeadersKeepTheirValueOnOneLogicalLine() throws {
        let link = "<https://books.example/unsubscribe/\(String(repeating: "t", count: 43))>"
        let headers = Self.headers(of: Self.render(extra: [("List-Unsubscribe", link), ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")]))
        #expect(headers.contains("List-Unsubscribe: " + link))
        #expect(headers.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"))
    }

    /// Joins RFC 2047 B-encoded words back into text.
    static func decodeWords(_ value: String) -> String {
        let words = value.split(separator: " ")
        let bytes = words.flatMap { word -> [UInt8] in
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?=") else { return Array(word.utf8) }
            return [UInt8](Data(base64Encoded: String(word.dropFirst(10).dropLast(2))) ?? Data())
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@Suite("The SMTP connection's protection and the mail settings")
struct SMTPSettingsTests {
    @Test("STARTTLS is required and checked except to this machine; smtps is checked except to it", arguments: [
        ("smtp://mail.example.com:587", SMTPClient.Protection.startTLS(required: true)),
        ("smtp://192.0.2.10:25", .startTLS(required: true)),
        ("smtp://127.0.0.1:25", .startTLS(required: false)),
        ("smtp://localhost:25", .startTLS(required: false)),
        ("smtp://[::1]:25", .startTLS(required: false)),
        ("smtps://mail.example.com:465", .implicitTLS(verified: true)),
        ("SMTPS://127.0.0.1:465", .implicitTLS(verified: false)),
    ])
    func protection(url: String, expected: SMTPClient.Protection) {
        #expect(SMTPClient.protection(for: url) == expected)
    }

    @Test func mailSettingsAreCheckedAtStartWithoutRepeatingSecrets() throws {
        func load(_ environment: [String: String]) throws -> AppConfig {
            try ConfigLoader.load(file: nil, fileIsRequired: false, environment: environment)
        }
        #expect(throws: ConfigError.self) { try load(["WISHLIST_SMTP_URL": "http://mail.example.com"]) }
        #expect(throws: ConfigError.self) { try load(["WISHLIST_SMTP_URL": "smtp://mail.example.com:587"]) }  // no From
        #expect(throws: ConfigError.self) { try load(["WISHLIST_SMTP_URL": "smtp://smtp.example.com", "WISHLIST_MAIL_FROM": "\"a@b\"@example.com"]) }
        do {
            _ = try load(["WISHLIST_SMTP_URL": "smtp://user:Hunter2pass@mail.example.com:587", "WISHLIST_MAIL_FROM": "books@example.com"])
            Issue.record("a password in the URL was accepted")
        } catch let error as ConfigError {
            #expect(!error.description.contains("Hunter2pass"))
        }
        let config = try load([
            "WISHLIST_SMTP_URL": "smtps://mail.example.com:465", "WISHLIST_MAIL_FROM": "books@example.com",
            "WISHLIST_SMTP_USERNAME": "books", "WISHLIST_SMTP_PASSWORD": "Hunter2pass",
        ])
        #expect(config.mail.isEnabled && config.mail.password == "Hunter2pass")
        #expect(!"\(config.mail)".contains("Hunter2pass") && !String(reflecting: config.mail).contains("Hunter2pass"))
    }
}
