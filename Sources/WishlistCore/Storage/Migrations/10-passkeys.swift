import GRDB

// Migration "10-passkeys"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-10.sql`.
extension Migrations {
    /// Passkeys (WebAuthn credentials), the random handle each user's passkeys carry, and the
    /// single-use challenges of the ceremonies. Everything goes with the account.
    static func createPasskeys(_ db: Database) throws {
        try db.create(table: "passkey_user") { table in
            table.primaryKey("user_id", .integer).references("user", onDelete: .cascade)
            table.column("handle", .blob).notNull().unique()
        }
        try db.create(table: "passkey") { table in
            table.autoIncrementedPrimaryKey("id")
            table.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
            table.column("credential_id", .blob).notNull().unique()
            // The COSE key, exactly as the authenticator sent it.
            table.column("public_key", .blob).notNull()
            table.column("sign_count", .integer).notNull()
            table.column("name", .text).notNull()
            table.column("created_at", .datetime).notNull()
            table.column("last_used_at", .datetime)
        }
        try db.create(table: "passkey_challenge") { table in
            table.primaryKey("challenge", .blob)
            table.column("purpose", .text).notNull()
            table.column("user_id", .integer).references("user", onDelete: .cascade)
            table.column("expires_at", .datetime).notNull().indexed()
        }
    }
}
