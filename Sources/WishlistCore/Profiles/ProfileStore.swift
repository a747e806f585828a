import Foundation
import GRDB

/// Members' profiles: the bio, birthday and favourites on `user` and `favorite_book`, and the
/// picture in `profile_picture` (in the database, so backups carry it).
public struct ProfileStore: Sendable {
    public enum SaveOutcome: Sendable, Equatable {
        case saved
        /// A favourite is not among the member's readings (forgotten meanwhile, or another's).
        case unknownFavorite
    }

    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func profile(userID: UserID) async throws -> Profile {
        try await database.pool.read { try Reader(db: $0).profile(userID: userID) }
    }

    /// Saves the display name (checked by ``MemberName/displayName(_:)``; nil for none), the bio,
    /// the birthday and the favourites (reading ids, in order) in one transaction.
    public func save(userID: UserID, displayName: String?, bio: String, birthday: Birthday?, favorites: [ReadingID]) async throws -> SaveOutcome {
        try await database.write { db in
            let own = try Set(ReadingID.fetchAll(db, sql: "SELECT id FROM reading WHERE user_id = ?", arguments: [userID]))
            guard favorites.allSatisfy(own.contains) else { return .unknownFavorite }
            try db.execute(
                sql: "UPDATE user SET display_name = ?, display_name_key = ?, display_name_skeleton = ?, bio = ?, birthday = ? WHERE id = ?",
                arguments: [displayName, displayName.map(MemberName.key), displayName.map(NameSkeleton.of), bio, birthday?.stored, userID]
            )
            try db.execute(sql: "DELETE FROM favorite_book WHERE user_id = ?", arguments: [userID])
            for (position, readingID) in favorites.prefix(Profile.favoriteMaximumCount).enumerated() {
                try db.execute(
                    sql: "INSERT INTO favorite_book (user_id, position, reading_id) VALUES (?, ?, ?)", arguments: [userID, position, readingID]
                )
            }
            return .saved
        }
    }

    /// Replaces the member's picture; the new one has a new key, so no cache keeps the old.
    public func setPicture(userID: UserID, large: [UInt8], small: [UInt8], at now: Date) async throws -> String {
        let key = Base64URL.encode(SecureRandom.bytes(12))
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO profile_picture (user_id, key, large, small, uploaded_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET key = excluded.key, large = excluded.large, small = excluded.small, uploaded_at = excluded.uploaded_at
                    """,
                arguments: [userID, key, Data(large), Data(small), StoredDate(now)]
            )
        }
        return key
    }

    /// Removes the member's picture; false when there was none.
    public func deletePicture(userID: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM profile_picture WHERE user_id = ?", arguments: [userID])
            return db.changesCount > 0
        }
    }

    /// A picture's bytes by its key, at 256 px (`large`) or 64 px.
    public func picture(key: String, large: Bool) async throws -> [UInt8]? {
        try await database.pool.read { db in
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT \(large ? "large" : "small") FROM profile_picture WHERE key = ?"), arguments: [key]
            ).map { [UInt8]($0) }
        }
    }

    /// The profile queries on a connection a ``PageRead`` holds.
    public struct Reader {
        let db: Database

        /// The birthdays of the members who share (everyone's but `viewerID`'s), by username, with
        /// the name to show (``MemberName``).
        public func birthdays(excluding viewerID: UserID) throws -> [(username: String, name: String, birthday: Birthday)] {
            try Row.decodeAll(
                db.cachedStatement(sql: """
                    SELECT username, \(MemberName.shownSQL("user")) AS name, birthday FROM user
                    WHERE birthday IS NOT NULL AND sharing = 'household' AND disabled_at IS NULL AND id != ?
                    ORDER BY username_key
                    """),
                arguments: [viewerID]
            ) { row in
                (row["birthday"] as String?).flatMap(Birthday.init(stored:)).map { (username: row["username"] as String, name: row["name"] as String, birthday: $0) }
            }.compactMap { $0 }
        }

        public func profile(userID: UserID) throws -> Profile {
            guard let row = try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT user.display_name, user.bio, user.birthday, profile_picture.key FROM user
                    LEFT JOIN profile_picture ON profile_picture.user_id = user.id WHERE user.id = ?
                    """),
                arguments: [userID]
            ) else { return .empty }
            let favorites = try Row.decodeAll(db.cachedStatement(sql: """
                    SELECT reading.* FROM favorite_book JOIN reading ON reading.id = favorite_book.reading_id
                    WHERE favorite_book.user_id = ? ORDER BY favorite_book.position
                    """), arguments: [userID], ReadingStore.reading)
            return Profile(
                displayName: row["display_name"], bio: row["bio"], birthday: (row["birthday"] as String?).flatMap(Birthday.init(stored:)),
                pictureKey: row["key"], favorites: favorites
            )
        }
    }
}
