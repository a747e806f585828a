import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Promises of the README's Configuration section that no other test held (docs/promises.md).
@Suite("Configuration promises: defaults, empty variables, ranges", .removesTemporaryDirectories)
struct ConfigPromiseTests {
    @Test func withNothingSetTheServerListensOnLoopbackAndHasNoMetrics() async throws {
        let config = try ConfigLoader.load(file: nil, fileIsRequired: false, environment: [:])
        #expect(config.server.host == "127.0.0.1", "not reachable from the LAN until 0.0.0.0 is chosen")
        #expect(config.metrics.enabled == false)
        let server = try await TestApp.build { $0.metrics = config.metrics }
        let answer = try await TestApp.run(server) { browser in try await browser.get("/metrics").status }
        #expect(answer == .notFound, "no /metrics unless it is turned on")
    }

    @Test func anEmptyEnvironmentVariableIsIgnored() throws {
        let config = try ConfigLoader.load(
            file: nil, fileIsRequired: false, environment: ["WISHLIST_PORT": "", "WISHLIST_HOST": "", "NYT_REFRESH_HOURS": ""]
        )
        #expect(config.server.port == 8080 && config.server.host == "127.0.0.1" && config.nyt.refreshHours == 24)
    }

    /// Each ranged setting at both ends of its stated range, and one past each.
    @Test(arguments: [
        ("server.idleTimeoutSeconds", 1, 3600), ("server.maxConnections", 8, 100_000), ("nyt.refreshHours", 1, 720),
        ("nyt.historyWeeks", 1, 1040), ("accounts.argon2.memoryKiB", 8, 4_194_304), ("accounts.argon2.iterations", 1, 100),
        ("accounts.argon2.parallelism", 1, 64), ("accounts.maxConcurrentHashes", 1, 64), ("accounts.maxWaitingHashes", 0, 10_000),
        ("accounts.sessionIdleDays", 1, 365), ("accounts.sessionAbsoluteDays", 1, 3650), ("accounts.throttleWindowMinutes", 1, 1440),
        ("accounts.failedLoginsPerAccount", 1, 100_000), ("accounts.failedLoginsPerAddress", 1, 10_000),
        ("accounts.signupsPerAddress", 1, 10_000),
    ])
    func aRangedSettingTakesItsEndsAndRefusesBeyondThem(key: String, lowest: Int, highest: Int) throws {
        for (value, accepted) in [(lowest - 1, false), (lowest, true), (highest, true), (highest + 1, false)] {
            let path = try Self.file(key, value)
            if accepted {
                #expect(throws: Never.self, "\(key) = \(value)") { _ = try ConfigLoader.load(file: path, fileIsRequired: true, environment: [:]) }
            } else {
                #expect(throws: ConfigError.self, "\(key) = \(value)") { _ = try ConfigLoader.load(file: path, fileIsRequired: true, environment: [:]) }
            }
        }
    }

    /// A config file setting `key` (dotted, one or two levels under its section) to `value`; the
    /// two session lengths, which must keep idle ≤ absolute, get the other at its loosest.
    static func file(_ key: String, _ value: Int) throws -> String {
        let parts = key.split(separator: ".").map(String.init)
        var json = "\(value)"
        for part in parts.reversed() { json = "{\"\(part)\": \(json)}" }
        if key == "accounts.sessionIdleDays" { json = "{\"accounts\": {\"sessionIdleDays\": \(value), \"sessionAbsoluteDays\": 3650}}" }
        if key == "accounts.sessionAbsoluteDays" { json = "{\"accounts\": {\"sessionAbsoluteDays\": \(value), \"sessionIdleDays\": 1}}" }
        let url = try temporaryDirectory().appendingPathComponent("config.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func aPasswordHashedWithOtherParametersIsHashedAgainAtTheNextSignIn() async throws {
        let path = try temporaryDirectory().appendingPathComponent("rehash.sqlite").path
        let before = try await TestApp.build { $0.database.path = path }
        #expect(try await TestApp.run(before) { browser in try await browser.signUp("rita").status } == .seeOther)
        let stored = { (server: WishlistServer) in
            try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT password_hash FROM user WHERE username = 'rita'")! }
        }
        let old = try await stored(before)
        #expect(old.contains("m=64,"))
        let after = try await TestApp.build {
            $0.database.path = path
            $0.accounts.argon2.memoryKiB = 128
        }
        #expect(try await TestApp.run(after) { browser in try await browser.signIn("rita").status } == .seeOther)
        let new = try await stored(after)
        #expect(new.contains("m=128,"), "the hash now has the new parameters: \(new.prefix(40))")
        #expect(try await TestApp.run(after) { browser in try await browser.signIn("rita").status } == .seeOther, "and still signs in")
    }
}
