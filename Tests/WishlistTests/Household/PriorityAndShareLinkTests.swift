import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Household: priorities and share links over HTTP", .removesTemporaryDirectories)
struct PriorityAndShareLinkTests {
    static func priority(of item: Int64, _ server: WishlistServer) async throws -> Int? {
        try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT priority FROM wishlist_item WHERE id = ?", arguments: [item]) }
    }

    @Test func aPriorityIsSavedWithTheNoteAndSortsTheWishlist() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])", [("note", "any edition"), ("priority", "low")]).status == .seeOther)
            #expect(try await maya.post("/wishlist/\(home.itemIDs[1])", [("note", ""), ("priority", "high")]).status == .seeOther)
            #expect(try await Self.priority(of: home.itemIDs[0], home.server) == -1)
            #expect(try await Self.priority(of: home.itemIDs[1], home.server) == 1)

            let page = try await maya.get("/wishlist?sort=priority")
            let order = home.titles.map { title in page.text.range(of: title.replacingOccurrences(of: "'", with: "&#39;"))!.lowerBound }
            #expect(order[1] < order[2] && order[2] < order[0], "high, then normal, then low")
            #expect(page.text.contains(#"<a href="/wishlist?sort=priority" aria-current="true">Priority</a>"#))
            #expect(page.shows("High priority") && page.shows("Normal priority") && page.shows("Low priority"))
            let item = try await maya.get("/wishlist/\(home.itemIDs[0])")
            #expect(item.text.contains(#"value="low" checked"#))

            // A form without the field (a page from before priorities) keeps the item's priority.
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])", [("note", "still any edition")]).status == .seeOther)
            #expect(try await Self.priority(of: home.itemIDs[0], home.server) == -1)
        }
    }

    @Test func anUnknownPriorityIsRefusedBesideTheFieldAndKeepsWhatWasTyped() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            let refused = try await maya.post("/wishlist/\(home.itemIDs[0])", [("note", "typed note"), ("priority", "urgent")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"<p class="field-error" id="priority-error"><span class="visually-hidden">Error: </span>Choose high, normal or low.</p>"#))
            #expect(refused.text.contains(">typed note</textarea>"))
            #expect(try await Self.priority(of: home.itemIDs[0], home.server) == 0)
            let note = try await home.server.database.pool.read { try String.fetchOne($0, sql: "SELECT note FROM wishlist_item WHERE id = ?", arguments: [home.itemIDs[0]]) }
            #expect(note == "")
            #expect(try await maya.get("/wishlist?sort=importance").status == .badRequest)
        }
    }

    @Test func theOthersSeePrioritiesAndTheMemberPageSortsByPriorityFirst() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            _ = try await maya.post("/wishlist/\(home.itemIDs[0])", [("note", "the blue cover"), ("priority", "high")])
            let page = try await ana.get("/people/maya")
            #expect(page.shows("High priority"))
            #expect(page.shows("the blue cover"))
            let first = try #require(page.text.firstMatch(of: /data-item="(\d+)"/)?.1)
            #expect(first == "\(home.itemIDs[0])"[...], "the high-priority book comes first")
        }
    }

    /// The link from the page that made it, as a path.
    static func sharedPath(in page: TestResponse) throws -> String {
        let link = try #require(page.text.firstMatch(of: /id="share-link-url" type="text" readonly value="http:\/\/[^\/"]+(\/shared\/[A-Za-z0-9_-]{43})"/)?.1)
        return String(link)
    }

    @Test func aShareLinkShowsTheListWithoutWhoReservedUntilReplacedOrRevoked() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            _ = try await maya.post("/wishlist/\(home.itemIDs[0])", [("note", "signed if possible"), ("priority", "high")])
            let made = try await maya.post("/settings/share-link", [])
            #expect(made.status == .ok)
            #expect(made.shows("Copy it now: it is shown only this once."))
            let path = try Self.sharedPath(in: made)
            #expect(!(try await maya.get("/settings/sharing")).text.contains(path), "shown once, then only its date")

            try await maya.share()
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            _ = try await ana.reserve(home.itemIDs[1])

            var guest = TestBrowser(client: browser.client)
            let shared = try await guest.get(path)
            #expect(shared.status == .ok)
            for title in home.titles { #expect(shared.shows(title)) }
            #expect(shared.shows("signed if possible") && shared.shows("High priority"))
            // Ana's reservation is "Reserved", naming no one; the open ones a guest may reserve (issue 57).
            #expect(shared.text.contains(#"id="guest-reserved-\#(home.itemIDs[1])""#) && !shared.shows("ana"))
            #expect(shared.text.components(separatedBy: #"class="form guest-reserve-form""#).count == home.titles.count)
            #expect(shared.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(shared.text.contains(#"<meta name="robots" content="noindex">"#))
            #expect(!shared.text.contains(#"href="/books/"#), "no links into pages that need an account")

            let replaced = try await maya.post("/settings/share-link", [])
            let newPath = try Self.sharedPath(in: replaced)
            #expect(newPath != path)
            #expect(try await guest.get(path).status == .notFound)
            #expect(try await guest.get(newPath).status == .ok)
            #expect(try await maya.post("/settings/share-link/delete", []).location == "/settings/sharing?done=share-link-revoked#flash")
            let revoked = try await guest.get(newPath)
            #expect(revoked.status == .notFound)
            #expect(revoked.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(revoked.text == (try await guest.get("/shared/" + String(repeating: "A", count: 43))).text)
            #expect(try await guest.get("/shared/short").status == .notFound)
        }
    }

    @Test func theShareLinksTokenNeverReachesTheLog() async throws {
        let log = LogCapture()
        let server = try await WishlistServer.build(config: try TestApp.config(), logger: log.logger)
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            let path = try Self.sharedPath(in: try await browser.post("/settings/share-link", []))
            var guest = TestBrowser(client: browser.client)
            #expect(try await guest.get(path).status == .ok)
            let token = String(path.dropFirst("/shared/".count))
            // Issue 27: the router serves these spellings too, and they reached the log whole.
            for spelling in ["//shared/\(token)", "/shared//\(token)", "//shared/\(token)/", "/%73hared/\(token)", "//shared/\(token)/more"] {
                _ = try await guest.get(spelling)
            }
            #expect(log.all.contains { $0.contains("GET /shared/… 200") })
            #expect(!log.all.contains { $0.contains(token) })
        }
        let stored = try await server.database.pool.read { try Data.fetchOne($0, sql: "SELECT token_hash FROM share_link") }
        #expect(stored?.count == 32, "only the token's SHA-256 is kept")
    }
}
