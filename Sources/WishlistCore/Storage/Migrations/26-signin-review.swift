import GRDB

// Migration "26-signin-review"; the database it leaves, with rows, is the upgrade fixture `Tests/WishlistTests/Storage/Upgrades/schema-26.sql`.
extension Migrations {
    /// Issue 50's sign-in review:
    /// - Names are compared by what they look like (``NameSkeleton``), so that "аlice" with a
    ///   Cyrillic "а" or a zero-width joiner shows the username beside it: each account's
    ///   username and display name get their skeletons, computed here for the names already
    ///   stored, and indexed for ``MemberName/shownSQL(_:)``'s look-ups.
    /// - A sign-in through single sign-on started from an invite link carries the invite (the
    ///   SHA-256 of its token, as `invite` keeps it) to the callback, which spends it when the
    ///   identity gets a new account (`accounts.signup: invite`).
    static func reviewSignIn(_ db: Database) throws {
        try db.alter(table: "user") { table in
            table.add(column: "username_skeleton", .text)
            table.add(column: "display_name_skeleton", .text)
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, username, display_name FROM user") {
            let displayName: String? = row["display_name"]
            try db.execute(
                sql: "UPDATE user SET username_skeleton = ?, display_name_skeleton = ? WHERE id = ?",
                arguments: [NameSkeleton.of(row["username"]), displayName.map(NameSkeleton.of), row["id"]]
            )
        }
        try db.create(index: "user_by_username_skeleton", on: "user", columns: ["username_skeleton"])
        try db.create(index: "user_by_display_name_skeleton", on: "user", columns: ["display_name_skeleton"])
        try db.alter(table: "sign_in_attempt") { table in
            table.add(column: "invite_hash", .blob)
        }
    }
}
