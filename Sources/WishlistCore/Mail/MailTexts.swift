/// What each message says, in a text part and an HTML part of the same words. Links are the
/// server's own, unchanged; there are no pictures, so nothing tells anyone a message was opened.
enum MailTexts {
    static func verification(name: String, link: String) -> MailContent {
        let lines = [
            "Hello \(name),",
            "Please confirm that this is your address for Bestseller Wishlist by opening this link within 24 hours:",
        ]
        let after = "If you did not give this address, ignore this message: nothing will be sent to it."
        return content(subject: "Confirm your e-mail address", paragraphs: lines, link: link, linkText: "Confirm my address", after: [after])
    }

    /// Instead of a confirmation link, to the member who confirmed the address: whoever gave it
    /// learns nothing from the answer, and she learns that someone did.
    static func addressInUse(name: String, username: String, link: String) -> MailContent {
        let lines = [
            "Hello \(name),",
            "Someone just gave this address for another account at Bestseller Wishlist. It stays with your account, \(username): the other account can’t confirm it and gets no mail here.",
            "If that was you, you already have an account. Sign in as \(username), or set a new password:",
        ]
        let after = "If it wasn’t you, there is nothing to do."
        return content(subject: "Someone gave your e-mail address", paragraphs: lines, link: link, linkText: "Forgot your password?", after: [after])
    }

    /// Greets by username: the link is for that account, whatever its display name.
    static func passwordReset(username: String, link: String) -> MailContent {
        let lines = [
            "Hello \(username),",
            "Someone, probably you, asked to set a new password for your Bestseller Wishlist account. This link works once, within an hour:",
        ]
        let after = "Setting a new password signs out every browser. If you did not ask, ignore this message: your password stays as it is."
        return content(subject: "Set a new password", paragraphs: lines, link: link, linkText: "Set a new password", after: [after])
    }

    static func invite(from inviter: String, link: String) -> MailContent {
        let lines = ["\(inviter) invites you to Bestseller Wishlist, where a household keeps its book wishlists. This link makes your account; it works once, within 7 days:"]
        return content(subject: "\(inviter) invites you to Bestseller Wishlist", paragraphs: lines, link: link, linkText: "Make my account", after: [])
    }

    static func test() -> MailContent {
        content(
            subject: "Bestseller Wishlist: a test message",
            paragraphs: ["This message was sent by `wishlist mail test` to check the server’s mail settings. It worked."],
            link: nil, linkText: "", after: []
        )
    }

    /// Paragraphs, then a link on its own line, then more paragraphs.
    static func content(subject: String, paragraphs: [String], link: String?, linkText: String, after: [String]) -> MailContent {
        var text = paragraphs.joined(separator: "\n\n") + "\n\n"
        var html = paragraphs.map { "<p>\(escape($0))</p>\n" }.joined()
        if let link {
            text += link + "\n\n"
            html += "<p><a href=\"\(escape(link))\">\(escape(linkText))</a></p>\n"
        }
        text += after.map { $0 + "\n\n" }.joined() + signature
        html += after.map { "<p>\(escape($0))</p>\n" }.joined() + "<p>\(escape(signature))</p>\n"
        return MailContent(subject: subject, text: text, html: page(subject: subject, body: html))
    }

    static let signature = "Bestseller Wishlist"

    static func page(subject: String, body: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(escape(subject))</title></head>\n<body>\n\(body)</body></html>\n"
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
