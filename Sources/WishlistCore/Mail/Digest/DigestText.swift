import WishlistLanguages

/// The weekly digest's words, in the recipient's language: up to five sections, a link to each
/// book on this server, and the one-click unsubscribe link in the headers (RFC 8058) and at the
/// foot. Titles, authors and the NYT's list names are book data and stay as they are.
enum DigestText {
    /// `site` is the server's public origin, before each of its `paths`.
    static func content(_ news: DigestNews, name: String, unsubscribe: String, site: String, paths: MailPaths, in translations: Translations) -> MailContent {
        var sections: [(heading: String, lines: [(text: String, link: String?)])] = []
        if !news.newOnLists.isEmpty {
            sections.append((translations.text("New on your favourite lists", context: "mail"), news.newOnLists.map { entry in
                (entryLine(title: entry.title, author: entry.author, rank: entry.rank, list: entry.list, in: translations), site + paths.book(entry.bookID))
            }))
        }
        if !news.newFromAuthors.isEmpty {
            sections.append((translations.text("New from authors you follow", context: "mail"), news.newFromAuthors.map { entry in
                (entryLine(title: entry.title, author: entry.author, rank: entry.rank, list: entry.list, in: translations), site + paths.book(entry.bookID))
            }))
        }
        if !news.wishlistMoves.isEmpty {
            sections.append((translations.text("Your wishlist on the lists", context: "mail"), news.wishlistMoves.map { move in
                (wishlistLine(move, in: translations), site + paths.book(move.bookID))
            }))
        }
        if !news.birthdays.isEmpty {
            sections.append((translations.text("Birthdays coming", context: "mail"), news.birthdays.map { birthday in
                (birthdayLine(birthday, in: translations), site + paths.person(birthday.username))
            }))
        }
        if !news.occasions.isEmpty {
            sections.append((translations.text("Occasions coming", context: "mail"), news.occasions.map { occasion in
                (occasionLine(occasion, in: translations), site + paths.personList(occasion.username, occasion.listID))
            }))
        }
        let subject = translations.text("Your week in books", context: "mail")
        let greeting = translations.text("Hello {name}, here is what happened this week.", context: "mail", values: ["name": name])
        let why = translations.text("You get this digest because you asked for it in Settings.", context: "mail")
        let footer = why + " " + translations.text("To stop it, open this link: {link}", context: "mail", values: ["link": unsubscribe])

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
        let stop = MailTexts.escape(translations.text("Stop the weekly digest", context: "mail"))
        html += "<p>\(MailTexts.escape(why)) <a href=\"\(MailTexts.escape(unsubscribe))\">\(stop)</a>.</p>\n"
        html += "<p>\(MailTexts.escape(MailTexts.signature))</p>\n"
        return MailContent(
            subject: subject, text: text, html: MailTexts.page(subject: subject, body: html, language: translations.language.code),
            extraHeaders: [
                MailHeaderField(name: "List-Unsubscribe", value: "<\(unsubscribe)>"),
                MailHeaderField(name: "List-Unsubscribe-Post", value: "List-Unsubscribe=One-Click"),
            ]
        )
    }

    private static func entryLine(title: String, author: String, rank: Int, list: String, in translations: Translations) -> String {
        translations.text("{title} by {author}: #{rank} on {list}", context: "mail", values: ["title": title, "author": author, "rank": String(rank), "list": list])
    }

    private static func wishlistLine(_ move: DigestNews.WishlistMove, in translations: Translations) -> String {
        let values = ["title": move.title, "list": move.list, "rank": String(move.rank)]
        switch move.kind {
        case .entered: return translations.text("{title} entered {list} at #{rank}", context: "mail", values: values)
        case .left: return translations.text("{title} left {list} (it was #{rank})", context: "mail", values: values)
        case .peaked: return translations.text("{title} reached #{rank} on {list}, its best yet", context: "mail", values: values)
        }
    }

    /// "ann: 14 March, in 3 days", the day and month in the language's words ("14. März").
    private static func birthdayLine(_ birthday: DigestNews.BirthdayComing, in translations: Translations) -> String {
        let date = Birthday(month: birthday.month, day: birthday.day)?.text(in: translations) ?? ""
        let values = ["name": birthday.name, "date": date]
        switch birthday.daysAway {
        case 0: return translations.text("{name}: {date}, today", context: "mail", values: values)
        case 1: return translations.text("{name}: {date}, tomorrow", context: "mail", values: values)
        default:
            return translations.text(one: "{name}: {date}, in {count} day", other: "{name}: {date}, in {count} days", count: birthday.daysAway, context: "mail", values: values)
        }
    }

    private static func occasionLine(_ occasion: DigestNews.OccasionComing, in translations: Translations) -> String {
        let values = ["name": occasion.name, "list": occasion.listName]
        switch occasion.daysAway {
        case 0: return translations.text("{name}’s {list} list: today", context: "mail", values: values)
        case 1: return translations.text("{name}’s {list} list: tomorrow", context: "mail", values: values)
        default:
            return translations.text(one: "{name}’s {list} list: in {count} day", other: "{name}’s {list} list: in {count} days", count: occasion.daysAway, context: "mail", values: values)
        }
    }
}
