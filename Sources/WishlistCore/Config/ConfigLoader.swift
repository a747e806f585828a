import Foundation
import Logging
import WishlistLanguages

/// A configuration problem, reported as one line that names the key: start-up stops on it.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public let key: String
    public let problem: String

    public var description: String { "configuration: \(key): \(problem)" }
}

/// Builds an `AppConfig` from the JSON file, the environment and command-line overrides.
public enum ConfigLoader {
    /// Loads `file` (skipped when it is nil or, for the default file, absent), then the environment,
    /// then `overrides` (flag values keyed like the JSON, e.g. `server.port`).
    public static func load(
        file: String?,
        fileIsRequired: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        overrides: [String: String] = [:]
    ) throws -> AppConfig {
        var config = AppConfig()
        if let file {
            if FileManager.default.fileExists(atPath: file) {
                try applyJSON(at: file, to: &config)
            } else if fileIsRequired {
                throw ConfigError(key: "--config", problem: "no file at \(file)")
            }
        }
        for setting in ConfigSetting.all {
            if let name = setting.environmentName, let text = environment[name], !text.isEmpty {
                try setting.apply(.text(text), &config)
            }
        }
        for (key, text) in overrides.sorted(by: { $0.key < $1.key }) {
            guard let setting = ConfigSetting.named[key] else {
                throw ConfigError(key: key, problem: "unknown setting")
            }
            try setting.apply(.text(text), &config)
        }
        try validate(config)
        return config
    }

    /// The file's bytes. Not `Data(contentsOf:)`: this toolchain's Foundation keeps the 4 KB
    /// buffer it reads an empty file with, which the config fuzzer's empty files added up to
    /// 1.9 GB (docs/fuzzing.md, finding 8).
    static func contents(of path: String) throws -> Data {
        guard let file = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { try? file.close() }
        return try file.readToEnd() ?? Data()
    }

    static func applyJSON(at path: String, to config: inout AppConfig) throws {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: try contents(of: path))
        } catch {
            throw ConfigError(key: path, problem: "not a readable JSON file")
        }
        guard case .object(let object) = root else {
            throw ConfigError(key: path, problem: "expected a JSON object at the top level")
        }
        for (key, value) in flatten(object, prefix: "") {
            guard let setting = ConfigSetting.named[key] else {
                throw ConfigError(key: key, problem: "unknown setting in \(path)")
            }
            try setting.apply(.json(value), &config)
        }
    }

    /// Turns nested objects into dotted keys, except where a key names a whole setting.
    private static func flatten(_ object: [String: JSONValue], prefix: String) -> [(String, JSONValue)] {
        object.sorted(by: { $0.key < $1.key }).flatMap { key, value -> [(String, JSONValue)] in
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            if case .object(let nested) = value, ConfigSetting.named[path] == nil {
                return flatten(nested, prefix: path)
            }
            return [(path, value)]
        }
    }

    /// Rules that involve more than one key.
    private static func validate(_ config: AppConfig) throws {
        if config.accounts.sessionIdleDays > config.accounts.sessionAbsoluteDays {
            throw ConfigError(
                key: "accounts.sessionIdleDays",
                problem: "must not exceed accounts.sessionAbsoluteDays (\(config.accounts.sessionAbsoluteDays))"
            )
        }
        if config.mail.isEnabled && config.mail.from.isEmpty {
            throw ConfigError(key: "mail.from", problem: "must be set when mail.smtpURL is: it is the From of every message")
        }
        try validateSignInWays(config)
        try validateLanguage(config.server)
    }

    /// A shipped language's code; en-XA only when the tests' pseudo-language is on.
    private static func validateLanguage(_ server: AppConfig.Server) throws {
        let codes = LanguageData.shipped.map(\.code) + (server.pseudoLanguage ? [PseudoLanguage.code] : [])
        guard codes.contains(server.language) else {
            throw ConfigError(
                key: "server.language",
                problem: "\"\(server.language)\" is not a language this server has; expected one of \(codes.joined(separator: ", "))"
            )
        }
    }

    /// Single sign-on needs its client; a trusted header needs the proxies it is believed from;
    /// turning passwords off needs another way in, or no one could sign in.
    private static func validateSignInWays(_ config: AppConfig) throws {
        let accounts = config.accounts
        if accounts.oidc.isOn && accounts.oidc.clientID.isEmpty {
            throw ConfigError(key: "accounts.oidc.clientID", problem: "must be set when accounts.oidc.issuer is")
        }
        if accounts.oidc.isOn && accounts.oidc.signup == true && accounts.signup == .closed {
            throw ConfigError(
                key: "accounts.oidc.signup",
                problem: "true contradicts accounts.signup: closed, under which only `wishlist user create` makes accounts; remove one of the two"
            )
        }
        if !accounts.trustedHeader.isEmpty && config.server.trustedProxies.isEmpty {
            throw ConfigError(key: "accounts.trustedHeader", problem: "is believed only from server.trustedProxies, which is empty")
        }
        if !accounts.passwordSignIn && !accounts.oidc.isOn && accounts.trustedHeader.isEmpty {
            throw ConfigError(
                key: "accounts.passwordSignIn", problem: "false needs accounts.oidc.issuer or accounts.trustedHeader, or no one could sign in"
            )
        }
    }
}
