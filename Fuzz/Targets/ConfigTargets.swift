import Foundation
import WishlistCore

/// The configuration file's contents, then, after a NUL, `NAME=value` lines as the environment:
/// loaded as the server loads them at start. What loads keeps the rules that span keys and has
/// no NUL in a text, and neither a loaded configuration's description (which the log prints) nor a refusal quotes a
/// secret.
@Sendable func fuzzConfig(_ bytes: [UInt8]) {
    let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let environment = environmentLines(bytes[min(split + 1, bytes.endIndex)...])
    guard (try? Data(bytes[..<split]).write(to: configFile)) != nil else { fatalError("cannot write \(configFile.path)") }
    do {
        let config = try ConfigLoader.load(file: configFile.path, fileIsRequired: true, environment: environment)
        checkRules(config)
        checkMasked(config)
    } catch let error as ConfigError {
        for (name, key) in secretVariables {
            guard error.key == key, let value = environment[name], value.utf8.count >= 8 else { continue }
            require(!holds(error.problem, value), "the refusal of \(key) quotes its value")
        }
    } catch {
        require(false, "load threw \(error), not a ConfigError")
    }
}

/// One file for the process: libFuzzer runs one input at a time.
private let configFile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("wishlist-fuzz-config-\(getpid()).json")

/// The variables whose values are secrets, and their keys.
private let secretVariables = [
    "WISHLIST_SMTP_PASSWORD": "mail.password",
    "WISHLIST_SMTP_URL": "mail.smtpURL",
    "WISHLIST_OIDC_CLIENT_SECRET": "accounts.oidc.clientSecret",
    "NYT_API_KEY": "nyt.apiKey",
]

private func environmentLines(_ bytes: ArraySlice<UInt8>) -> [String: String] {
    var environment: [String: String] = [:]
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
        guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
        environment[String(decoding: line[..<equals], as: UTF8.self)] = String(decoding: line[(equals + 1)...], as: UTF8.self)
    }
    return environment
}

private func checkRules(_ config: AppConfig) {
    require((1...65535).contains(config.server.port), "port \(config.server.port)")
    require(config.accounts.sessionIdleDays <= config.accounts.sessionAbsoluteDays, "idle sessions outlive every session")
    require(!config.mail.isEnabled || config.mail.sender != nil, "mail on without a sender")
    require(!config.accounts.oidc.isOn || !config.accounts.oidc.clientID.isEmpty, "single sign-on without a client")
    require(config.accounts.passwordSignIn || config.accounts.oidc.isOn || !config.accounts.trustedHeader.isEmpty, "no way to sign in")
    // SQLite, libcurl and the file system read these as C strings, which end at a NUL.
    let texts = [
        config.server.host, config.server.viewsDirectory, config.server.publicDirectory, config.server.publicURL, config.server.timeZone,
        config.database.path, config.nyt.apiKey, config.nyt.baseURL, config.openLibrary.baseURL, config.openLibrary.coversURL,
        config.mail.smtpURL, config.mail.username, config.mail.password, config.mail.from, config.accounts.oidc.issuer,
        config.accounts.oidc.clientID, config.accounts.oidc.clientSecret, config.accounts.oidc.buttonLabel, config.accounts.trustedHeader,
    ]
    require(!texts.contains { $0.utf8.contains(0) }, "a setting with a NUL, where C would cut it")
}

/// The password and the client secret stay out of their settings' descriptions; a secret that
/// another shown field holds anyway (a password equal to the user name) proves nothing.
private func checkMasked(_ config: AppConfig) {
    var mail = config.mail
    mail.password = "masked"
    if !config.mail.password.isEmpty && !holds(String(describing: mail), config.mail.password) {
        require(!holds(String(describing: config.mail), config.mail.password), "the mail settings' description shows the password")
    }
    var oidc = config.accounts.oidc
    oidc.clientSecret = "masked"
    if !config.accounts.oidc.clientSecret.isEmpty && !holds(String(describing: oidc), config.accounts.oidc.clientSecret) {
        require(!holds(String(describing: config.accounts.oidc), config.accounts.oidc.clientSecret), "the single sign-on settings' description shows the secret")
    }
}
