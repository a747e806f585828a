import CivilTime
import Foundation
import GRDB

/// "Download my data": one ZIP file with everything the app holds about a member (``MemberData``
/// as `data.json`), her wishlist and reading as the Goodreads CSV (`wishlist.csv`) and her
/// picture (`picture-256.jpg`) when she has one.
///
/// Every part is read in one transaction, so the files agree with each other; the archive is
/// put together after the read, so no reader connection waits on it.
public struct MemberDataExport: Sendable {
    let database: AppDatabase
    let sessions: SessionStore

    public init(database: AppDatabase, sessions: SessionStore) {
        self.database = database
        self.sessions = sessions
    }

    /// A file to hand over, and the name to save it under.
    public struct Download: Sendable {
        public let fileName: String
        public let bytes: [UInt8]
    }

    static let pictureName = "picture-256.jpg"

    /// The member's archive made at `now`, or nil when the account is gone.
    public func download(userID: UserID, at now: Date) async throws -> Download? {
        guard let read = try await database.pool.read({ db in try contents(userID: userID, at: now, db) }) else { return nil }
        let (data, csv, picture) = read
        var archive = ZipArchive(modified: now)
        archive.add("data.json", try data.encoded())
        archive.add("wishlist.csv", Array(csv.utf8))
        if let picture { archive.add(Self.pictureName, picture) }
        let fileName = "bestseller-wishlist-\(data.account.username)-\(CivilDateTime(now).isoDate).zip"
        return Download(fileName: fileName, bytes: archive.bytes)
    }

    private func contents(userID: UserID, at now: Date, _ db: Database) throws -> (MemberData, String, [UInt8]?)? {
        guard let account = try Self.account(userID: userID, db) else { return nil }
        let wishes = try WishlistStore.Reader(db: db).items(userID: userID, sort: .added)
        let readings = try ReadingStore.Reader(db: db).readings(userID: userID, sort: .finished)
        let picture = try Data.fetchOne(db, sql: "SELECT large FROM profile_picture WHERE user_id = ?", arguments: [userID]).map { [UInt8]($0) }
        let profile = try ProfileStore.Reader(db: db).profile(userID: userID)
        let data = MemberData(
            exportedAt: MemberData.time(now),
            account: account,
            signedInBrowsers: try sessions.list(userID: userID, at: now, db).map {
                MemberData.SignedInBrowser(browser: BrowserName.describe($0.userAgent), signedInAt: MemberData.time($0.createdAt), lastSeenAt: MemberData.time($0.lastSeenAt))
            },
            passkeys: try PasskeyStore.passkeys(userID: userID, db).map {
                MemberData.PasskeyName(name: $0.name, createdAt: MemberData.time($0.createdAt), lastUsedAt: $0.lastUsedAt.map(MemberData.time))
            },
            wishlist: wishes.map(MemberData.wish),
            lists: try Self.lists(userID: userID, wishes: wishes, db),
            received: try WishlistStore.received(userID: userID, db).map { received in
                MemberData.ReceivedBook(
                    book: MemberData.wish(received.item), receivedAt: MemberData.time(received.receivedAt),
                    cards: received.cards.map { MemberData.Card(from: $0.giverName, message: $0.message) }
                )
            },
            readings: readings.map(MemberData.bookRead),
            profile: MemberData.Profile(
                bio: profile.bio, birthday: profile.birthday?.stored, favouriteBooks: profile.favorites.map { "\($0.title) by \($0.author)" },
                picture: picture == nil ? nil : Self.pictureName
            ),
            giftsIAmGiving: try Self.gifts(giverID: userID, db),
            giftIdeasISuggested: try Self.ideas(suggestedBy: userID, db)
        )
        return (data, GoodreadsCSV.export(wishes: wishes, readings: readings), picture)
    }

    private static func account(userID: UserID, _ db: Database) throws -> MemberData.Account? {
        guard let row = try Row.fetchOne(
            db,
            sql: """
                SELECT user.username, user.display_name, user.email, user.created_at, user.is_admin, user.sharing,
                       COALESCE(catalog_list.display_name, user.default_list) AS start_list
                FROM user LEFT JOIN catalog_list ON catalog_list.name_encoded = user.default_list WHERE user.id = ?
                """,
            arguments: [userID]
        ) else { return nil }
        let favourites = try String.fetchAll(
            db,
            sql: """
                SELECT COALESCE(catalog_list.display_name, favorite_list.list_name_encoded) FROM favorite_list
                LEFT JOIN catalog_list ON catalog_list.name_encoded = favorite_list.list_name_encoded
                WHERE favorite_list.user_id = ? ORDER BY favorite_list.created_at
                """,
            arguments: [userID]
        )
        let followed = try String.fetchAll(
            db, sql: "SELECT name FROM followed_author WHERE user_id = ? ORDER BY followed_at, name", arguments: [userID]
        )
        return MemberData.Account(
            username: row["username"], displayName: row["display_name"], email: row["email"], createdAt: MemberData.time(row.date("created_at")), admin: row["is_admin"],
            sharing: row["sharing"], startList: row["start_list"], favouriteLists: favourites, followedAuthors: followed
        )
    }

    /// The books she reserved for others: her own acts as a giver, never anyone's for her.
    /// Her lists, the default first, each with its books in the wishlist's order.
    private static func lists(userID: UserID, wishes: [WishlistItem], _ db: Database) throws -> [MemberData.List] {
        let reader = WishListStore.Reader(db: db)
        let placed = try reader.listIDs(items: wishes.map(\.id))
        return try reader.lists(ownerID: userID).map { list in
            MemberData.List(
                name: list.name, occasion: list.occasion.rawValue, date: list.occasionDate, visibility: list.visibility.rawValue,
                first: list.isDefault, createdAt: MemberData.time(list.createdAt),
                books: wishes.filter { placed[$0.id]?.contains(list.id) == true }.map { "\($0.title) by \($0.author)" }
            )
        }
    }

    private static func gifts(giverID: UserID, _ db: Database) throws -> [MemberData.Gift] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT title, author, owner_name, reserved_at, bought_at, card, received_item_id IS NOT NULL AS received
                FROM reservation WHERE giver_id = ? ORDER BY reserved_at, id
                """,
            arguments: [giverID]
        ).map { row in
            MemberData.Gift(
                title: row["title"], author: row["author"], forMember: row["owner_name"], reservedAt: MemberData.time(row.date("reserved_at")),
                boughtAt: row.optionalDate("bought_at").map(MemberData.time), card: row["card"], received: row["received"]
            )
        }
    }

    /// The ideas she suggested for others; ideas others suggested for her are theirs.
    private static func ideas(suggestedBy userID: UserID, _ db: Database) throws -> [MemberData.Idea] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT gift_idea.title, gift_idea.author, gift_idea.note, gift_idea.created_at, user.username
                FROM gift_idea JOIN user ON user.id = gift_idea.owner_id WHERE gift_idea.suggested_by = ? ORDER BY gift_idea.created_at, gift_idea.id
                """,
            arguments: [userID]
        ).map { row in
            MemberData.Idea(
                title: row["title"], author: row["author"], forMember: row["username"], note: row["note"],
                suggestedAt: MemberData.time(row.date("created_at"))
            )
        }
    }
}
