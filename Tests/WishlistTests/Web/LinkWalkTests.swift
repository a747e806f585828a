import Foundation
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 55: every internal link a page shows leads somewhere. Members with data (a shared list,
/// a reservation, a gift idea, a book read, an author followed, the admin) walk the site from its
/// navigation, breadth first, and every `href` they are shown is asked for: a 2xx or a 3xx. No
/// page shows an empty link or form target, what a template's misspelt `…_path` value prints.
@Suite("Every link leads somewhere", .removesTemporaryDirectories)
struct LinkWalkTests {
    /// Enough to reach every kind of page from the navigation (a list, a book, an author, a
    /// member, settings' sections) without asking for each of the sample catalog's pages.
    static let pagesPerMember = 300
    static let navigation = ["/", "/lists", "/wishlist", "/people", "/reservations", "/reading", "/settings"]

    @Test func everyInternalLinkOfEveryPageAnswers2xxOr3xx() async throws {
        let home = try await Household.make()
        try await Administration(database: home.server.database, clock: .system).setAdmin(true, username: "maya")
        let bookIDs = try await home.bookIDs()
        let broken = try await home.run(sharing: [.maya, .ana]) { maya, ana, ben in
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            let idea = try await CatalogStore(database: home.server.database).list(named: "hardcover-fiction")!.1.map(\.book.id)
                .first { !bookIDs.contains($0) }!
            #expect(try await ben.post("/people/maya/ideas", [("book", idea), ("note", "")]).status == .seeOther)
            #expect(try await maya.post("/books/\(bookIDs[1])/reading", [("rating", "4")]).status == .seeOther)
            let walks = [try await Self.walk(&maya, from: Self.navigation + ["/admin"]), try await Self.walk(&ana, from: Self.navigation)]
            let asked = walks.reduce(into: Set<String>()) { $0.formUnion($1.asked) }
            for kind in ["/lists/", "/books/", "/authors/", "/people/maya", "/people/maya/ideas", "/settings/", "/admin"] {
                #expect(asked.contains { $0.hasPrefix(kind) }, "the walk reached no page under \(kind)")
            }
            return walks.flatMap(\.broken)
        }
        #expect(broken.isEmpty, "links that lead nowhere: \(broken)")
    }

    /// Asks for every page reachable from `start`, breadth first, up to ``pagesPerMember``; answers
    /// the paths asked for, and the links that did not answer 2xx or 3xx, each with the page that showed it.
    static func walk(_ browser: inout TestBrowser, from start: [String]) async throws -> (asked: [String], broken: [String]) {
        var queue = start.map { ($0, "the navigation") }
        var seen = Set(start)
        var broken: [String] = []
        var asked: [String] = []
        while !queue.isEmpty, asked.count < pagesPerMember {
            let (path, from) = queue.removeFirst()
            asked.append(path)
            let response = try await browser.get(path)
            guard (200..<400).contains(response.status.code) else {
                broken.append("\(path) (\(response.status.code), linked from \(from))")
                continue
            }
            guard response.headers[.contentType]?.hasPrefix("text/html") == true else { continue }
            if let empty = response.text.firstMatch(of: /<[^<>]*(?:href|action|formaction)=""[^<>]*>/) {
                broken.append("\(path) shows a link or a form with no target: \(empty.output)")
            }
            for link in links(in: response.text) where seen.insert(link).inserted {
                queue.append((link, path))
            }
        }
        return (asked, broken)
    }

    /// The page's internal links (`href="/…"`), without their fragment; `/logout` and the like are
    /// forms, not links.
    static func links(in html: String) -> [String] {
        html.matches(of: /href="(\/[^"\/][^"]*|\/)"/).compactMap { match in
            let link = String(match.1).replacingOccurrences(of: "&amp;", with: "&")
            let path = String(link.prefix { $0 != "#" })
            return path.isEmpty ? nil : path
        }
    }
}
