import Foundation
import GRDB
import Logging
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Password changes in one transaction; expired rows hidden and purged", .removesTemporaryDirectories)
struct AccountMaintenanceTests {
    /// Makes every deletion of a session fail, as a full disk or an I/O error would.
    static func refuseSessionDeletes(_ server: WishlistServer) async throws {
        try await server.database.pool.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse_session_delete BEFORE DELETE ON session BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
    }

    static func passwordHash(_ server: WishlistServer, _ username: String) async throws -> String? {
        try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT password_hash FROM user WHERE username = ?", arguments: [username]) }
    }

    @Test func aPasswordChangeThatCannotEndTheOtherSessionsChangesNothing() async throws {
        let server = try await TestApp.build()
        let user = try await server.accounts.createUser(username: "careful", password: "correct horse battery")
        _ = try await server.accounts.sessions.create(userID: user.id, userAgent: "laptop")
        let before = try await Self.passwordHash(server, "careful")
        try await Self.refuseSessionDeletes(server)
        await #expect(throws: DatabaseError.self) {
            _ = try await server.accounts.changePassword(
                userID: user.id, current: "correct horse battery", new: "a brand new password",
                confirmation: "a brand new password", keepingSession: SessionID(0)
            )
        }
        #expect(try await Self.passwordHash(server, "careful") == before)
    }

    @Test func anAdminResetThatCannotEndTheSessionsChangesNothing() async throws {
        let server = try await TestApp.build()
        let user = try await server.accounts.createUser(username: "forgetful", password: "correct horse battery")
        _ = try await server.accounts.sessions.create(userID: user.id, userAgent: "phone")
        let before = try await Self.passwordHash(server, "forgetful")
        try await Self.refuseSessionDeletes(server)
        await #expect(throws: DatabaseError.self) {
            try await server.accounts.resetPassword(username: "forgetful", to: "a brand new password")
        }
        #expect(try await Self.passwordHash(server, "forgetful") == before)
    }

    /// Counts the writer's commits from when it is added.
    final class Commits: TransactionObserver, Sendable {
        let count = Counter()
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { count.increment() }
        func databaseDidRollback(_ db: Database) {}
    }

    @Test func aSignInWritesTwiceItsAdmissionThenItsSuccessWithTheSession() async throws {
        let server = try await TestApp.build()
        let user = try await server.accounts.createUser(username: "quick", password: "correct horse battery")
        let commits = Commits()
        try await server.database.pool.writeWithoutTransaction { $0.add(transactionObserver: commits, extent: .databaseLifetime) }
        let outcome = try await server.accounts.signIn(username: "quick", password: "correct horse battery", address: "192.0.2.1", userAgent: "laptop")
        guard case .signedIn(let signedIn, let token) = outcome else {
            Issue.record("not signed in: \(outcome)")
            return
        }
        // Each write may wait for a Goodreads import's slice: one less is one wait less.
        #expect(commits.count.value == 2, "the throttle's admission, then its success and the session in one")
        #expect(signedIn.id == user.id)
        #expect(try await server.accounts.sessions.find(token: token)?.userID == user.id)
        let events = try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM throttle_event") }
        #expect(events == 0, "the success takes its own attempt back")
    }

    @Test func aSignInWhoseSessionCannotBeWrittenStillCountsItsAttempt() async throws {
        let server = try await TestApp.build()
        _ = try await server.accounts.createUser(username: "careful", password: "correct horse battery")
        try await server.database.pool.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse_session_insert BEFORE INSERT ON session BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        await #expect(throws: DatabaseError.self) {
            _ = try await server.accounts.signIn(username: "careful", password: "correct horse battery", address: "192.0.2.1", userAgent: "laptop")
        }
        let scopes = try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT scope FROM throttle_event ORDER BY scope") }
        #expect(scopes == ["login-account:careful", "login-address:192.0.2.1"], "no session, so no success to forgive the attempt")
    }

    @Test func settingsListsOnlyLiveSessionsAndThePurgeDeletesTheRest() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        try await TestApp.run(server) { browser in
            var abandoned = TestBrowser(client: browser.client)
            abandoned.userAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0"
            try await browser.signUp("traveller")
            try await abandoned.signIn("traveller")
            time.advance(by: 13 * 86_400)
            #expect(try await browser.get("/settings/sign-in").shows("Firefox on Windows"), "idle 13 days: still live")
            time.advance(by: 2 * 86_400)
            let page = try await browser.get("/settings/sign-in")
            #expect(page.status == .ok)
            #expect(!page.shows("Firefox on Windows"), "idle 15 days: expired, so not listed")
        }
        let deleted = try await server.accounts.deleteExpiredRows()
        #expect(deleted == 2, "the abandoned session, and the sign-up's throttle event")
        let agents = try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT user_agent FROM session") }
        #expect(agents.count == 1)
        #expect(agents.allSatisfy { !$0.contains("Firefox") })
    }

    @Test func thePurgeDeletesThrottleEventsAndAPIRequestsPastTheirWindows() async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        let now = time.clock.now()
        try await server.database.pool.write { db in
            for (scope, age) in [("login-address:old", 15.0 * 60 + 1), ("login-address:recent", 60.0)] {
                try db.execute(sql: "INSERT INTO throttle_event (scope, happened_at) VALUES (?, ?)", arguments: [scope, now.addingTimeInterval(-age)])
            }
            for age in [86_401.0, 3_600.0] {
                try db.execute(sql: "INSERT INTO api_request (requested_at) VALUES (?)", arguments: [now.addingTimeInterval(-age)])
            }
        }
        #expect(try await server.accounts.deleteExpiredRows() == 1)
        #expect(try await server.catalogSync.limiter.deleteExpired() == 1)
        let (scopes, requests) = try await server.database.pool.read { db in
            (try String.fetchAll(db, sql: "SELECT scope FROM throttle_event"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM api_request"))
        }
        #expect(scopes == ["login-address:recent"])
        #expect(requests == 1)
    }

    @Test func onePurgeFailingDoesNotStopTheOthers() async throws {
        struct Broken: Error {}
        let ran = Counter()
        let purge = ExpiredRowsPurge(
            purges: [{ throw Broken() }, { ran.increment(); return 2 }],
            interval: .seconds(3600), logger: Logger(label: "test")
        )
        await purge.purgeOnce()
        #expect(ran.value == 1)
    }
}

final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
