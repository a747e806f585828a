import WishlistLanguages

/// What each message says, in a text part and an HTML part of the same words, in the recipient's
/// language (``MailLanguages``). Links are the server's own, unchanged; there are no pictures, so
/// nothing tells anyone a message was opened. Its strings have the context "mail": a subject
/// may read like a page's heading and still be worded apart.
enum MailTexts {
    static func verification(name: String, link: String, in translations: Translations) -> MailContent {
        let lines = [
            translations.text("Hello {name},", context: "mail", values: ["name": name]),
            translations.text("Please confirm that this is your address for Bestseller Wishlist by opening this link within 24 hours:", context: "mail"),
        ]
        let after = translations.text("If you did not give this address, ignore this message: nothing will be sent to it.", context: "mail")
        return content(
            subject: translations.text("Confirm your e-mail address", context: "mail"), paragraphs: lines, link: link,
            linkText: translations.text("Confirm my address", context: "mail"), after: [after], in: translations
        )
    }

    /// Instead of a confirmation link, to the member who confirmed the address: whoever gave it
    /// learns nothing from the answer, and she learns that someone did.
    static func addressInUse(name: String, username: String, link: String, in translations: Translations) -> MailContent {
        let lines = [
            translations.text("Hello {name},", context: "mail", values: ["name": name]),
            translations.text("Someone just gave this address for another account at Bestseller Wishlist. It stays with your account, {username}: the other account can’t confirm it and gets no mail here.", context: "mail", values: ["username": username]),
            translations.text("If that was you, you already have an account. Sign in as {username}, or set a new password:", context: "mail", values: ["username": username]),
        ]
        let after = translations.text("If it wasn’t you, there is nothing to do.", context: "mail")
        return content(
            subject: translations.text("Someone gave your e-mail address", context: "mail"), paragraphs: lines, link: link,
            linkText: translations.text("Forgot your password?"), after: [after], in: translations
        )
    }

    /// Greets by username: the link is for that account, whatever its display name.
    static func passwordReset(username: String, link: String, in translations: Translations) -> MailContent {
        let lines = [
            translations.text("Hello {name},", context: "mail", values: ["name": username]),
            translations.text("Someone, probably you, asked to set a new password for your Bestseller Wishlist account. This link works once, within an hour:", context: "mail"),
        ]
        let after = translations.text("Setting a new password signs out every browser. If you did not ask, ignore this message: your password stays as it is.", context: "mail")
        let title = translations.text("Set a new password", context: "mail")
        return content(subject: title, paragraphs: lines, link: link, linkText: title, after: [after], in: translations)
    }

    static func invite(from inviter: String, link: String, in translations: Translations) -> MailContent {
        let lines = [
            translations.text("{inviter} invites you to Bestseller Wishlist, where a household keeps its book wishlists. This link makes your account; it works once, within 7 days:", context: "mail", values: ["inviter": inviter]),
        ]
        return content(
            subject: translations.text("{inviter} invites you to Bestseller Wishlist", context: "mail", values: ["inviter": inviter]), paragraphs: lines,
            link: link, linkText: translations.text("Make my account", context: "mail"), after: [], in: translations
        )
    }

    /// For the operator who runs `wishlist mail test`: in English, as the command line is.
    static func test() -> MailContent {
        content(
            subject: "Bestseller Wishlist: a test message",
            paragraphs: ["This message was sent by `wishlist mail test` to check the server’s mail settings. It worked."],
            link: nil, linkText: "", after: [], in: Translations()
        )
    }

    /// Paragraphs, then a link on its own line, then more paragraphs.
    static func content(subject: String, paragraphs: [String], link: String?, linkText: String, after: [String], in translations: Translations) -> MailContent {
        var text = paragraphs.joined(separator: "\n\n") + "\n\n"
        var html = paragraphs.map { "<p>\(escape($0))</p>\n" }.joined()
        if let link {
            text += link + "\n\n"
            html += "<p><a href=\"\(escape(link))\">\(escape(linkText))</a></p>\n"
        }
        text += after.map { $0 + "\n\n" }.joined() + signature
        html += after.map { "<p>\(escape($0))</p>\n" }.joined() + "<p>\(escape(signature))</p>\n"
        return MailContent(subject: subject, text: text, html: page(subject: subject, body: html, language: translations.language.code))
    }

    static let signature = "Bestseller Wishlist"

    static func page(subject: String, body: String, language: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"\(language)\"><head><meta charset=\"utf-8\"><title>\(escape(subject))</title></head>\n<body>\n\(body)</body></html>\n"
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
