import Foundation
import GRDB
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 56: what the mail flows promise about time. A confirmation link works 24 hours and a
/// mailed reset link one hour, each up to its last second and not after, on a manual clock (the
/// hours written here, not read from the constants they check); and
/// "Forgot your password?" answers before it looks anyone up, so its answer's time tells nothing.
@Suite("Mailed links' lifetimes, and the forgot answer before its look-up", .removesTemporaryDirectories)
struct AccountMailTimingTests {
    @Test func aConfirmationLinkWorksForTwentyFourHoursAndNotASecondMore() async throws {
        let time = ManualClock()
        let server = try await MailHTTPTests.build(clock: time.clock)
        try await TestApp.run(server) { browser in
            var bea = TestBrowser(client: browser.client)
            try await browser.signUp("ann", email: "ann@example.com")
            try await bea.signUp("bea", email: "bea@example.com")
            let links = try await QueuedMail.all(server.database, kind: "verification").compactMap { $0.path(startingWith: "/verify-email/") }
            #expect(links.count == 2)

            time.advance(by: 24 * 3600 - 1)
            let inTime = try await browser.get(links[0])
            #expect(inTime.status == .ok && inTime.shows("your e-mail address is confirmed"))
            #expect(try await MailHTTPTests.verified(server.database, "ann"))

            time.advance(by: 2)
            let late = try await bea.get(links[1])
            #expect(late.status == .gone)
            #expect(late.shows("Confirmation links work for 24 hours and only for the address they were sent to."))
            #expect(try await MailHTTPTests.verified(server.database, "bea") == false)
        }
    }

    @Test func aMailedResetLinkWorksForAnHourAndNotASecondMore() async throws {
        let time = ManualClock()
        let server = try await MailHTTPTests.build(clock: time.clock)
        let mail = try Self.accountMail(server, time.clock)
        try await TestApp.run(server) { browser in
            try await Self.confirmedMember("ann", browser: &browser, server)
            try await browser.post("/logout", [])
            // What the answer starts once it has answered, done here and awaited.
            try await mail.sendResetLink(matching: "ann")
            let link = try #require(try await QueuedMail.all(server.database, kind: "password-reset").first?.path(startingWith: "/reset/"))

            time.advance(by: 3600 - 1)
            let inTime = try await browser.get(link)
            #expect(inTime.status == .ok && inTime.text.contains(#"id="new_password""#))

            time.advance(by: 2)
            let late = try await browser.get(link)
            #expect(late.status == .gone)
            #expect(late.shows("Password-reset links work for 24 hours when an admin makes them and for an hour when they come by mail"))
            let refused = try await browser.post(link, [("new_password", "a brand new password"), ("new_password_confirm", "a brand new password")])
            #expect(refused.status == .gone)
            #expect(try await browser.signIn("ann").status == .seeOther, "the old password still signs in")
        }
    }

    /// The look-up is the part whose time differs between a member and a stranger, so it must come
    /// after the answer. The work the answer starts is held here until the answer is in: nothing
    /// is queued by then, and an account made between the answer and the held work is the one
    /// found, which a look-up made before answering could not have found.
    @Test func forgotAnswersBeforeItLooksAnyoneUp() async throws {
        let held = HeldWork()
        let server = try await MailHTTPTests.build()
        let mail = try Self.accountMail(server, .system, afterAnswering: held.afterAnswering)
        try await TestApp.run(server) { browser in
            #expect(try await mail.forgotPassword(nameOrAddress: "zoe@example.com", clientAddress: "192.0.2.7") == .queued)
            #expect(held.count == 1, "the look-up and the mail wait for the answer")

            try await Self.confirmedMember("zoe", browser: &browser, server)
            #expect(try await QueuedMail.all(server.database, kind: "password-reset").isEmpty)
            await held.run()
            #expect(try await QueuedMail.all(server.database, kind: "password-reset").map(\.recipient) == ["zoe@example.com"])
        }
    }

    static func accountMail(_ server: WishlistServer, _ clock: WallClock, afterAnswering: AfterAnswering = .detached) throws -> AccountMail {
        AccountMail(
            database: server.database, mailer: try Mailer.queueing(into: server.database, clock: clock), accountSettings: server.config.accounts,
            clock: clock, logger: .init(label: "test"), afterAnswering: afterAnswering
        )
    }

    /// Signs `name` up with `name@example.com` and confirms the address through its link.
    static func confirmedMember(_ name: String, browser: inout TestBrowser, _ server: WishlistServer) async throws {
        try await browser.signUp(name, email: "\(name)@example.com")
        let link = try #require(
            try await QueuedMail.all(server.database, kind: "verification").first { $0.recipient == "\(name)@example.com" }?.path(startingWith: "/verify-email/")
        )
        #expect(try await browser.get(link).status == .ok)
    }
}

/// Work started "after answering", kept until the test runs it.
final class HeldWork: Sendable {
    private let waiting = Mutex<[@Sendable () async -> Void]>([])

    var afterAnswering: AfterAnswering {
        AfterAnswering { [self] work in waiting.withLock { $0.append(work) } }
    }

    var count: Int { waiting.withLock { $0.count } }

    /// Runs what is held, in order, each to its end.
    func run() async {
        for work in waiting.withLock({ held in defer { held = [] }; return held }) { await work() }
    }
}
