import CivilTime
import Foundation
import Logging

/// A raw value for a setting: from JSON (already typed) or from text (environment, flags).
enum ConfigInput {
    case json(JSONValue)
    case text(String)
}

/// One configurable key: its dotted name, its environment variable, and how it parses.
struct ConfigSetting {
    let key: String
    let environmentName: String?
    let apply: (ConfigInput, inout AppConfig) throws -> Void

    static var all: [ConfigSetting] {
        [
        string("server.host", env: "WISHLIST_HOST", \.server.host),
        int("server.port", env: "WISHLIST_PORT", 1...65535, \.server.port),
        bool("server.secureCookies", env: "WISHLIST_SECURE_COOKIES", \.server.secureCookies),
        bool("server.devMode", env: "WISHLIST_DEV", \.server.devMode),
        string("server.viewsDirectory", env: "WISHLIST_VIEWS", \.server.viewsDirectory),
        string("server.publicDirectory", env: "WISHLIST_PUBLIC", \.server.publicDirectory),
        choice("server.logLevel", env: "WISHLIST_LOG_LEVEL", Logger.Level.allCases, \.server.logLevel),
        int("server.idleTimeoutSeconds", env: "WISHLIST_IDLE_TIMEOUT", 1...3600, \.server.idleTimeoutSeconds),
        int("server.maxConnections", env: "WISHLIST_MAX_CONNECTIONS", 8...100_000, \.server.maxConnections),
        url("server.publicURL", env: "WISHLIST_PUBLIC_URL", \.server.publicURL),
        addresses("server.trustedProxies", env: "WISHLIST_TRUSTED_PROXIES", \.server.trustedProxies),
        choice("server.forwardedHeader", env: "WISHLIST_FORWARDED_HEADER", ForwardingHeader.allCases, \.server.forwardedHeader),
        timeZone("server.timeZone", env: "WISHLIST_TIME_ZONE", \.server.timeZone),
        string("server.language", env: "WISHLIST_LANGUAGE", \.server.language),
        bool("server.pseudoLanguage", env: "WISHLIST_PSEUDO_LANGUAGE", \.server.pseudoLanguage),
        string("database.path", env: "WISHLIST_DATABASE", \.database.path),
        string("nyt.apiKey", env: "NYT_API_KEY", allowEmpty: true, \.nyt.apiKey),
        url("nyt.baseURL", env: "NYT_BASE_URL", \.nyt.baseURL),
        int("nyt.refreshHours", env: "NYT_REFRESH_HOURS", 1...720, \.nyt.refreshHours),
        int("nyt.requestsPerMinute", env: "NYT_REQUESTS_PER_MINUTE", 1...1000, \.nyt.requestsPerMinute),
        int("nyt.requestsPerDay", env: "NYT_REQUESTS_PER_DAY", 1...1_000_000, \.nyt.requestsPerDay),
        int("nyt.historyWeeks", env: "NYT_HISTORY_WEEKS", 1...1040, \.nyt.historyWeeks),
        url("openLibrary.baseURL", env: "OPENLIBRARY_BASE_URL", allowEmpty: true, \.openLibrary.baseURL),
        url("openLibrary.coversURL", env: "OPENLIBRARY_COVERS_URL", \.openLibrary.coversURL),
        int("api.requestsPerMinute", env: "WISHLIST_API_REQUESTS_PER_MINUTE", 1...100_000, \.api.requestsPerMinute),
        int("covers.cacheMegabytes", env: "WISHLIST_COVER_CACHE_MB", 16...1_000_000, \.covers.cacheMegabytes),
        smtpURL("mail.smtpURL", env: "WISHLIST_SMTP_URL", \.mail.smtpURL),
        string("mail.username", env: "WISHLIST_SMTP_USERNAME", allowEmpty: true, \.mail.username),
        string("mail.password", env: "WISHLIST_SMTP_PASSWORD", allowEmpty: true, \.mail.password),
        mailAddress("mail.from", env: "WISHLIST_MAIL_FROM", \.mail.from),
        int("mail.timeoutSeconds", env: "WISHLIST_SMTP_TIMEOUT", 1...600, \.mail.timeoutSeconds),
        choice("accounts.signup", env: "WISHLIST_SIGNUP", AppConfig.Signup.allCases, \.accounts.signup),
        choice("accounts.defaultSharing", env: "WISHLIST_DEFAULT_SHARING", Sharing.allCases, \.accounts.defaultSharing),
        bool("metrics.enabled", env: "WISHLIST_METRICS", \.metrics.enabled),
        addresses("metrics.allowFrom", env: "WISHLIST_METRICS_ALLOW_FROM", \.metrics.allowFrom),
        int("accounts.argon2.memoryKiB", env: nil, 8...4_194_304, \.accounts.argon2.memoryKiB),
        int("accounts.argon2.iterations", env: nil, 1...100, \.accounts.argon2.iterations),
        int("accounts.argon2.parallelism", env: nil, 1...64, \.accounts.argon2.parallelism),
        int("accounts.maxConcurrentHashes", env: nil, 1...64, \.accounts.maxConcurrentHashes),
        int("accounts.maxWaitingHashes", env: nil, 0...10000, \.accounts.maxWaitingHashes),
        int("accounts.sessionIdleDays", env: nil, 1...365, \.accounts.sessionIdleDays),
        int("accounts.sessionAbsoluteDays", env: nil, 1...3650, \.accounts.sessionAbsoluteDays),
        int("accounts.throttleWindowMinutes", env: nil, 1...1440, \.accounts.throttleWindowMinutes),
        int("accounts.failedLoginsPerAccount", env: nil, 1...100_000, \.accounts.failedLoginsPerAccount),
        int("accounts.failedLoginsPerAddress", env: nil, 1...10000, \.accounts.failedLoginsPerAddress),
        int("accounts.signupsPerAddress", env: nil, 1...10000, \.accounts.signupsPerAddress),
        issuer("accounts.oidc.issuer", env: "WISHLIST_OIDC_ISSUER", \.accounts.oidc.issuer),
        string("accounts.oidc.clientID", env: "WISHLIST_OIDC_CLIENT_ID", allowEmpty: true, \.accounts.oidc.clientID),
        string("accounts.oidc.clientSecret", env: "WISHLIST_OIDC_CLIENT_SECRET", allowEmpty: true, \.accounts.oidc.clientSecret),
        string("accounts.oidc.buttonLabel", env: nil, \.accounts.oidc.buttonLabel),
        string("accounts.oidc.providerName", env: nil, allowEmpty: true, \.accounts.oidc.providerName),
        bool("accounts.oidc.signup", env: nil, \.accounts.oidc.signup),
        bool("accounts.passwordSignIn", env: "WISHLIST_PASSWORD_SIGNIN", \.accounts.passwordSignIn),
        headerName("accounts.trustedHeader", env: "WISHLIST_TRUSTED_HEADER", \.accounts.trustedHeader),
        linkTemplates("books.borrowLinks", \.books.borrowLinks),
        linkTemplates("books.buyLinks", \.books.buyLinks),
        ]
    }

    static var named: [String: ConfigSetting] { Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) }) }

    // MARK: Parsers

    private static func string(
        _ key: String, env: String?, allowEmpty: Bool = false, _ path: WritableKeyPath<AppConfig, String>
    ) -> ConfigSetting {
        ConfigSetting(key: key, environmentName: env) { input, config in
            let value: String
            switch input {
            case .text(let text): value = text
            case .json(let json):
                guard case .string(let text) = json else { throw ConfigError(key: key, problem: "expected a string") }
                value = text
            }
            if value.isEmpty && !allowEmpty { throw ConfigError(key: key, problem: "must not be empty") }
            // A JSON string may hold "\u0000"; the C below (SQLite's path, libcurl's URL, user name
            // and password) would read only up to it. Not quoted: the value may be a secret.
            if value.utf8.contains(0) { throw ConfigError(key: key, problem: "must not contain a NUL character") }
            config[keyPath: path] = value
        }
    }

    private static func int(
        _ key: String, env: String?, _ range: ClosedRange<Int>, _ path: WritableKeyPath<AppConfig, Int>
    ) -> ConfigSetting {
        ConfigSetting(key: key, environmentName: env) { input, config in
            let problem = "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
            let value: Int?
            switch input {
            case .text(let text): value = Int(text)
            case .json(let json):
                if case .number(let number) = json { value = Int(exactly: number) } else { value = nil }
            }
            guard let value, range.contains(value) else {
                throw ConfigError(key: key, problem: "\(problem), got \(describe(input))")
            }
            config[keyPath: path] = value
        }
    }

    /// An IANA zone name that the system's zoneinfo has (or UTC, which needs none), checked by
    /// loading it, so a misspelt zone stops the server at start rather than shifting birthdays.
    private static func timeZone(_ key: String, env: String?, _ path: WritableKeyPath<AppConfig, String>) -> ConfigSetting {
        ConfigSetting(key: key, environmentName: env) { input, config in
            let text: String
            switch input {
            case .text(let value): text = value
            case .json(.string(let value)): text = value
            case .json: throw ConfigError(key: key, problem: "expected a string naming a time zone, such as \"Europe/Berlin\"")
            }
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                _ = try ZoneRules.load(named: name)
            } catch let error as ZoneRulesError {
                throw ConfigError(key: key, problem: error.description)
            }
            config[keyPath: path] = name
        }
    }

    private static func bool(
        _ key: String, env: String?, _ path: WritableKeyPath<AppConfig, Bool>
    ) -> ConfigSetting {
        ConfigSetting(key: key, environmentName: env) { input, config in
            config[keyPath: path] = try flag(key, input)
        }
    }

    /// A flag whose absence means something of its own (nil: as another setting says).
    private static func bool(
        _ key: String, env: String?, _ path: WritableKeyPath<AppConfig, Bool?>
    ) -> ConfigSetting {
        ConfigSetting(key: key, environmentName: env) { input, config in
            config[keyPath: path] = try flag(key, input)
        }
    }

    private static func flag(_ key: String, _ input: ConfigInput) throws -> Bool {
        let value: Bool?
        switch input {
        case .text(let text):
            switch text.lowercased() {
            case "true", "1", "yes", "on": value = true
            case "false", "0", "no", "off": value = false
            default: value = nil
            }
        case .json(let json):
            if case .bool(let flag) = json { value = flag } else { value = nil }
        }
        guard let value else { throw ConfigError(key: key, problem: "expected true or false, got \(describe(input))") }
        return value
    }

    private static func choice<Value: RawRepresentable<String>>(
        _ key: String, env: String?, _ values: [Value], _ path: WritableKeyPath<AppConfig, Value>
    ) -> ConfigSetting {
        ConfigSetting(key: key, environmentName: env) { input, config in
            let text: String?
            switch input {
            case .text(let value): text = value
            case .json(.string(let value)): text = value
            case .json: text = nil
            }
            guard let text, let value = values.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                let names = values.map(\.rawValue).joined(separator: ", ")
                throw ConfigError(key: key, problem: "expected one of \(names), got \(describe(input))")
            }
            config[keyPath: path] = value
        }
    }

    /// An http(s) URL without its trailing slash; with `allowEmpty`, "" too (a feature turned off).
    private static func url(
        _ key: String, env: String?, allowEmpty: Bool = false, _ path: WritableKeyPath<AppConfig, String>
    ) -> ConfigSetting {
        let parseString = string(key, env: env, allowEmpty: allowEmpty, path)
        return ConfigSetting(key: key, environmentName: env) { input, config in
            try parseString.apply(input, &config)
            let text = config[keyPath: path]
            if text.isEmpty && allowEmpty { return }
            guard let components = URLComponents(string: text),
                  let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  components.encodedHost?.isEmpty == false
            else {
                throw ConfigError(key: key, problem: "expected an http or https URL, got \"\(text)\"")
            }
            config[keyPath: path] = text.hasSuffix("/") ? String(text.dropLast()) : text
        }
    }

    /// `smtp://host[:port]` or `smtps://host[:port]`, or "" (no mail).
    private static func smtpURL(_ key: String, env: String?, _ path: WritableKeyPath<AppConfig, String>) -> ConfigSetting {
        let parseString = string(key, env: env, allowEmpty: true, path)
        return ConfigSetting(key: key, environmentName: env) { input, config in
            try parseString.apply(input, &config)
            let text = config[keyPath: path]
            // The value is not repeated: a URL with a password in it would put it in the log.
            guard text.isEmpty || SMTPClient.protection(for: text) != nil else {
                throw ConfigError(key: key, problem: "expected smtp://host:587 or smtps://host:465")
            }
            guard URLComponents(string: text)?.user == nil else {
                throw ConfigError(key: key, problem: "put the user name and password in mail.username and mail.password, not in the URL")
            }
        }
    }

    /// An address ``MailAddress`` accepts, or "".
    private static func mailAddress(_ key: String, env: String?, _ path: WritableKeyPath<AppConfig, String>) -> ConfigSetting {
        let parseString = string(key, env: env, allowEmpty: true, path)
        return ConfigSetting(key: key, environmentName: env) { input, config in
            try parseString.apply(input, &config)
            let text = config[keyPath: path]
            guard text.isEmpty || MailAddress(text) != nil else {
                throw ConfigError(key: key, problem: "expected a plain address such as wishlist@example.com, got \"\(text)\"")
            }
        }
    }

    /// An OpenID Connect issuer: https, or http only to this machine's loopback (a provider run
    /// beside the app, or by the tests), like the mail rule: tokens and the client secret never
    /// cross a network in clear text. Empty turns single sign-on off. Kept exactly as written,
    /// since the ID token's `iss` must equal it.
    private static func issuer(_ key: String, env: String?, _ path: WritableKeyPath<AppConfig, String>) -> ConfigSetting {
        let parseString = string(key, env: env, allowEmpty: true, path)
        return ConfigSetting(key: key, environmentName: env) { input, config in
            try parseString.apply(input, &config)
            let text = config[keyPath: path]
            if text.isEmpty { return }
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
                  let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
                  scheme == "https" || (scheme == "http" && AddressRange.isLoopback(host: host))
            else {
                throw ConfigError(key: key, problem: "expected an https URL (http only to 127.0.0.1, ::1 or localhost), got \"\(text)\"")
            }
        }
    }

    /// An HTTP header's name (RFC 9110 token characters), or empty.
    private static func headerName(_ key: String, env: String?, _ path: WritableKeyPath<AppConfig, String>) -> ConfigSetting {
        let parseString = string(key, env: env, allowEmpty: true, path)
        return ConfigSetting(key: key, environmentName: env) { input, config in
            try parseString.apply(input, &config)
            let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
            guard config[keyPath: path].allSatisfy(tokenCharacters.contains) else {
                throw ConfigError(key: key, problem: "expected a header name such as Remote-User, got \"\(config[keyPath: path])\"")
            }
        }
    }

    /// Addresses or CIDR blocks: a JSON array of strings, or comma-separated text in the environment.
    private static func addresses(
        _ key: String, env: String?, _ path: WritableKeyPath<AppConfig, [AddressRange]>
    ) -> ConfigSetting {
        ConfigSetting(key: key, environmentName: env) { input, config in
            let texts: [String]
            switch input {
            case .text(let text): texts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case .json(.array(let values)):
                texts = try values.map { value in
                    guard case .string(let text) = value else {
                        throw ConfigError(key: key, problem: "expected a list of addresses or CIDR blocks as strings, got \(value.description)")
                    }
                    return text
                }
            case .json(let other):
                throw ConfigError(key: key, problem: "expected a list of addresses or CIDR blocks, got \(other.description)")
            }
            config[keyPath: path] = try texts.map { text in
                guard let range = AddressRange(text) else {
                    throw ConfigError(key: key, problem: "expected an IP address or CIDR block such as 127.0.0.1 or 10.0.0.0/8, got \"\(text)\"")
                }
                return range
            }
        }
    }

    /// A list of `{ "name": "…", "url": "https://…{isbn13}…" }` (``BookLinkTemplate``); no
    /// environment variable, so as JSON text when given as text.
    private static func linkTemplates(_ key: String, _ path: WritableKeyPath<AppConfig, [BookLinkTemplate]>) -> ConfigSetting {
        ConfigSetting(key: key, environmentName: nil) { input, config in
            let shape = "expected a list of { \"name\": \"…\", \"url\": \"https://…\" }"
            let json: JSONValue
            switch input {
            case .json(let value): json = value
            case .text(let text):
                guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { throw ConfigError(key: key, problem: shape) }
                json = value
            }
            guard case .array(let entries) = json else { throw ConfigError(key: key, problem: "\(shape), got \(json.description)") }
            config[keyPath: path] = try entries.enumerated().map { index, entry in
                guard case .object(let fields) = entry, case .string(let name)? = fields["name"], case .string(let url)? = fields["url"],
                      Set(fields.keys).isSubset(of: ["name", "url"])
                else {
                    throw ConfigError(key: key, problem: "entry \(index + 1): \(shape), with nothing else")
                }
                do {
                    return try BookLinkTemplate(name: name, url: url)
                } catch let problem as BookLinkTemplate.Problem {
                    throw ConfigError(key: key, problem: "entry \(index + 1) (\"\(name)\") \(problem.sentence)")
                }
            }
        }
    }

    private static func describe(_ input: ConfigInput) -> String {
        switch input {
        case .text(let text): return "\"\(text)\""
        case .json(let json): return json.description
        }
    }
}
