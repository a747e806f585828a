import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Guests reserve on a share link (issue 57): with their name, throttled per client, a private
/// cancel link shown once; "Reserved" to other guests with no name, "Reserved by Grandpa (guest)"
/// to the household's givers, and nothing at all to the owner.
@Suite("Household: guests reserving on a share link over HTTP", .removesTemporaryDirectories)
struct GuestReservationsHTTPTests {
    static func guestCount(_ server: WishlistServer) async throws -> Int {
        try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM guest_reservation") ?? 0 }
    }

    /// The cancel link on the page that made it, as a path.
    static func cancelPath(in page: TestResponse) throws -> String {
        let link = try #require(page.text.firstMatch(of: /id="guest-cancel-link" type="text" readonly value="http:\/\/[^\/"]+(\/guest-reservations\/[A-Za-z0-9_-]{43})"/)?.1)
        return String(link)
    }

    /// A guest's reservation, from the link's page as a browser makes it: the page gives her
    /// anonymous session and the form's anti-CSRF token.
    static func reserve(_ guest: inout TestBrowser, _ link: String, item: Int64, name: String) async throws -> TestResponse {
        if guest.sessionCookie == nil { _ = try await guest.get(link) }
        return try await guest.post(link, [("item", "\(item)"), ("name", name)])
    }

    /// The guest's forms carry the anti-CSRF token of her anonymous session (issue 57): without it,
    /// or with another browser's, a reservation or a cancel is a 403 with a sentence that changes nothing.
    @Test func theGuestsFormsNeedTheirSessionsAntiCSRFToken() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let link = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/settings/share-link", []))
            var guest = TestBrowser(client: maya.client)
            let page = try await guest.get(link)
            #expect(page.text.contains(#"<form class="form guest-reserve-form" method="post">"#) && page.text.contains(#"name="csrf_token""#))
            var other = TestBrowser(client: maya.client)
            _ = try await other.get(link)
            for token in ["", other.csrfToken] {
                let refused = try await guest.post(link, [("item", "\(home.itemIDs[0])"), ("name", "Grandpa"), ("csrf_token", token)])
                #expect(refused.status == .forbidden && refused.shows("For your safety we couldn’t accept that form"))
            }
            #expect(try await Self.guestCount(home.server) == 0)
            let cancel = try Self.cancelPath(in: try await Self.reserve(&guest, link, item: home.itemIDs[0], name: "Grandpa"))
            #expect(try await guest.get(cancel).text.contains(#"name="csrf_token""#))
            let refused = try await guest.post(cancel, [("csrf_token", "")])
            #expect(refused.status == .forbidden && refused.shows("For your safety we couldn’t accept that form"))
            #expect(try await Self.guestCount(home.server) == 1)
            #expect(try await guest.post(cancel, []).shows("Reservation cancelled"))
        }
    }

    @Test func aGuestReservesWithTheirNameTheGiversSeeItAndTheCancelLinkWorksOnce() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            let link = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/settings/share-link", []))
            var guest = TestBrowser(client: maya.client)
            let reserved = try await Self.reserve(&guest, link, item: home.itemIDs[0], name: "  Grandpa ")
            #expect(reserved.status == .ok && reserved.shows("You reserved “\(home.titles[0])”"))
            let cancel = try Self.cancelPath(in: reserved)
            #expect(try await Self.guestCount(home.server) == 1)
            let again = try await guest.get(link)
            #expect(again.text.contains(#"id="guest-reserved-\#(home.itemIDs[0])""#) && !again.shows("Grandpa"), "Reserved, naming no one")
            #expect(!again.text.contains(cancel), "the cancel link is shown once")

            let page = try await ana.get("/people/maya")
            #expect(page.shows("Reserved by Grandpa (guest)"))
            let refused = try await ana.reserve(home.itemIDs[0])
            #expect(refused.status == .conflict && refused.shows("Grandpa (guest)"))
            #expect(try await home.reservationCount() == 0)

            // The link opens a page with one button; only the button cancels, once.
            let confirm = try await guest.get(cancel)
            #expect(confirm.status == .ok && confirm.shows("You, Grandpa, reserved “\(home.titles[0])” on maya’s list."))
            #expect(confirm.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(try await Self.guestCount(home.server) == 1)
            #expect(try await guest.post(cancel, []).shows("Reservation cancelled"))
            #expect(try await Self.guestCount(home.server) == 0)
            #expect(try await guest.post(cancel, []).status == .notFound)
            #expect(try await guest.get(cancel).status == .notFound)
            #expect(!(try await ana.get("/people/maya")).shows("Grandpa"))
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            // A want a member holds is "Reserved" to the guest, and refused with a sentence.
            let taken = try await Self.reserve(&guest, link, item: home.itemIDs[0], name: "Grandpa")
            #expect(taken.status == .conflict && taken.shows("Someone has just reserved that book.") && !taken.shows("ana"))
        }
    }

    @Test func aGuestsNameIsCheckedAndAWantOffTheLinksListIsA404() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let birthday = try await WishListsHTTPTests.makeList(&maya, "Birthday")
            #expect(try await maya.post("/wishlist/\(home.itemIDs[0])/lists", [("list", "\(birthday)")]).status == .seeOther)
            let link = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/settings/share-link", []))
            var guest = TestBrowser(client: maya.client)
            for (name, error) in [("", "Give your name"), (String(repeating: "g", count: 61), "A name can be up to 60 characters.")] {
                let refused = try await Self.reserve(&guest, link, item: home.itemIDs[1], name: name)
                #expect(refused.status == .unprocessableContent && refused.shows(error), "\(name)")
                #expect(refused.text.contains(#"id="guest-name-\#(home.itemIDs[1])" name="name" type="text" maxlength="60" required autocomplete="name" value="\#(name)" aria-describedby="guest-name-\#(home.itemIDs[1])-error" aria-invalid="true""#))
            }
            // A control character is refused by the form's reader, before the name's rule.
            #expect(try await Self.reserve(&guest, link, item: home.itemIDs[1], name: "Grand\u{7}pa").status.code / 100 == 4)
            #expect(try await Self.reserve(&guest, link, item: home.itemIDs[1], name: String(repeating: "g", count: 60)).status == .ok)
            // Her birthday list's want is not on this link's list; nor is an id that never was.
            for item in ["\(home.itemIDs[0])", "999", "x", ""] {
                let refused = try await guest.post(link, [("item", item), ("name", "Grandpa")])
                #expect(refused.status == .notFound && refused.shows("Not on this list"), "\(item)")
            }
            #expect(try await guest.post("/shared/" + String(repeating: "A", count: 43), [("item", "\(home.itemIDs[2])"), ("name", "Grandpa")]).status == .notFound)
            #expect(try await guest.get("/guest-reservations/" + String(repeating: "A", count: 43)).status == .notFound)
            #expect(try await Self.guestCount(home.server) == 1)
        }
    }

    /// Two guests, or a guest and a member, pressing at once: one reservation, one refusal.
    @Test(arguments: [1, 2])
    func twoAtOnceGetOneReservationAndOneRefusal(_ round: Int) async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            _ = try await maya.post("/settings/share-link", [])
        }
        let guests = GuestReservations(database: home.server.database, clock: .system, settings: AppConfig.Accounts())
        let list = ListID(1)
        async let first = guests.reserve(itemID: ItemID(home.itemIDs[0]), onList: list, name: "Grandpa", clientAddress: "192.0.2.1")
        async let second = guests.reserve(itemID: ItemID(home.itemIDs[0]), onList: list, name: "Granny", clientAddress: "192.0.2.2")
        let answers = [try await first, try await second]
        #expect(answers.filter { $0 == .taken }.count == 1, "round \(round)")
        #expect(answers.contains { if case .reserved = $0 { true } else { false } })
        #expect(try await Self.guestCount(home.server) == 1)

        let household = HouseholdStore(database: home.server.database)
        async let byGuest = guests.reserve(itemID: ItemID(home.itemIDs[1]), onList: list, name: "Grandpa", clientAddress: "192.0.2.1")
        async let byMember = household.reserve(itemID: ItemID(home.itemIDs[1]), giverID: UserID(2), at: Date())
        let (guestAnswer, memberAnswer) = (try await byGuest, try await byMember)
        if guestAnswer == .taken {
            #expect(memberAnswer == .reserved)
        } else {
            #expect(memberAnswer == .takenBy(name: "Grandpa (guest)"))
        }
        #expect(try await Self.guestCount(home.server) + home.reservationCount() == 2)
    }

    @Test func aClientIsThrottledWithA429AndRetryAfter() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let link = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/settings/share-link", []))
            var guest = TestBrowser(client: maya.client)
            #expect(try await Self.reserve(&guest, link, item: home.itemIDs[0], name: "Grandpa").status == .ok)
            for _ in 2...LoginThrottle.guestReservationsPerAddress {
                #expect(try await Self.reserve(&guest, link, item: home.itemIDs[0], name: "Grandpa").status == .conflict)
            }
            let throttled = try await Self.reserve(&guest, link, item: home.itemIDs[1], name: "Grandpa")
            #expect(throttled.status == .tooManyRequests && throttled.shows("There have been too many reservation attempts."))
            #expect(Int(throttled.headers[.retryAfter] ?? "") ?? 0 > 0)
            #expect(try await Self.guestCount(home.server) == 1)
        }
    }

    /// The owner-never-knows rule (``OwnerNeverKnowsTests``) with a guest: every page, form and
    /// API answer of hers, her own share link as she sees it, and her data download are the same
    /// bytes, and her pages' generation does not move.
    @Test func theOwnerNeverKnowsOfAGuestsReservation() async throws {
        let time = ManualClock()
        let home = try await Household.make(clock: time.clock)
        let bookID = try await home.bookIDs()[0]
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            try await maya.share()
            #expect(try await WishListsHTTPTests.makeList(&maya, "Birthday", occasion: "birthday") == 4)
            let token = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            let link = try PriorityAndShareLinkTests.sharedPath(in: try await maya.post("/settings/share-link", []))
            _ = try await OwnerNeverKnowsTests.ownerView(&maya, home: home, bookID: bookID, apiToken: token)
            let wishes = { try await home.server.database.pool.read { try Int.fetchOne($0, sql: "SELECT wishes FROM owner_generation WHERE user_id = 1") } }
            var before = try await OwnerNeverKnowsTests.ownerView(&maya, home: home, bookID: bookID, apiToken: token)
            before["GET link"] = OwnerNeverKnowsTests.Answer(try await maya.get(link))
            let dataBefore = try await DataExportHTTPTests.download(&maya).dataWithoutTime
            let generationBefore = try await wishes()

            var guest = TestBrowser(client: browser.client)
            for item in home.itemIDs.prefix(2) {
                #expect(try await Self.reserve(&guest, link, item: item, name: "Grandpa").status == .ok)
            }
            #expect(try await wishes() == generationBefore, "her pages' generation did not move")

            var after = try await OwnerNeverKnowsTests.ownerView(&maya, home: home, bookID: bookID, apiToken: token)
            after["GET link"] = OwnerNeverKnowsTests.Answer(try await maya.get(link))
            #expect(before.keys.sorted() == after.keys.sorted())
            for (route, answer) in before {
                #expect(after[route] == answer, "\(route) differs once a guest reserved")
            }
            let dataAfter = try await DataExportHTTPTests.download(&maya).dataWithoutTime
            #expect(dataAfter == dataBefore && !dataAfter.contains("Grandpa"))
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            #expect(try await ana.get("/people/maya").shows("Reserved by Grandpa (guest)"))
        }
    }

    @Test func theCancelLinksTokenNeverReachesTheLog() async throws {
        let log = LogCapture()
        let server = try await WishlistServer.build(config: try TestApp.config(), logger: log.logger)
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            let book = try #require(try await CatalogStore(database: server.database).list(named: "hardcover-fiction")?.1.first?.book)
            #expect(try await browser.post("/wishlist", [("book", book.id), ("return_to", "/wishlist")]).status == .seeOther)
            let link = try PriorityAndShareLinkTests.sharedPath(in: try await browser.post("/settings/share-link", []))
            var guest = TestBrowser(client: browser.client)
            let cancel = try Self.cancelPath(in: try await Self.reserve(&guest, link, item: 1, name: "Grandpa"))
            _ = try await guest.get(cancel)
            _ = try await guest.post(cancel, [])
            let token = String(cancel.dropFirst("/guest-reservations/".count))
            #expect(log.all.contains { $0.contains("POST /guest-reservations/… 200") })
            #expect(!log.all.contains { $0.contains(token) })
        }
    }
}
