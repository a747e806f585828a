/// The weekly digest's words: up to five sections, a link to each book on this server, and the
/// one-click unsubscribe link in the headers (RFC 8058) and at the foot.
enum DigestText {
    /// `site` is the server's public origin, before each of its `paths`.
    static func content(_ news: DigestNews, name: String, unsubscribe: String, site: String, paths: MailPaths) -> MailContent {
        var sections: [(heading: String, lines: [(text: String, link: String?)])] = []
        if !news.newOnLists.isEmpty {
            sections.append(("New on your favourite lists", news.newOnLists.map { entry in
                ("\(entry.title) by \(entry.author): #\(entry.rank) on \(entry.list)", site + paths.book(entry.bookID))
            }))
        }
        if !news.newFromAuthors.isEmpty {
            sections.append(("New from authors you follow", news.newFromAuthors.map { entry in
                ("\(entry.title) by \(entry.author): #\(entry.rank) on \(entry.list)", site + paths.book(entry.bookID))
            }))
        }
        if !news.wishlistMoves.isEmpty {
            sections.append(("Your wishlist on the lists", news.wishlistMoves.map { move in
                (wishlistLine(move), site + paths.book(move.bookID))
            }))
        }
        if !news.birthdays.isEmpty {
            sections.append(("Birthdays coming", news.birthdays.map { birthday in
                let when = birthday.daysAway == 0 ? "today" : birthday.daysAway == 1 ? "tomorrow" : "in \(birthday.daysAway) days"
                return ("\(birthday.name): \(birthday.date), \(when)", site + paths.person(birthday.username))
            }))
        }
        if !news.occasions.isEmpty {
            sections.append(("Occasions coming", news.occasions.map { occasion in
                let when = occasion.daysAway == 0 ? "today" : occasion.daysAway == 1 ? "tomorrow" : "in \(occasion.daysAway) days"
                return ("\(occasion.name)’s \(occasion.listName) list: \(when)", site + paths.personList(occasion.username, occasion.listID))
            }))
        }
        let subject = "Your week in books"
        let greeting = "Hello \(name), here is what happened this week."
        let footer = "You get this digest because you asked for it in Settings. To stop it, open this link: \(unsubscribe)"

        var text = greeting + "\n\n"
        var html = "<p>\(MailTexts.escape(greeting))</p>\n"
        for section in sections {
            text += section.heading + "\n" + String(repeating: "-", count: section.heading.count) + "\n"
            html += "<h2>\(MailTexts.escape(section.heading))</h2>\n<ul>\n"
            for line in section.lines {
                text += "- \(line.text)" + (line.link.map { "\n  \($0)" } ?? "") + "\n"
                let shown = MailTexts.escape(line.text)
                html += "<li>" + (line.link.map { "<a href=\"\(MailTexts.escape($0))\">\(shown)</a>" } ?? shown) + "</li>\n"
            }
            text += "\n"
            html += "</ul>\n"
        }
        text += footer + "\n\n" + MailTexts.signature
        html += "<p>You get this digest because you asked for it in Settings. <a href=\"\(MailTexts.escape(unsubscribe))\">Stop the weekly digest</a>.</p>\n"
        html += "<p>\(MailTexts.escape(MailTexts.signature))</p>\n"
        return MailContent(
            subject: subject, text: text, html: MailTexts.page(subject: subject, body: html),
            extraHeaders: [
                MailHeaderField(name: "List-Unsubscribe", value: "<\(unsubscribe)>"),
                MailHeaderField(name: "List-Unsubscribe-Post", value: "List-Unsubscribe=One-Click"),
            ]
        )
    }

    private static func wishlistLine(_ move: DigestNews.WishlistMove) -> String {
        switch move.kind {
        case .entered: return "\(move.title) entered \(move.list) at #\(move.rank)"
        case .left: return "\(move.title) left \(move.list) (it was #\(move.rank))"
        case .peaked: return "\(move.title) reached #\(move.rank) on \(move.list), its best yet"
        }
    }
}
