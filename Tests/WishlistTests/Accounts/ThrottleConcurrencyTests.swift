import Dispatch
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

/// The limits hold exactly however many requests arrive together: each attempt is admitted and
/// counted in one write transaction before its password is hashed.
@Suite("Throttling under concurrent requests", .removesTemporaryDirectories)
struct ThrottleConcurrencyTests {
    /// Browsers that have each loaded `page`, so each holds a cookie and a CSRF token.
    static func browsers(_ count: Int, from browser: TestBrowser, page: String) async throws -> [TestBrowser] {
        var browsers: [TestBrowser] = []
        for _ in 0..<count {
            var fresh = TestBrowser(client: browser.client)
            try await fresh.get(page)
            browsers.append(fresh)
        }
        return browsers
    }

    /// Posts one form per browser, all at once, and returns the statuses.
    ///
    /// The hasher is held busy until every request has either been answered or is queued for a
    /// hash: the worst interleaving, where every request has passed any check that happens before
    /// hashing before the first hash finishes. Only attempts admitted by the throttle reach the queue.
    static func postTogether(
        _ browsers: [TestBrowser], to path: String, server: WishlistServer, fields: @escaping @Sendable (Int) -> [(String, String)]
    ) async throws -> [HTTPResponse.Status] {
        let hasher = server.accounts.hasher
        let gate = DispatchSemaphore(value: 0)
        let holder = Task { try await hasher.run { gate.wait() } }
        while hasher.admittedCount < 1 { await Task.yield() }
        let answered = Counter()
        let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for (index, browser) in browsers.enumerated() {
                group.addTask {
                    var browser = browser
                    defer { answered.increment() }
                    return try await browser.post(path, fields(index)).status
                }
            }
            while answered.value + hasher.admittedCount - 1 < browsers.count { await Task.yield() }
            gate.signal()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await holder.value
        return statuses
    }

    static func roomy(_ config: inout AppConfig) {
        // Every admitted attempt may wait for the hasher: the throttle, not the queue, must refuse.
        config.accounts.maxWaitingHashes = 100
    }

    @Test func fortyWrongPasswordsForOneAccountAtOnceEvaluateOnlyTheLimit() async throws {
        let server = try await TestApp.build(clock: .system, Self.roomy)
        try await TestApp.run(server) { browser in
            try await browser.signUp("target")
            let guessers = try await Self.browsers(40, from: browser, page: "/login")
            let statuses = try await Self.postTogether(guessers, to: "/login", server: server) { index in
                [("username", "target"), ("password", "guess \(index)"), ("next", "")]
            }
            #expect(statuses.filter { $0 == .unprocessableContent }.count == server.config.accounts.failedLoginsPerAccount)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 40 - server.config.accounts.failedLoginsPerAccount)
        }
    }

    @Test func wrongPasswordsForManyAccountsFromOneAddressEvaluateOnlyTheAddressLimit() async throws {
        let server = try await TestApp.build(clock: .system, Self.roomy)
        try await TestApp.run(server) { browser in
            let guessers = try await Self.browsers(40, from: browser, page: "/login")
            let statuses = try await Self.postTogether(guessers, to: "/login", server: server) { index in
                [("username", "name\(index)"), ("password", "guess"), ("next", "")]
            }
            let limit = server.config.accounts.failedLoginsPerAddress
            #expect(statuses.filter { $0 == .unprocessableContent }.count == limit)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 40 - limit)
        }
    }

    @Test func signUpsFromOneAddressAtOnceCreateOnlyTheLimit() async throws {
        let server = try await TestApp.build(clock: .system, Self.roomy)
        try await TestApp.run(server) { browser in
            let visitors = try await Self.browsers(30, from: browser, page: "/signup")
            let statuses = try await Self.postTogether(visitors, to: "/signup", server: server) { index in
                [("username", "newcomer\(index)"), ("email", ""), ("password", "correct horse battery"), ("password_confirm", "correct horse battery")]
            }
            let limit = server.config.accounts.signupsPerAddress
            #expect(statuses.filter { $0 == .seeOther }.count == limit)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 30 - limit)
        }
        let users = try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM user") }
        #expect(users == server.config.accounts.signupsPerAddress)
    }

    @Test func aSuccessfulSignInDoesNotCountAgainstTheAddress() async throws {
        let server = try await TestApp.build { $0.accounts.failedLoginsPerAddress = 2 }
        try await TestApp.run(server) { browser in
            try await browser.signUp("regular")
            try await browser.post("/logout", [])
            for _ in 0..<3 {
                #expect(try await browser.signIn("regular").status == .seeOther)
                try await browser.post("/logout", [])
            }
            #expect(try await browser.signIn("regular", password: "wrong").status == .unprocessableContent)
        }
    }
}

/// Password checks behind a session are throttled per account like sign-in: a stolen session
/// cannot guess the password without limit.
@Suite("Throttled password checks in Settings", .removesTemporaryDirectories)
struct SettingsPasswordThrottleTests {
    @Test("wrong passwords in Settings lock the form, with the sign-in limit's sentence and Retry-After", arguments: [
        ("/settings/password", "current_password"), ("/settings/delete-account", "password"),
    ])
    func wrongPasswordsAreThrottled(path: String, field: String) async throws {
        let time = ManualClock()
        let server = try await TestApp.build(clock: time.clock)
        try await TestApp.run(server) { browser in
            try await browser.signUp("owner")
            let form = { (password: String) in [(field, password), ("new_password", "a whole new password"), ("new_password_confirm", "a whole new password")] }
            for guess in 0..<server.config.accounts.failedLoginsPerAccount {
                #expect(try await browser.post(path, form("guess \(guess)")).status == .unprocessableContent)
            }
            let locked = try await browser.post(path, form("correct horse battery"))
            #expect(locked.status == .tooManyRequests, "even the right password waits")
            #expect(locked.headers[.retryAfter] == "900")
            #expect(locked.shows("There have been too many password attempts. Try again in 15 minutes."))
            var elsewhere = TestBrowser(client: browser.client)
            #expect(try await elsewhere.signIn("owner").status == .tooManyRequests, "the guesses count against sign-in too")

            time.advance(by: 15 * 60 + 1)
            #expect(try await browser.post(path, form("correct horse battery")).status == .seeOther)
        }
    }
}
