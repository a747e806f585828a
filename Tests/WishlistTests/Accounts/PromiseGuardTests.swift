import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Promises of the README that no test guarded (issue 35): each of these fails when the line that
/// keeps the promise is removed or its boundary moved. The figures are written here as numbers,
/// not taken from the constants the code uses, so a changed constant fails too.
@Suite("Promises: link lifetimes, disabled passkeys, the import's row limit", .removesTemporaryDirectories)
struct PromiseGuardTests {
    /// "a one-time link GET/POST /reset/{token} valid 24 hours".
    @Test func aResetLinkWorksAt23Hours59MinutesAndNotAt24Hours() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        let admin = try await server.accounts.createUser(username: "root", password: "correct horse battery", isAdmin: true)
        let user = try await server.accounts.createUser(username: "bob", password: "correct horse battery")
        let actor = Administration.Actor(userID: admin.id, username: "root")
        // Checking does not spend a link; a second link for the same account would replace it.
        let token = try await server.accounts.resetLinks.create(userID: user.id, by: actor)
        time.advance(by: 23 * 3600 + 59 * 60)
        #expect(try await server.accounts.resetLinks.check(token: token).0 == .valid)
        time.advance(by: 60)
        #expect(try await server.accounts.resetLinks.check(token: token).0 == .expired, "24 hours on, the link no longer works")
    }

    /// "`POST /admin/invites` makes a single-use link valid 7 days".
    @Test func anInviteWorksAt6Days23HoursAndNotAt7Days() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        let admin = try await server.accounts.createUser(username: "root", password: "correct horse battery", isAdmin: true)
        let invites = Invites(database: server.database, clock: time.clock)
        let token = try await invites.create(by: .init(userID: admin.id, username: "root"))
        time.advance(by: 6 * 86_400 + 23 * 3600)
        #expect(try await invites.check(token: token) == .valid)
        time.advance(by: 3600)
        #expect(try await invites.check(token: token) == .expired)
    }

    /// "a disabled user's sessions end and sign-in is refused": with a passkey too.
    @Test func aDisabledAccountCannotSignInWithAPasskey() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("maya")
            var authenticator = PasskeyHTTPTests.authenticator()
            try await PasskeyHTTPTests.addPasskey(&browser, &authenticator)
            let mayaID = try await AdminHTTPTests.userID("maya", server)
            try await DisabledAccountTests.setDisabled(true, mayaID, server)
            var phone = TestBrowser(client: browser.client)
            let options = try await PasskeyHTTPTests.postJSON(&phone, "/passkeys/sign-in/options", "{}")
            let assertion = try authenticator.assertion(challenge: try PasskeyHTTPTests.challenge(options))
            let refused = try await PasskeyHTTPTests.postJSON(&phone, "/passkeys/sign-in", PasskeyHTTPTests.assertionBody(assertion))
            #expect(refused.status == .forbidden)
            #expect(try PasskeyHTTPTests.object(refused)["error"] as? String == PasskeyRefusal.unknownCredential.message,
                    "the same answer as a passkey that is not registered")
            #expect(try await phone.get("/wishlist").status == .seeOther, "no session")
        }
    }

    /// "the import's row limit": 50,000 rows are read, 50,001 are refused with a sentence.
    @Test func theImportTakes50000RowsAndRefuses50001() throws {
        let header = "Title,Author\n"
        let rows = (1...50_000).map { "Book \($0),Author \($0)\n" }.joined()
        #expect(try GoodreadsCSV.parse(header + rows, now: Date()).books.count == 50_000)
        #expect(throws: GoodreadsCSVError.self) { try GoodreadsCSV.parse(header + rows + "One more,Author\n", now: Date()) }
    }
}
