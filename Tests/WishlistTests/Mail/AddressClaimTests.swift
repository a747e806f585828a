import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 50: sign-up and Settings said "That e-mail address can't be used" for any stored
/// address, confirmed or not, so anyone could learn which addresses are members' and a squatter
/// could keep an address from its owner. An address is unique only once confirmed, the first
/// confirmation wins, and neither form says whether an address is known.
@Suite("An address is the account's that confirms it first: no probing, no squatting", .removesTemporaryDirectories)
struct AddressClaimTests {
    static func ids(_ database: AppDatabase) async throws -> [String: Int64] {
        try await database.pool.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT username, id FROM user").map { ($0["username"], $0["id"]) })
        }
    }

    static func confirmationLink(for userID: Int64?, _ database: AppDatabase) async throws -> String? {
        try await QueuedMail.all(database, kind: "verification").last { $0.userID == userID }?.path(startingWith: "/verify-email/")
    }

    @Test func aSquatterBlocksNobodyAndLosesToTheFirstConfirmation() async throws {
        let server = try await MailHTTPTests.build()
        try await TestApp.run(server) { eve in
            #expect(try await eve.signUp("eve", email: "alice@example.com").status == .seeOther)
            var alice = TestBrowser(client: eve.client)
            #expect(try await alice.signUp("alice", email: "Alice@Example.com").status == .seeOther, "the address eve gave blocks nobody")
            let ids = try await Self.ids(server.database)
            let evesLink = try #require(try await Self.confirmationLink(for: ids["eve"], server.database))
            let alicesLink = try #require(try await Self.confirmationLink(for: ids["alice"], server.database))

            #expect(try await alice.get(alicesLink).status == .ok)
            let refused = try await eve.get(evesLink)
            #expect(refused.status == .conflict && refused.shows("Another account here confirmed this e-mail address first"))
            #expect(try await MailHTTPTests.verified(server.database, "alice"))
            #expect(try await MailHTTPTests.verified(server.database, "eve") == false, "the loser's address stays unconfirmed")
            #expect(try await eve.get("/settings/email").text.contains("id=\"email-unverified\""))

            // Eve's "Send the link again" makes no link for an address alice holds: alice is told instead.
            #expect(try await eve.post("/settings/email/verify", []).location == "/settings/email?done=email-sent#flash")
            #expect(try await QueuedMail.all(server.database, kind: "verification").count == 2)
            let notice = try #require(try await QueuedMail.all(server.database, kind: "address-in-use").first)
            #expect(notice.userID == ids["alice"] && notice.recipient == "Alice@Example.com")
            #expect(notice.text.contains("Sign in as alice") && notice.path(startingWith: "/verify-email/") == nil)

            // Forgot-password by the address finds the account that confirmed it, and no other.
            try await eve.post("/logout", [])
            #expect(try await eve.post("/forgot", [("name_or_email", "alice@example.com")]).status == .ok)
            let resets = try await QueuedMail.awaited(server.database, kind: "password-reset")
            #expect(resets.map(\.userID) == [ids["alice"]])
        }
    }

    /// Sign-up and Settings → E-mail answer an address another account confirmed exactly as a
    /// new one; the owner of the known address gets a notice, not a link.
    @Test func theFormsAnswerAKnownAddressAsAnUnknownOne() async throws {
        let server = try await MailHTTPTests.build()
        try await TestApp.run(server) { alice in
            try await alice.signUp("alice", email: "alice@example.com")
            try await alice.get(try #require(try await QueuedMail.all(server.database, kind: "verification").first?.path(startingWith: "/verify-email/")))

            var known = TestBrowser(client: alice.client)
            var unknown = TestBrowser(client: alice.client)
            let taken = try await known.signUp("mallory", email: "alice@example.com")
            let free = try await unknown.signUp("oscar", email: "oscar@example.com")
            #expect(taken.status == free.status && taken.location == free.location && taken.text == free.text)
            #expect(Self.anonymous(try await known.get("/settings/email").text, "mallory", "alice@example.com")
                == Self.anonymous(try await unknown.get("/settings/email").text, "oscar", "oscar@example.com"))

            let changedToKnown = try await unknown.post("/settings/email", [("email", "alice@example.com")])
            let changedToUnknown = try await known.post("/settings/email", [("email", "someone@example.com")])
            #expect(changedToKnown.status == .seeOther && changedToKnown.location == changedToUnknown.location)
            #expect(Self.anonymous(try await unknown.get("/settings/email").text, "oscar", "alice@example.com")
                == Self.anonymous(try await known.get("/settings/email").text, "mallory", "someone@example.com"))

            let ids = try await Self.ids(server.database)
            let links = try await QueuedMail.all(server.database, kind: "verification")
            #expect(links.map(\.userID) == [ids["alice"], ids["oscar"], ids["mallory"]], "no link for an address alice confirmed")
            let notices = try await QueuedMail.all(server.database, kind: "address-in-use")
            #expect(notices.map(\.userID) == [ids["alice"], ids["alice"]], "alice hears of mallory's sign-up and oscar's change")
        }
    }

    @Test func twoConfirmationsAtOnceExactlyOneWins() async throws {
        let server = try await MailHTTPTests.build()
        try await TestApp.run(server) { browser in
            for round in 0..<3 {
                let address = "shared\(round)@example.com"
                var first = TestBrowser(client: browser.client)
                var second = TestBrowser(client: browser.client)
                try await first.signUp("ann\(round)", email: address)
                try await second.signUp("bea\(round)", email: address)
                let ids = try await Self.ids(server.database)
                let links = [
                    try #require(try await Self.confirmationLink(for: ids["ann\(round)"], server.database)),
                    try #require(try await Self.confirmationLink(for: ids["bea\(round)"], server.database)),
                ]
                async let one = Self.status(opening: links[0], browser.client)
                async let other = Self.status(opening: links[1], browser.client)
                let statuses = try await [one, other]
                #expect(statuses.filter { $0 == .ok }.count == 1 && statuses.filter { $0 == .conflict }.count == 1, "\(statuses)")
                let confirmed = try await server.database.pool.read { db in
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE email = ? AND email_verified_at IS NOT NULL", arguments: [address])
                }
                #expect(confirmed == 1)
            }
        }
    }

    static func status(opening link: String, _ client: any TestClientProtocol) async throws -> HTTPResponse.Status {
        var browser = TestBrowser(client: client)
        return try await browser.get(link).status
    }

    /// A page with the member's name, her address and the CSRF token taken out.
    static func anonymous(_ page: String, _ username: String, _ address: String) -> String {
        page.replacing(#/name="csrf_token" value="[^"]+"/#, with: "").replacingOccurrences(of: address, with: "ADDRESS").replacingOccurrences(of: username, with: "NAME")
    }
}
