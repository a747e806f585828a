import Foundation
import GRDB

/// A child's profile as her managers see it: who she is and who manages her.
public struct ChildProfile: Sendable, Equatable {
    public let id: UserID
    public let username: String
    /// The name to show (``MemberName``).
    public let name: String
    public let managers: [ChildManager]
}

/// A member who manages a child's profile.
public struct ChildManager: Sendable, Equatable {
    public let id: UserID
    public let username: String
    public let name: String
}

/// Why a change to a child's profile was refused; the web layer words each.
public enum ChildProblem: Error, Equatable, Sendable {
    /// The name field was empty.
    case noName
    case name(MemberName.Problem)
    /// The acting member does not manage this child (or there is no such child).
    case notManager
    /// No active member has that username (a child cannot manage).
    case unknownMember
    /// Removing this manager would leave the child with none.
    case lastManager
}

/// Children's profiles (issue 51, migration 31): `user` rows of kind `child` that the members in
/// `child_manager` manage. She shares with the household from the start, as a profile made for
/// the family to give to (docs/decisions/children-are-managed-members.md).
public struct Children: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Makes a child's profile named `name` (a display name by ``MemberName``'s rules, required),
    /// managed by `managerID`, with a username made from the name (``ChildUsername``).
    public func create(name typed: String, birthday: Birthday?, managerID: UserID) async throws -> Result<ChildProfile, ChildProblem> {
        let name: String
        do {
            guard let checked = try MemberName.displayName(typed) else { return .failure(.noName) }
            name = checked
        } catch {
            return .failure(.name(error))
        }
        let now = clock.now()
        return try await database.write { db in
            guard try Self.isActiveMember(managerID, db) else { return .failure(.notManager) }
            let username = try ChildUsername.free(for: name, db)
            try db.execute(
                sql: """
                    INSERT INTO user (username, username_key, username_skeleton, password_hash, created_at, kind, sharing,
                                      display_name, display_name_key, display_name_skeleton, birthday)
                    VALUES (?, ?, ?, '', ?, 'child', 'household', ?, ?, ?, ?)
                    """,
                arguments: [username, AccountRules.key(username), NameSkeleton.of(username), StoredDate(now),
                            name, MemberName.key(name), NameSkeleton.of(name), birthday?.stored]
            )
            let childID = UserID(db.lastInsertedRowID)
            try db.execute(sql: "INSERT INTO child_manager (child_id, manager_id, added_at) VALUES (?, ?, ?)", arguments: [childID, managerID, StoredDate(now)])
            return .success(try Reader(db: db).profile(childID: childID)!)
        }
    }

    /// Adds the member `username` as a manager of the child, when `actorID` manages her.
    /// Adding one who already manages her changes nothing and succeeds.
    public func addManager(childID: UserID, username: String, actorID: UserID) async throws -> Result<ChildProfile, ChildProblem> {
        let now = clock.now()
        return try await database.write { db in
            let reader = Reader(db: db)
            guard try reader.isManager(actorID, of: childID) else { return .failure(.notManager) }
            guard let member = try UserStore.find(username: username, db), !member.isChild, try Self.isActiveMember(member.id, db) else {
                return .failure(.unknownMember)
            }
            try db.execute(
                sql: "INSERT INTO child_manager (child_id, manager_id, added_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [childID, member.id, StoredDate(now)]
            )
            return .success(try reader.profile(childID: childID)!)
        }
    }

    /// Removes `managerID` from the child's managers, when `actorID` manages her (a manager may
    /// remove herself); the last manager stays, refused with `.lastManager`. Checked and written
    /// in one transaction, so two managers removing each other at once leave one.
    public func removeManager(childID: UserID, managerID: UserID, actorID: UserID) async throws -> Result<ChildProfile, ChildProblem> {
        try await database.write { db in
            let reader = Reader(db: db)
            guard try reader.isManager(actorID, of: childID) else { return .failure(.notManager) }
            let managers = try reader.profile(childID: childID)?.managers ?? []
            guard managers.contains(where: { $0.id == managerID }) else { return .success(try reader.profile(childID: childID)!) }
            guard managers.count > 1 else { return .failure(.lastManager) }
            try db.execute(sql: "DELETE FROM child_manager WHERE child_id = ? AND manager_id = ?", arguments: [childID, managerID])
            return .success(try reader.profile(childID: childID)!)
        }
    }

    /// How long a hand-over link is valid: an invite's seven days.
    public static let handOverLifetime = Invites.lifetime

    /// A new one-time link that hands the child's profile over to her
    /// (``AccountService/takeOver(token:username:email:password:confirmation:address:)``), replacing
    /// any earlier unused one; its token, shown once to the manager, is stored only as its SHA-256.
    /// Nil when `actorID` does not manage her.
    public func handOver(childID: UserID, actorID: UserID) async throws -> String? {
        let now = clock.now()
        return try await database.write { db in
            guard try Reader(db: db).isManager(actorID, of: childID) else { return nil }
            let token = SecureRandom.token()
            try db.execute(sql: "DELETE FROM child_hand_over WHERE child_id = ? AND used_at IS NULL", arguments: [childID])
            try db.execute(
                sql: "INSERT INTO child_hand_over (child_id, token_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [childID, SessionStore.fingerprint(token), actorID, StoredDate(now), StoredDate(now.addingTimeInterval(Self.handOverLifetime))]
            )
            return token
        }
    }

    public func profile(childID: UserID) async throws -> ChildProfile? {
        try await database.pool.read { try Reader(db: $0).profile(childID: childID) }
    }

    /// The child whose username is `username`, when `memberID` manages her; nil otherwise, so
    /// that a non-manager learns nothing a member's page would not tell her.
    public func managed(username: String, by memberID: UserID) async throws -> ChildProfile? {
        try await database.pool.read { db in
            guard let child = try UserStore.find(username: username, db), child.isChild else { return nil }
            let reader = Reader(db: db)
            guard try reader.isManager(memberID, of: child.id) else { return nil }
            return try reader.profile(childID: child.id)
        }
    }

    public func isManager(_ memberID: UserID, of childID: UserID) async throws -> Bool {
        try await database.pool.read { try Reader(db: $0).isManager(memberID, of: childID) }
    }

    /// A member who may act: not disabled, not a child.
    static func isActiveMember(_ id: UserID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ? AND kind = 'member' AND disabled_at IS NULL", arguments: [id]) == true
    }

    /// Children's queries on a connection a ``PageRead`` holds.
    public struct Reader {
        let db: Database

        public init(db: Database) {
            self.db = db
        }

        public func isManager(_ memberID: UserID, of childID: UserID) throws -> Bool {
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM child_manager WHERE child_id = ? AND manager_id = ?"), arguments: [childID, memberID]
            ) == true
        }

        /// The children `managerID` manages, by name, each with whether `bookID` is on her wishlist:
        /// a book page's "Add to Bea’s wishlist" buttons.
        public func managed(by managerID: UserID, book bookID: String) throws -> [(username: String, name: String, wantsBook: Bool)] {
            try Row.decodeAll(db.cachedStatement(sql: """
                    SELECT child.username, \(MemberName.shownSQL("child")) AS name,
                        EXISTS (SELECT 1 FROM wishlist_item WHERE user_id = child.id AND book_id = ?) AS wants
                    FROM child_manager JOIN user AS child ON child.id = child_manager.child_id
                    WHERE child_manager.manager_id = ? AND child.kind = 'child'
                    ORDER BY COALESCE(child.display_name_key, child.username_key)
                    """), arguments: [bookID, managerID]) { ($0["username"], $0["name"], $0["wants"]) }
        }

        /// The child `childID` with her managers by name; nil when she is not a child (any more).
        public func profile(childID: UserID) throws -> ChildProfile? {
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT id, username, \(MemberName.shownSQL("user")) AS name FROM user WHERE id = ? AND kind = 'child'"),
                arguments: [childID]
            ) else { return nil }
            let managers = try Row.decodeAll(db.cachedStatement(sql: """
                    SELECT manager.id, manager.username, \(MemberName.shownSQL("manager")) AS name
                    FROM child_manager JOIN user AS manager ON manager.id = child_manager.manager_id
                    WHERE child_manager.child_id = ? ORDER BY COALESCE(manager.display_name_key, manager.username_key), manager.username_key
                    """), arguments: [childID]) { ChildManager(id: $0["id"], username: $0["username"], name: $0["name"]) }
            return ChildProfile(id: row["id"], username: row["username"], name: row["name"], managers: managers)
        }
    }
}

/// A child's username: `~` and her name in plain ASCII (`~zoe` for "Zoë"), numbered when taken
/// (`~zoe2`). The username rules refuse `~`, so no sign-up, single sign-on or proxy name can ever
/// ask for it, and `~` needs no escaping in her address `/people/~zoe`.
enum ChildUsername {
    static let marker: Character = "~"

    static func base(for name: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        let kept = folded.lowercased().unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " { return "." }
            let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_".unicodeScalars.contains(scalar))
            return allowed ? Character(scalar) : nil
        }
        let plain = String(kept).split(separator: ".", omittingEmptySubsequences: true).joined(separator: ".")
        return plain.count >= 2 ? plain : "child"
    }

    /// The first free name for `name`, within the username length.
    static func free(for name: String, _ db: Database) throws -> String {
        let base = String(marker) + base(for: name)
        var number = 1
        while true {
            let suffix = number == 1 ? "" : String(number)
            let candidate = String(base.prefix(AccountRules.usernameLengths.upperBound - suffix.count)) + suffix
            if try UserStore.find(username: candidate, db) == nil { return candidate }
            number += 1
        }
    }
}
