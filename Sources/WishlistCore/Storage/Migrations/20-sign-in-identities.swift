import GRDB

// Migration "20-sign-in-identities"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-20.sql`.
extension Migrations {
    /// Single sign-on (issue 32): the provider identities linked to accounts, and the sign-ins
    /// under way at a provider, each bound to the browser that started it. An account made by
    /// single sign-on has no password: its `password_hash` is empty, which never verifies.
    static func createSignInIdentities(_ db: Database) throws {
        try db.create(table: "sign_in_identity") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("issuer", .text).notNull()
            // The provider's `sub`: unique within its issuer, the only stable name of a person there.
            table.column("subject", .text).notNull()
            table.column("created_at", .datetime).notNull()
            table.column("last_used_at", .datetime)
            table.uniqueKey(["issuer", "subject"])
        }
        try db.create(table: "sign_in_attempt") { table in
            // The `state` sent to the provider, which it hands back.
            table.primaryKey("state", .text)
            // SHA-256 of the short-lived cookie's token: only the browser that started it may finish it.
            table.column("browser", .blob).notNull()
            table.column("nonce", .text).notNull()
            table.column("code_verifier", .text).notNull()
            // Set when a signed-in member links an identity rather than signing in.
            table.column("user_id", .integer).references("user", onDelete: .cascade)
            table.column("next", .text).notNull().defaults(to: "/")
            // The client address that started it: each address holds a bounded number at once.
            table.column("address", .text).notNull().indexed()
            table.column("expires_at", .datetime).notNull().indexed()
        }
    }
}
