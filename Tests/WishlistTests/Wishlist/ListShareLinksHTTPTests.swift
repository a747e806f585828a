import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Share links per list (issue 57, migration 34): each of a member's lists has its own link,
/// which shows that list's wants alone; Settings → Sharing's link is the default list's.
@Suite("Lists: a share link for each list over HTTP", .removesTemporaryDirectories)
struct ListShareLinksHTTPTests {
    static func linkCount(_ server: WishlistServer) async throws -> Int {
        try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM share_link") ?? 0 }
    }

    @Test func eachListsLinkShowsOnlyItsWantsAndIsReplacedOrRevokedOnItsOwn() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let birthday = try await WishListsHTTPTests.makeList(&maya, "Birthday", occasion: "birthday")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "\(birthday)")]).status == .seeOther)
            let wishlistPath = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/settings/share-link", []))
            let made = try await maya.post("/wishlist/lists/\(birthday)/share-link", [])
            #expect(made.status == .ok && made.shows("Copy it now: it is shown only this once."))
            let birthdayPath = try PriorityAndShareLinkTests.sharedPath(in: made)
            let edit = try await maya.get("/wishlist/lists/\(birthday)")
            #expect(edit.text.contains(#"id="share-link-state""#) && !edit.text.contains(birthdayPath), "shown once, then only its date")

            var guest = TestBrowser(client: maya.client)
            let birthdayPage = try await guest.get(birthdayPath)
            #expect(birthdayPage.status == .ok && birthdayPage.shows("maya’s Birthday"))
            #expect(birthdayPage.shows(home.titles[0]) && !birthdayPage.shows(home.titles[1]) && !birthdayPage.shows(home.titles[2]))
            #expect(birthdayPage.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            let wishlistPage = try await guest.get(wishlistPath)
            #expect(wishlistPage.shows("maya’s wishlist"))
            #expect(!wishlistPage.shows(home.titles[0]) && wishlistPage.shows(home.titles[1]) && wishlistPage.shows(home.titles[2]))

            // Replacing or revoking one list's link leaves the other's working.
            let newBirthdayPath = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/wishlist/lists/\(birthday)/share-link", []))
            #expect(try await guest.get(birthdayPath).status == .notFound)
            #expect(try await guest.get(newBirthdayPath).status == .ok)
            let revoked = try await maya.post("/wishlist/lists/\(birthday)/share-link/delete", [])
            #expect(revoked.location == "/wishlist/lists/\(birthday)")
            #expect(!(try await maya.get("/wishlist/lists/\(birthday)")).text.contains(#"id="share-link-state""#))
            #expect(try await guest.get(newBirthdayPath).status == .notFound)
            #expect(try await guest.get(wishlistPath).status == .ok)
            #expect(try await Self.linkCount(home.server) == 1)
        }
    }

    @Test func anotherMembersListOrNoListIsRefusedWithTheSame404() async throws {
        let home = try await Household.make()
        try await home.run(sharing: [.maya, .ana]) { maya, ana, _ in
            let mayas = try await maya.get("/wishlist/lists/1")
            #expect(mayas.status == .ok && mayas.text.contains(#"action="/wishlist/lists/1/share-link""#))
            for path in ["/wishlist/lists/1/share-link", "/wishlist/lists/1/share-link/delete", "/wishlist/lists/999/share-link", "/wishlist/lists/x/share-link"] {
                let refused = try await ana.post(path, [])
                #expect(refused.status == .notFound && refused.shows("That list isn’t one of yours."), "\(path)")
            }
            #expect(try await Self.linkCount(home.server) == 0)
            // Her own link on her list, then Maya's revoke aimed at it, takes nothing.
            _ = try await ana.post("/wishlist/lists/2/share-link", [])
            #expect(try await maya.post("/wishlist/lists/2/share-link/delete", []).status == .notFound)
            #expect(try await Self.linkCount(home.server) == 1)
        }
    }

    @Test func deletingAListRevokesItsLink() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let birthday = try await WishListsHTTPTests.makeList(&maya, "Birthday")
            let path = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/wishlist/lists/\(birthday)/share-link", []))
            var guest = TestBrowser(client: maya.client)
            #expect(try await guest.get(path).status == .ok)
            #expect(try await maya.post("/wishlist/lists/\(birthday)/delete", []).status == .seeOther)
            let gone = try await guest.get(path)
            #expect(gone.status == .notFound && gone.shows("This link doesn’t work"))
            #expect(try await Self.linkCount(home.server) == 0)
        }
    }

    /// docs/decisions/share-links-per-list.md: a private list's link shows nothing while it is
    /// private, and the same link works again once the household sees the list.
    @Test func aPrivateListsLinkShowsNothingUntilTheListIsSharedAgain() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let someday = try await WishListsHTTPTests.makeList(&maya, "Someday", visibility: "private")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "\(someday)")]).status == .seeOther)
            let made = try await maya.post("/wishlist/lists/\(someday)/share-link", [])
            #expect(made.shows("While the list is only yours, the link shows nothing."))
            let path = try PriorityAndShareLinkTests.sharedPath(in: made)
            var guest = TestBrowser(client: maya.client)
            let hidden = try await guest.get(path)
            #expect(hidden.status == .notFound && !hidden.shows(home.titles[0]))
            #expect(hidden.text == (try await guest.get("/shared/" + String(repeating: "A", count: 43))).text, "the same page as no link")
            #expect(try await maya.post("/wishlist/lists/\(someday)", [("name", "Someday"), ("occasion", "none"), ("visibility", "household")]).status == .seeOther)
            #expect(try await guest.get(path).shows(home.titles[0]))
        }
    }
}
