import GRDB

// Migration "15-passkey-challenge-browser"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-15.sql`.
extension Migrations {
    /// A passkey challenge names the browser that asked for it (the SHA-256 of its cookie token)
    /// and the client's address: a ceremony must be finished by the same browser, a browser holds
    /// a few live challenges at most, and an address a few dozen, where one server-wide cap let
    /// anyone block passkeys for everyone (issue 27). Challenges live five minutes, so the rows
    /// made before this migration, without a browser, simply expire.
    static func bindPasskeyChallengesToBrowsers(_ db: Database) throws {
        try db.alter(table: "passkey_challenge") { table in
            table.add(column: "browser", .blob)
            table.add(column: "address", .text)
        }
        try db.create(index: "passkey_challenge_by_browser", on: "passkey_challenge", columns: ["browser"])
        try db.create(index: "passkey_challenge_by_address", on: "passkey_challenge", columns: ["address"])
    }
}
