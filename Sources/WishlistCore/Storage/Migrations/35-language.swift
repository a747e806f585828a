import GRDB

// Migration "35-language"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-35.sql`.
extension Migrations {
    /// The language a member reads the app in (issue 53): a shipped language's code ("de"), or
    /// NULL to follow her browser's `Accept-Language`, as every member does until she chooses.
    /// No CHECK lists the codes: adding a language must not need a migration; the web layer
    /// accepts only a shipped code, and reads any other as NULL.
    static func addMemberLanguage(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE user ADD COLUMN language TEXT")
    }
}
