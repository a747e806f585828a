import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Household: sharing and gift reservations over HTTP", .removesTemporaryDirectories)
struct HouseholdHTTPTests {
    @Test func peopleComeAHundredAPageFoundByNameOnceThereIsMoreThanAPage() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            try await home.server.database.pool.write { db in
                // 248 who share and 10 who do not, written straight to the table.
                for number in 1...258 {
                    let name = "friend" + String(1000 + number).dropFirst()
                    try db.execute(
                        sql: "INSERT INTO user (username, username_key, password_hash, created_at, sharing) VALUES (?, ?, 'not-a-hash', ?, ?)",
                        arguments: [name, name, Date(), number <= 248 ? "household" : "private"]
                    )
                }
            }
            let small = try await ana.get("/people")
            #expect(small.text.matches(of: /<li class="person"/).count == 100)
            #expect(small.shows("1–100 of 248 people."), "ana herself is not counted, nor those who keep their lists private")
            #expect(small.text.contains(#"<a rel="next" id="people-next" href="/people?page=2">"#))
            let last = try await ana.get("/people?page=3")
            #expect(last.text.matches(of: /<li class="person"/).count == 48)
            #expect(last.shows("201–248 of 248 people."))
            #expect(last.text.contains(#"<a rel="prev" id="people-previous" href="/people?page=2">"#))
            #expect(try await ana.get("/people?page=7").shows("201–248 of 248 people."), "past the end: the last page")
            #expect(try await ana.get("/people?page=zero").status == .badRequest)
            let found = try await ana.get("/people?q=Friend24")
            #expect(found.text.matches(of: /<li class="person"/).count == 9, "friend240 to friend248")
            #expect(found.shows("1–9 of 9 people whose names contain “Friend24”."))
            let none = try await ana.get("/people?q=friend250")
            #expect(none.shows("Nobody who shares has a name containing “friend250”."), "friend250 keeps a private list")
            #expect(!none.text.contains("people-empty"))
        }
    }

    @Test func aHouseholdOfAFewSeesItsPeopleWithoutASearch() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            #expect(try await maya.post("/settings/sharing", [("sharing", "household")]).status == .seeOther)
            var reader = try await TestBrowser.signedIn("ana", like: browser)
            let ana = try await reader.get("/people")
            #expect(ana.text.contains(#"href="/people/maya""#))
            #expect(!ana.text.contains("people-search") && !ana.text.contains("people-shown") && !ana.text.contains("rel=\"next\""))
        }
    }

    @Test func aListIsPrivateUntilItsOwnerSharesItAndPrivateAgainHidesItAtOnce() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            let unknown = try await ana.get("/people/nobody")
            let hidden = try await ana.get("/people/maya")
            #expect(hidden.status == .notFound)
            #expect(hidden.text == unknown.text, "a private member looks exactly like one who does not exist")
            #expect(!(try await ana.get("/people")).text.contains("/people/maya"))

            var maya = try await TestBrowser.signedIn("maya", like: browser)
            #expect((try await maya.get("/settings/sharing")).text.contains(#"id="sharing-private" name="sharing" value="private" aria-describedby="sharing-private-hint" checked"#))
            try await maya.share()
            let people = try await ana.get("/people")
            #expect(people.text.contains(#"<a class="person-link" href="/people/maya">maya</a>"#))
            #expect(people.shows("3 books"))
            let list = try await ana.get("/people/MAYA")
            #expect(list.status == .ok, "names are case-insensitive")
            for title in home.titles { #expect(list.shows(title)) }
            #expect(list.text.components(separatedBy: "Reserve as a gift").count == 4)

            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            try await maya.share("private")
            #expect(try await ana.get("/people/maya").status == .notFound)
            #expect(try await ana.reserve(home.itemIDs[1]).status == .notFound, "a private list's books cannot be reserved")
            let gifts = try await ana.get("/reservations")
            #expect(gifts.shows("maya’s list is private for now. Your reservations are kept in case it is shared again; until then you see only the book you reserved."))
            try await maya.share()
            #expect((try await ana.get("/people/maya")).text.contains("Reserved by you"), "the reservation survived")
        }
    }

    /// Issue 27: "Gifts I'm giving" kept showing the current note and priority of a reservation
    /// whose list had turned private, so a giver went on reading it.
    @Test func aGiverSeesOnlyTheStoredTitleOnceTheListTurnsPrivate() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            try await maya.share("private")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])", [("note", "Secret-after-private note"), ("priority", "low")]).status == .seeOther)

            let gifts = try await ana.get("/reservations")
            #expect(gifts.shows(home.titles[0]), "the stored title stays")
            #expect(!gifts.text.contains("Secret-after-private note"), "the note written while private is not shown")
            #expect(!gifts.text.contains("Low priority") && !gifts.text.contains("Normal priority"), "nor any priority")
            #expect(gifts.text.contains("/reservations/\(home.itemIDs[0])/delete"), "the reservation can still be cancelled")

            try await maya.share()
            let shared = try await ana.get("/reservations")
            #expect(shared.shows("Secret-after-private note") && shared.shows("Low priority"), "shared again, the list is readable again")
        }
    }

    @Test func yourOwnNameLeadsToYourWishlistAndBadSharingValuesAreRefused() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            let own = try await maya.get("/people/maya")
            #expect(own.status == .seeOther)
            #expect(own.location == "/wishlist")
            #expect(!(try await maya.get("/people")).text.contains("/people/maya"), "People lists the others")
            let bad = try await maya.post("/settings/sharing", [("sharing", "everyone")])
            #expect(bad.status == .badRequest)
            #expect(bad.shows("Choose who may see your wishlist: only you, or everyone on this server."))
            #expect(bad.text.contains(#"id="sharing-form""#), "the Sharing page again, with the problem on it")
            #expect(try await HouseholdStore(database: home.server.database).sharing(userID: UserID(1)) == .household, "nothing changed")
            #expect(try await ana.get("/people/maya?sort=shelf").status == .badRequest)
        }
    }

    @Test func aReservedBookShowsWhoReservedItToOtherGiversAndRefusesASecondReservation() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, ben in

            let reserved = try await ana.reserve(home.itemIDs[1])
            #expect(reserved.status == .seeOther)
            #expect(reserved.location == "/people/maya#flash")
            let flash = try #require(reserved.headers[values: .setCookie].first { $0.hasPrefix("wishlist_flash=") })
            let confirmed = try await ana.get("/people/maya", headers: [.cookie: "wishlist_session=\(ana.sessionCookie!); \(flash.prefix { $0 != ";" })"])
            #expect(confirmed.shows("You reserved “\(home.titles[1])” as a gift for maya."))
            #expect(confirmed.text.contains("Reserved by you"))
            // A line drawing, not the gift emoji, which some systems draw as an empty box.
            #expect(confirmed.text.contains(#"<p class="reserved-mark reserved-by-you"><svg class="icon""#) && !confirmed.text.contains("🎁"))

            let seenByBen = try await ben.get("/people/maya")
            #expect(seenByBen.shows("Reserved by ana"))
            #expect(!seenByBen.text.contains("Reserved by you"))
            let refused = try await ben.reserve(home.itemIDs[1], returnTo: "/reservations")
            #expect(refused.status == .conflict)
            #expect(refused.shows("ana has already reserved this book as a gift, so it can’t be reserved twice."))
            #expect(!refused.text.contains(#"id="member-items""#), "from elsewhere than Maya's page, the plain error page")
            let twice = try await ana.reserve(home.itemIDs[1])
            #expect(twice.status == .conflict)
            #expect(twice.shows("You have already reserved this book as a gift, so nothing changed."))
            #expect(try await home.reservationCount() == 1)

            let gifts = try await ana.get("/reservations")
            #expect(gifts.shows("For "))
            #expect(gifts.shows(home.titles[1]))
            #expect(gifts.shows("1 book"))
        }
    }

    @Test func aReservationThatLostTheRaceReturnsToTheListSayingWhoWasQuickerOnThatCard() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, ben in
            let before = try await maya.get("/wishlist").text
            #expect(try await ana.reserve(home.itemIDs[1]).status == .seeOther)

            let lost = try await ben.reserve(home.itemIDs[1], returnTo: "/people/maya?sort=title")
            #expect(lost.status == .conflict, "the status still says it was refused")
            #expect(lost.text.contains(#"id="member-items""#), "Maya's list again, to pick another")
            let card = try #require(WishlistHTTPTests.card("item-\(home.itemIDs[1])", on: lost))
            #expect(card.contains("Already reserved by ana — pick another."))
            #expect(card.contains(#"class="flash flash-error" id="flash""#))
            #expect(lost.text.ranges(of: #"id="flash""#).count == 1)
            #expect(lost.text.contains(#"aria-current="true">Title</a>"#), "in the order Ben had")
            #expect(try await home.reservationCount() == 1)

            // The owner cannot lose the race on her own book, and learns nothing of it.
            #expect(try await maya.reserve(home.itemIDs[1]).status == .notFound)
            #expect(try await maya.get("/wishlist").text == before, "Maya's page is as it was")
        }
    }

    @Test func reservingYourOwnAPrivateOrAnUnknownItemIs404AndChangesNothing() async throws {
        let home = try await Household.make()
        try await home.run(sharing: []) { maya, ana, _ in
            #expect(try await ana.reserve(home.itemIDs[0]).status == .notFound, "Maya's list is private")
            try await maya.share()
            let own = try await maya.reserve(home.itemIDs[0])
            #expect(own.status == .notFound)
            #expect(own.shows("That book isn’t on a wishlist shared with you, so nothing was reserved."))
            for item in ["999999", "0", "-1", "abc", "", String(repeating: "9", count: 30)] {
                #expect(try await ana.post("/reservations", [("item", item)]).status == .notFound, "item \(item)")
            }
            #expect(try await home.reservationCount() == 0)
        }
    }

    @Test func onlyTheGiverCancelsTheirReservation() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, ben in
            _ = try await ana.reserve(home.itemIDs[0])
            for response in [
                try await ben.post("/reservations/\(home.itemIDs[0])/delete", []),
                try await maya.post("/reservations/\(home.itemIDs[0])/delete", []),
                try await ben.post("/reservations/\(home.itemIDs[2])/delete", []),
                try await ben.post("/reservations/nonsense/delete", []),
            ] {
                #expect(response.status == .notFound)
                #expect(response.shows("You haven’t reserved that book, so there was nothing to cancel."))
            }
            #expect(try await home.reservationCount() == 1)
            let cancelled = try await ana.post("/reservations/\(home.itemIDs[0])/delete", [("return_to", "/reservations")])
            #expect(cancelled.status == .seeOther)
            #expect(cancelled.location == "/reservations#flash")
            #expect(try await home.reservationCount() == 0)
            #expect(try await ben.reserve(home.itemIDs[0]).status == .seeOther, "the book is free again")
        }
    }

    @Test func whenTheOwnerRemovesAReservedBookTheGiverIsToldUntilTheyDismissIt() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, ben in
            _ = try await ana.reserve(home.itemIDs[2])
            #expect(try await maya.post("/wishlist/\(home.itemIDs[2])/delete", []).status == .seeOther)

            let gifts = try await ana.get("/reservations")
            #expect(gifts.shows("maya removed “\(home.titles[2])” from their list."))
            #expect(gifts.shows("0 books"))
            let noticeID = try #require(gifts.text.firstMatch(of: /reservations\/notices\/(\d+)\/dismiss/)?.1)
            #expect(try await ben.post("/reservations/notices/\(noticeID)/dismiss", []).status == .notFound, "not Ben's to dismiss")
            let dismissed = try await ana.post("/reservations/notices/\(noticeID)/dismiss", [])
            #expect(dismissed.status == .seeOther)
            #expect(!(try await ana.get("/reservations")).shows("removed “"))
            #expect(try await ana.post("/reservations/notices/\(noticeID)/dismiss", []).status == .notFound)
        }
    }

    @Test func deletingAnAccountTakesItsReservationsAndShareLinkAndTellsItsGivers() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, ben in
            _ = try await maya.post("/settings/share-link", [])
            _ = try await ana.reserve(home.itemIDs[0])
            _ = try await ben.reserve(home.itemIDs[1])

            #expect(try await ben.post("/settings/delete-account", [("password", "correct horse battery")]).status == .seeOther)
            #expect(try await home.reservationCount() == 1, "Ben's reservation went with his account")
            #expect(!(try await ana.get("/people/maya")).text.contains("Reserved by ben"))

            #expect(try await maya.post("/settings/delete-account", [("password", "correct horse battery")]).status == .seeOther)
            let gifts = try await ana.get("/reservations")
            #expect(gifts.shows("maya deleted their account, so their list is gone, and with it “\(home.titles[0])”."))
            #expect(try await ana.get("/people/maya").status == .notFound)
            let links = try await home.server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM share_link") }
            #expect(links == 0)
        }
    }

    @Test func twoGiversReservingAtOnceGetOneReservationAndOneRefusal() async throws {
        let home = try await Household.make()
        let store = HouseholdStore(database: home.server.database)
        try await store.setSharing(userID: UserID(1), .household)
        let outcomes = try await withThrowingTaskGroup(of: HouseholdStore.ReserveOutcome.self) { group in
            for giver in [UserID(2), UserID(3)] {
                group.addTask { try await store.reserve(itemID: ItemID(home.itemIDs[0]), giverID: giver, at: Date()) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .reserved }.count == 1)
        #expect(outcomes.filter { if case .takenBy = $0 { true } else { false } }.count == 1)
    }
}
