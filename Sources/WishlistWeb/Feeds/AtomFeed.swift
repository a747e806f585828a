import CivilTime
import Foundation
import WishlistCore
import WishlistLanguages

/// An Atom 1.0 document (RFC 4287) of the books new on a user's favourite lists, or by the authors
/// she follows: one entry per book per edition, dated by the edition's publication so a refresh
/// never changes an entry.
struct AtomFeed {
    let id: String
    let title: String
    let subtitle: String
    /// The scheme and host the reader used, for absolute links.
    let origin: String
    let selfPath: String
    /// When nothing is in the feed: a fixed date (the link's making), so polling sees no change.
    let emptyUpdated: Date
    let entries: [NewEntry]
    /// The owner's language (``FeedController/feedLanguage(_:_:)``): the entries' words and dates.
    let translations: Translations

    var updated: String { entries.map(\.publishedDate).max().map(Self.timestamp) ?? Self.timestamp(emptyUpdated) }

    var xml: String {
        var lines = [
            #"<?xml version="1.0" encoding="utf-8"?>"#,
            #"<feed xmlns="http://www.w3.org/2005/Atom">"#,
            "  <id>\(Self.escaped(id))</id>",
            "  <title>\(Self.escaped(title))</title>",
            "  <subtitle>\(Self.escaped(subtitle))</subtitle>",
            "  <updated>\(Self.escaped(updated))</updated>",
            #"  <link rel="self" type="application/atom+xml" href="\#(Self.escaped(origin + selfPath))"/>"#,
            #"  <link rel="alternate" type="text/html" href="\#(Self.escaped(origin + SitePath.catalog))"/>"#,
            "  <author><name>Bestseller Wishlist</name></author>",
            "  <generator>Bestseller Wishlist</generator>",
        ]
        lines += entries.map(entry)
        lines.append("</feed>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func entry(_ entry: NewEntry) -> String {
        let title = entry.book.author.isEmpty
            ? entry.book.title : translations.text("{title} by {author}", values: ["title": entry.book.title, "author": entry.book.author])
        let values = ["rank": String(entry.rank), "list": entry.displayName, "date": Self.longDate(entry.publishedDate, in: translations.language)]
        let summary = entry.isReturning
            ? translations.text("Back at #{rank} on {list} in the edition of {date}.", values: values)
            : translations.text("New at #{rank} on {list} in the edition of {date}.", values: values)
        return """
              <entry>
                <id>\(Self.escaped(entry.uniformName))</id>
                <title>\(Self.escaped(title))</title>
                <updated>\(Self.escaped(Self.timestamp(entry.publishedDate)))</updated>
                <link rel="alternate" type="text/html" href="\(Self.escaped(origin + SitePath.book(entry.book.id)))"/>
                <category term="\(Self.escaped(entry.listNameEncoded))" label="\(Self.escaped(entry.displayName))"/>
                <summary>\(Self.escaped(summary))</summary>
              </entry>
            """
    }

    /// An edition's `yyyy-MM-dd` in the language's long pattern: "October 25, 2026", "25. Oktober 2026".
    static func longDate(_ date: String, in language: LanguageData) -> String {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return date }
        let day = CivilDateTime.daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
        return language.formatted(CivilDateTime(Date(timeIntervalSince1970: TimeInterval(day) * 86_400)), style: .long)
    }

    /// An edition's date as an RFC 3339 timestamp: midnight UTC of its publication day.
    static func timestamp(_ date: String) -> String { date + "T00:00:00Z" }

    static func timestamp(_ date: Date) -> String {
        CivilDateTime(date).rfc3339
    }

    /// Text for element content and double-quoted attributes. Characters XML 1.0 forbids (C0
    /// controls other than tab and newlines) cannot come from the catalog, but are dropped anyway.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
