import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 27: a disabled account's share link, feed, member page and reservable items still
/// answered. Disabling puts the account's data out of everyone's reach; enabling brings it back.
@Suite("Household: a disabled account's data is out of reach", .removesTemporaryDirectories)
struct DisabledAccountTests {
    @Test func sharedListFeedMemberPageAndReservationsAllStopWhileDisabled() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            let sharedPath = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/settings/share-link", []))
            try await maya.post("/lists/hardcover-fiction/favorite", [("return_to", "/lists")])
            let feedPath = try HistoryPagesTests.feedPath(in: try await maya.post("/settings/feed-link", []))
            var guest = TestBrowser(client: maya.client)
            #expect(try await guest.get(sharedPath).status == .ok)
            #expect(try await guest.get(feedPath).status == .ok)
            #expect(try await ana.get("/people/maya").status == .ok)
            #expect(try await ana.get("/people").text.contains(#"href="/people/maya""#))

            let mayaID = try await AdminHTTPTests.userID("maya", home.server)
            try await Self.setDisabled(true, mayaID, home.server)
            let unknown = try await ana.get("/people/nobody")
            let disabledPage = try await ana.get("/people/maya")
            #expect(disabledPage.status == .notFound && disabledPage.text == unknown.text, "as if there were no such member")
            #expect(!(try await ana.get("/people")).text.contains(#"href="/people/maya""#))
            #expect(try await guest.get(sharedPath).status == .notFound)
            #expect(try await guest.get(feedPath).status == .notFound)
            #expect(try await ana.reserve(home.itemIDs[0]).status == .notFound)
            #expect(try await home.reservationCount() == 0)

            try await Self.setDisabled(false, mayaID, home.server)
            let shared = try await guest.get(sharedPath)
            #expect(shared.status == .ok, "enabled again, everything is back")
            #expect(home.titles.allSatisfy(shared.shows), "the list itself, with its books")
            let feed = try await guest.get(feedPath)
            #expect(feed.status == .ok)
            #expect(feed.text.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\""), "the feed itself")
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
        }
    }

    @Test func aGiverSeesOnlyTheStoredTitleWhileTheOwnerIsDisabled() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            try await maya.post("/wishlist/\(home.itemIDs[0])", [("note", "Only-while-enabled note"), ("priority", "high")])
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            #expect(try await ana.get("/reservations").shows("Only-while-enabled note"))
            try await Self.setDisabled(true, try await AdminHTTPTests.userID("maya", home.server), home.server)
            let gifts = try await ana.get("/reservations")
            #expect(gifts.shows(home.titles[0]))
            #expect(!gifts.shows("Only-while-enabled note"))
        }
    }

    /// As `/admin`'s button does it, by an admin made for the purpose.
    static func setDisabled(_ disabled: Bool, _ userID: UserID, _ server: WishlistServer) async throws {
        let admin = try await server.database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user WHERE username = 'keeper'") }
        let adminID: UserID
        if let admin {
            adminID = admin
        } else {
            adminID = try await server.accounts.createUser(username: "keeper", password: "correct horse battery", isAdmin: true).id
        }
        try await Administration(database: server.database, clock: .system)
            .setDisabled(disabled, userID: userID, by: .init(userID: adminID, username: "keeper"))
    }
}
