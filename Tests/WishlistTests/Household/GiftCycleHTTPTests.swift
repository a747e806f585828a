import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("The gift cycle over HTTP: bought, cards, received, given", .removesTemporaryDirectories)
struct GiftCycleHTTPTests {
    @Test func aGiverMarksAGiftBoughtTheOthersSeeItAndOnlyTheGiverCanChangeIt() async throws {
        let home = try await Household.make()
        let item = home.itemIDs[0]
        try await home.run { maya, ana, ben in
            #expect(try await ben.post("/reservations/\(item)/bought", []).status == .notFound, "nothing reserved: nothing to buy")
            _ = try await ana.reserve(item)
            #expect(try await ben.post("/reservations/\(item)/bought", []).status == .notFound, "someone else's reservation")
            #expect(try await maya.post("/reservations/\(item)/bought", []).status == .notFound, "the owner holds none")
            let bought = try await ana.post("/reservations/\(item)/bought", [("return_to", "/people/maya")])
            #expect(bought.location == "/people/maya#flash")
            #expect(try await ben.get("/people/maya").shows("Bought by ana"))
            #expect(try await ana.get("/people/maya").shows("Bought by you"))
            let again = try await ana.post("/reservations/\(item)/bought", [])
            #expect(again.status == .conflict)
            #expect(again.shows("You had already marked this gift bought, so nothing changed."))
            #expect(try await ana.post("/reservations/\(item)/bought/delete", []).status == .seeOther)
            #expect(try await ben.get("/people/maya").shows("Reserved by ana"))
        }
    }

    @Test func pressedTwiceAtOnceExactlyOneWinsAndTheOtherIsTold() async throws {
        let home = try await Household.make()
        let store = HouseholdStore(database: home.server.database)
        let wishlist = WishlistStore(database: home.server.database)
        let (maya, ana) = try await home.server.database.pool.read { db in
            (try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'maya'")!, try UserID.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'ana'")!)
        }
        try await HouseholdStore(database: home.server.database).setSharing(userID: maya, .household)
        let item = ItemID(home.itemIDs[0])
        _ = try await store.reserve(itemID: item, giverID: ana, at: Date())
        async let first = store.markBought(itemID: item, giverID: ana, true, at: Date())
        async let second = store.markBought(itemID: item, giverID: ana, true, at: Date())
        #expect(Set([try await first, try await second]) == [.changed, .unchanged])
        let ben = try await home.server.database.pool.read { try UserID.fetchOne($0, sql: "SELECT id FROM user WHERE username = 'ben'")! }
        let idea = try await GiftIdeasHTTPTests.unwishedBook(home)
        async let suggested = store.suggest(bookID: idea.id, for: maya, by: ana, note: "", at: Date())
        async let suggestedAgain = store.suggest(bookID: idea.id, for: maya, by: ben, note: "", at: Date())
        let suggestions = [try await suggested, try await suggestedAgain]
        #expect(suggestions.filter { $0 == .suggested }.count == 1 && suggestions.contains { if case .alreadySuggested = $0 { true } else { false } })
        let ideaID = try await home.server.database.pool.read { try IdeaID.fetchOne($0, sql: "SELECT id FROM gift_idea")! }
        async let reservedIdea = store.reserveIdea(ideaID: ideaID, giverID: ana, at: Date())
        async let reservedIdeaToo = store.reserveIdea(ideaID: ideaID, giverID: ben, at: Date())
        let reservations = [try await reservedIdea, try await reservedIdeaToo]
        #expect(reservations.filter { $0 == .reserved }.count == 1 && reservations.contains { if case .takenBy = $0 { true } else { false } })
        async let received = wishlist.markReceived(itemID: item, userID: maya, at: Date())
        async let receivedAgain = wishlist.markReceived(itemID: item, userID: maya, at: Date())
        let outcomes = [try await received, try await receivedAgain]
        #expect(outcomes.filter { $0 != nil }.count == 1, "one move; the other finds nothing to move")
    }

    @Test func aCardIsTheGiversToWriteAndUpTo500Characters() async throws {
        let home = try await Household.make()
        let item = home.itemIDs[0]
        try await home.run { maya, ana, ben in
            _ = try await ana.reserve(item)
            #expect(try await ben.post("/reservations/\(item)/card", [("message", "Ben's words")]).status == .notFound)
            let long = try await ana.post("/reservations/\(item)/card", [("message", String(repeating: "c", count: 501))])
            #expect(long.status == .unprocessableContent)
            #expect(long.shows("A card can be up to 500 characters; this one has 501."))
            #expect(try await ana.post("/reservations/\(item)/card", [("message", String(repeating: "c", count: 500))]).status == .seeOther)
            #expect(try await ana.get("/people/maya").text.contains(String(repeating: "c", count: 500) + "</textarea>"))
            let removed = try await ana.post("/reservations/\(item)/card", [("message", "  ")])
            #expect(try await ana.follow(removed).shows("Your card is removed: the gift stays anonymous."), "empty removes it")
            let stored = try await home.server.database.pool.read { try String.fetchOne($0, sql: "SELECT card FROM reservation") }
            #expect(stored == "")
        }
    }

    @Test func whenTheOwnerGetsItTheCardsAreHersAndTheGiversSeeItGiven() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, ben in
            _ = try await ana.reserve(home.itemIDs[0])
            _ = try await ana.post("/reservations/\(home.itemIDs[0])/card", [("message", "For the train, love Ana")])
            _ = try await ben.reserve(home.itemIDs[1])
            #expect(try await ana.post("/wishlist/\(home.itemIDs[0])/received", []).status == .notFound, "only the owner gets it")
            #expect(try await maya.get("/wishlist/received").text.contains(#"id="received-empty""#))

            for item in home.itemIDs.prefix(2) {
                let received = try await maya.post("/wishlist/\(item)/received", [])
                #expect(received.location == "/wishlist/received")
            }
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/received", []).status == .notFound, "twice is nothing")
            let page = try await maya.get("/wishlist/received")
            #expect(page.shows("2 books"))
            #expect(page.text.contains("For the train, love Ana"))
            #expect(page.shows("From ana"))
            #expect(!page.text.contains("ben"), "a giver who wrote no card stays anonymous")
            let wishlist = try await maya.get("/wishlist")
            #expect(!wishlist.text.contains(home.titles[0]) && wishlist.text.contains(home.titles[2]))

            let anasGifts = try await ana.get("/reservations")
            #expect(anasGifts.text.contains(#"id="given""#))
            #expect(anasGifts.shows("got “\(home.titles[0])”"))
            #expect(anasGifts.shows("Your card: “For the train, love Ana”"))
            #expect(try await ana.post("/reservations/\(home.itemIDs[0])/delete", []).status == .notFound, "a given gift cannot be cancelled")
            #expect(try await ana.post("/reservations/\(home.itemIDs[0])/bought", []).status == .notFound)
        }
    }

    /// Issue 50: "I got it" shows her the cards, so moving the book back cannot be an undo that
    /// leaves its givers thinking the gift is still a surprise. She wishes for it again: a new
    /// wish, free to reserve, while the received book keeps its card and its givers their gift
    /// as given, and are told.
    @Test func aReceivedBookWishedForAgainIsANewWishAndItsGiversKeepItGiven() async throws {
        let home = try await Household.make()
        let item = home.itemIDs[0]
        try await home.run { maya, ana, ben in
            _ = try await ana.reserve(item)
            _ = try await ana.post("/reservations/\(item)/bought", [])
            _ = try await ana.post("/reservations/\(item)/card", [("message", "Happy reading, love Ana")])
            _ = try await maya.post("/wishlist/\(item)/received", [])
            #expect(try await ana.post("/wishlist/received/\(item)/restore", []).status == .notFound, "only hers to wish for again")

            let again = try await maya.post("/wishlist/received/\(item)/restore", [])
            #expect(again.location == "/wishlist")
            let wish = try await home.server.database.pool.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM wishlist_item WHERE book_id = (SELECT book_id FROM received_item WHERE id = ?)", arguments: [item])
            }
            #expect(wish != nil && wish != item, "a new wish, not the received item back")
            #expect(try await maya.get("/wishlist/\(item)").status == .notFound)
            let received = try await maya.get("/wishlist/received")
            #expect(received.shows("1 book") && received.text.contains("Happy reading, love Ana"), "it stays received, with its card")
            #expect(try await maya.post("/wishlist/received/\(item)/restore", []).status == .conflict, "the book is on her wishlist already")

            let gifts = try await ana.get("/reservations")
            #expect(gifts.text.contains(#"id="given""#) && gifts.shows("got “\(home.titles[0])”"), "Ana's gift stays given")
            #expect(gifts.shows("maya put it back on the wishlist on"), "and she is told it is wished for again")
            #expect(try await ana.post("/reservations/\(item)/delete", []).status == .notFound, "a given gift cannot be cancelled")
            let bens = try await ben.get("/people/maya")
            #expect(!bens.shows("Bought by ana") && !bens.shows("Reserved by ana"), "the new wish carries nothing of Ana's")
            #expect(try await ben.reserve(wish!).status == .seeOther, "the new wish is free to reserve")

            // When the new wish arrives, it brings only its own givers' cards.
            _ = try await maya.post("/wishlist/\(wish!)/received", [])
            let both = try await maya.get("/wishlist/received")
            #expect(both.shows("2 books") && both.text.ranges(of: "Happy reading, love Ana").count == 1)

            // A list turned private tells its givers nothing more of her wishes.
            try await maya.share("private")
            #expect(!(try await ana.get("/reservations").shows("put it back on the wishlist")))
        }
    }
}
