import Foundation
import Logging
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Configuration: file, environment, flags, and one clear line per mistake", .removesTemporaryDirectories)
struct ConfigTests {
    func write(_ json: String) throws -> String {
        let url = try temporaryDirectory().appendingPathComponent("config.json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func theShippedConfigFileHoldsExactlyTheDefaults() throws {
        let path = repositoryRoot.appendingPathComponent("config.json").path
        let loaded = try ConfigLoader.load(file: path, fileIsRequired: true, environment: [:])
        #expect(loaded == AppConfig())
    }

    @Test func laterSourcesOverrideEarlierOnes() throws {
        let path = try write(#"{"server": {"port": 9000, "host": "0.0.0.0"}, "accounts": {"argon2": {"iterations": 3}}}"#)
        let config = try ConfigLoader.load(
            file: path, fileIsRequired: true,
            environment: ["WISHLIST_PORT": "9100", "NYT_API_KEY": "k", "WISHLIST_SIGNUP": "closed"],
            overrides: ["server.port": "9200", "database.path": "/tmp/x.sqlite"]
        )
        #expect(config.server.host == "0.0.0.0")
        #expect(config.server.port == 9200)
        #expect(config.nyt.apiKey == "k")
        #expect(config.accounts.signup == .closed)
        #expect(config.accounts.argon2.iterations == 3)
        #expect(config.accounts.argon2.memoryKiB == 19456)
        #expect(config.database.path == "/tmp/x.sqlite")
    }

    /// C reads a string only up to its first NUL: SQLite would open `/srv/wishlist.sqlite` for
    /// `/srv/wishlist.sqlite\u0000.old`, and libcurl would send half a password (found auditing
    /// for NULs after the forwarded fuzz target's finding, docs/fuzzing.md).
    @Test(arguments: ["database.path", "mail.password", "nyt.apiKey", "mail.smtpURL", "accounts.oidc.issuer"])
    func aNULInATextIsRefusedWithoutQuotingIt(key: String) throws {
        let parts = key.split(separator: ".")
        let value = #"secret\u0000.old"#
        let json = parts.count == 2 ? #"{"\#(parts[0])": {"\#(parts[1])": "\#(value)"}}"# : #"{"\#(parts[0])": {"\#(parts[1])": {"\#(parts[2])": "\#(value)"}}}"#
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader.load(file: try write(json), fileIsRequired: true, environment: [:])
        }
        #expect(error == ConfigError(key: key, problem: "must not contain a NUL character"))
    }

    @Test("a bad value names its key and the problem", arguments: [
        (#"{"server": {"port": "eighty"}}"#, [String: String](), "configuration: server.port: expected a whole number from 1 to 65535, got \"eighty\""),
        (#"{"server": {"port": 70000}}"#, [:], "configuration: server.port: expected a whole number from 1 to 65535, got 70000"),
        (#"{"server": {"secureCookies": 1}}"#, [:], "configuration: server.secureCookies: expected true or false, got 1"),
        (#"{"server": {"prot": 1}}"#, [:], "configuration: server.prot: unknown setting in"),
        (#"{}"#, ["WISHLIST_SIGNUP": "maybe"], "configuration: accounts.signup: expected one of open, closed, invite, got \"maybe\""),
        (#"{}"#, ["WISHLIST_FORWARDED_HEADER": "X-Real-IP"], "configuration: server.forwardedHeader: expected one of X-Forwarded-For, Forwarded, got \"X-Real-IP\""),
        (#"{"server": {"forwardedHeader": ["Forwarded"]}}"#, [:], "configuration: server.forwardedHeader: expected one of X-Forwarded-For, Forwarded, got"),
        (#"{}"#, ["NYT_BASE_URL": "ftp://example.com"], "configuration: nyt.baseURL: expected an http or https URL"),
        (#"{}"#, ["WISHLIST_PORT": "8080x"], "configuration: server.port:"),
        (#"{"accounts": {"sessionIdleDays": 40}}"#, [:], "configuration: accounts.sessionIdleDays: must not exceed"),
        (#"{}"#, ["NYT_REQUESTS_PER_MINUTE": "0"], "configuration: nyt.requestsPerMinute: expected a whole number from 1 to 1000, got \"0\""),
        (#"{"nyt": {"requestsPerDay": -5}}"#, [:], "configuration: nyt.requestsPerDay: expected a whole number from 1 to 1000000, got -5"),
        (#"{}"#, ["WISHLIST_LANGUAGE": "xx"], "configuration: server.language: \"xx\" is not a language this server has; expected one of en, de, fr, es"),
        (#"{"server": {"language": "en-XA"}}"#, [:], "configuration: server.language: \"en-XA\" is not a language this server has; expected one of en, de, fr, es"),
        (#"[1, 2]"#, [:], "expected a JSON object at the top level"),
        (#"{"server": "#, [:], "not a readable JSON file"),
    ])
    func badValues(json: String, environment: [String: String], message: String) throws {
        let path = try write(json)
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader.load(file: path, fileIsRequired: true, environment: environment)
        }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "no error")")
        #expect(error?.description.contains("\n") == false)
    }

    @Test func theAPIQuotaComesFromTheConfigurationAndReachesTheRateLimiter() async throws {
        let path = try write(#"{"nyt": {"requestsPerMinute": 50}}"#)
        let config = try ConfigLoader.load(file: path, fileIsRequired: true, environment: ["NYT_REQUESTS_PER_DAY": "4000"])
        #expect(config.nyt.requestsPerMinute == 50)
        #expect(config.nyt.requestsPerDay == 4000)
        let database = try AppDatabase.open(path: try temporaryDirectory().appendingPathComponent("quota.sqlite").path)
        let sync = CatalogSync.make(config: config, database: database, logger: Logger(label: "test"))
        #expect(sync.limiter.perMinute == 50)
        #expect(sync.limiter.perDay == 4000)
    }

    @Test func aMissingExplicitFileIsAnErrorButAMissingDefaultIsNot() throws {
        #expect(throws: ConfigError.self) {
            try ConfigLoader.load(file: "/nonexistent/config.json", fileIsRequired: true, environment: [:])
        }
        #expect(try ConfigLoader.load(file: "/nonexistent/config.json", fileIsRequired: false, environment: [:]) == AppConfig())
    }
}
