import GRDB

/// What one member's weekly digest says: news from the editions the catalog fetched in the week,
/// and the household's birthdays and occasions coming up. Empty news means no digest.
public struct DigestNews: Sendable, Equatable {
    /// A book new on one of her favourite lists.
    public struct NewOnList: Sendable, Equatable {
        public let list: String
        public let rank: Int
        public let title: String
        public let author: String
        public let bookID: String
    }

    /// A book of her wishlist that moved on a list.
    public struct WishlistMove: Sendable, Equatable {
        public enum Kind: String, Sendable { case entered, left, peaked }
        public let kind: Kind
        public let list: String
        /// Its rank in the edition (for `left`, the rank it had in the one before).
        public let rank: Int
        public let title: String
        public let bookID: String
    }

    public struct BirthdayComing: Sendable, Equatable {
        public let username: String
        /// The name to show (``MemberName``).
        public let name: String
        /// The day of the birthday, worded in the recipient's language (``DigestText``).
        public let month: Int
        public let day: Int
        public let daysAway: Int
    }

    /// A shared list whose occasion is in the next 14 days (issue 51): givers hear two weeks ahead.
    public struct OccasionComing: Sendable, Equatable {
        public let username: String
        /// The owner's name to show (``MemberName``).
        public let name: String
        public let listName: String
        public let listID: ListID
        public let daysAway: Int
    }

    public var newOnLists: [NewOnList] = []
    /// Books new on any list by the authors she follows (issue 52).
    public var newFromAuthors: [NewOnList] = []
    public var wishlistMoves: [WishlistMove] = []
    public var birthdays: [BirthdayComing] = []
    public var occasions: [OccasionComing] = []

    /// How far ahead the digest tells givers of an occasion.
    static let occasionDays = 14

    public var isEmpty: Bool { newOnLists.isEmpty && newFromAuthors.isEmpty && wishlistMoves.isEmpty && birthdays.isEmpty && occasions.isEmpty }

    /// Reads the news for `userID` from the editions fetched after `since` (a stored date).
    static func read(userID: UserID, editionsFetchedAfter since: StoredDate, today: (year: Int, month: Int, day: Int), _ db: Database) throws -> DigestNews {
        DigestNews(
            newOnLists: try newOnFavoriteLists(userID, since, db),
            newFromAuthors: try newFromFollowedAuthors(userID, since, db),
            wishlistMoves: try wishlistMoves(userID, since, db),
            birthdays: try birthdays(excluding: userID, today: today, db),
            occasions: try occasions(excluding: userID, today: today, db)
        )
    }

    /// Editions fetched in the window, each with the edition stored before
    /// it; a book on one that was not on the one before (or, for a list's first edition, that the
    /// API calls new) is new.
    private static let recentEditions = """
        recent AS (
            SELECT edition.list_name_encoded, edition.published_date, catalog_list.display_name,
                (SELECT MAX(before.published_date) FROM edition AS before
                 WHERE before.list_name_encoded = edition.list_name_encoded AND before.published_date < edition.published_date) AS previous_date
            FROM edition JOIN catalog_list ON catalog_list.name_encoded = edition.list_name_encoded
            -- A history backfill fetches old editions too: only a list's latest two weeks are news.
            WHERE edition.fetched_at > ?2 AND edition.published_date >= date(catalog_list.published_date, '-14 days')
        )
        """

    private static func newOnFavoriteLists(_ userID: UserID, _ since: StoredDate, _ db: Database) throws -> [NewOnList] {
        try Row.fetchAll(db, sql: """
            WITH \(recentEditions)
            SELECT recent.display_name, entry.rank, book.title, book.author, book.id FROM recent
            JOIN favorite_list ON favorite_list.list_name_encoded = recent.list_name_encoded AND favorite_list.user_id = ?1
            JOIN edition_entry AS entry ON entry.list_name_encoded = recent.list_name_encoded AND entry.published_date = recent.published_date
            JOIN book ON book.id = entry.book_id
            WHERE CASE WHEN recent.previous_date IS NULL THEN entry.rank_last_week = 0
                ELSE NOT EXISTS (SELECT 1 FROM edition_entry AS before WHERE before.book_id = entry.book_id
                    AND before.list_name_encoded = entry.list_name_encoded AND before.published_date = recent.previous_date) END
            ORDER BY recent.display_name, recent.published_date DESC, entry.rank
            LIMIT 50
            """, arguments: [userID, since]
        ).map { NewOnList(list: $0[0], rank: $0[1], title: $0[2], author: $0[3], bookID: $0[4]) }
    }

    /// The books by the authors she follows (``AuthorStore``) that entered any list in the window.
    private static func newFromFollowedAuthors(_ userID: UserID, _ since: StoredDate, _ db: Database) throws -> [NewOnList] {
        try Row.fetchAll(db, sql: """
            WITH \(recentEditions),
            followed_books AS (
                SELECT DISTINCT book_credit.book_id FROM followed_author
                JOIN book_credit ON book_credit.author_key = followed_author.author_key
                WHERE followed_author.user_id = ?1
            )
            SELECT recent.display_name, entry.rank, book.title, book.author, book.id FROM recent
            JOIN edition_entry AS entry ON entry.list_name_encoded = recent.list_name_encoded AND entry.published_date = recent.published_date
            JOIN followed_books ON followed_books.book_id = entry.book_id
            JOIN book ON book.id = entry.book_id
            WHERE CASE WHEN recent.previous_date IS NULL THEN entry.rank_last_week = 0
                ELSE NOT EXISTS (SELECT 1 FROM edition_entry AS before WHERE before.book_id = entry.book_id
                    AND before.list_name_encoded = entry.list_name_encoded AND before.published_date = recent.previous_date) END
            ORDER BY book.author, book.title, recent.published_date DESC, recent.display_name
            LIMIT 50
            """, arguments: [userID, since]
        ).map { NewOnList(list: $0[0], rank: $0[1], title: $0[2], author: $0[3], bookID: $0[4]) }
    }

    /// Her wishlist's books that entered a list, left it, or reached a better rank than in any
    /// edition before, in the editions of the window (any list, favourite or not).
    private static func wishlistMoves(_ userID: UserID, _ since: StoredDate, _ db: Database) throws -> [WishlistMove] {
        try Row.fetchAll(db, sql: """
            WITH \(recentEditions),
            wished AS (SELECT book_id FROM wishlist_item WHERE user_id = ?1 AND book_id IS NOT NULL),
            moves AS (
                SELECT 'entered' AS kind, recent.display_name, entry.rank, entry.book_id, recent.published_date FROM recent
                JOIN edition_entry AS entry ON entry.list_name_encoded = recent.list_name_encoded AND entry.published_date = recent.published_date
                WHERE entry.book_id IN wished AND recent.previous_date IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM edition_entry AS before WHERE before.book_id = entry.book_id
                        AND before.list_name_encoded = entry.list_name_encoded AND before.published_date = recent.previous_date)
                UNION ALL
                SELECT 'left', recent.display_name, before.rank, before.book_id, recent.published_date FROM recent
                JOIN edition_entry AS before ON before.list_name_encoded = recent.list_name_encoded AND before.published_date = recent.previous_date
                WHERE before.book_id IN wished
                    AND NOT EXISTS (SELECT 1 FROM edition_entry AS now WHERE now.book_id = before.book_id
                        AND now.list_name_encoded = before.list_name_encoded AND now.published_date = recent.published_date)
                UNION ALL
                SELECT 'peaked', recent.display_name, entry.rank, entry.book_id, recent.published_date FROM recent
                JOIN edition_entry AS entry ON entry.list_name_encoded = recent.list_name_encoded AND entry.published_date = recent.published_date
                WHERE entry.book_id IN wished
                    AND EXISTS (SELECT 1 FROM edition_entry AS earlier WHERE earlier.book_id = entry.book_id
                        AND earlier.list_name_encoded = entry.list_name_encoded AND earlier.published_date < recent.published_date)
                    AND entry.rank < (SELECT MIN(earlier.rank) FROM edition_entry AS earlier WHERE earlier.book_id = entry.book_id
                        AND earlier.list_name_encoded = entry.list_name_encoded AND earlier.published_date < recent.published_date)
            )
            SELECT moves.kind, moves.display_name, moves.rank, book.title, book.id FROM moves JOIN book ON book.id = moves.book_id
            ORDER BY book.title, moves.display_name, moves.published_date DESC
            LIMIT 50
            """, arguments: [userID, since]
        ).compactMap { row in
            WishlistMove.Kind(rawValue: row[0]).map { WishlistMove(kind: $0, list: row[1], rank: row[2], title: row[3], bookID: row[4]) }
        }
    }

    /// The shared lists of the members who share whose occasion is in the next 14 days, soonest first.
    private static func occasions(excluding userID: UserID, today: (year: Int, month: Int, day: Int), _ db: Database) throws -> [OccasionComing] {
        try WishListStore.Reader(db: db).sharedOccasions(excluding: userID).flatMap { member in
            member.lists.compactMap { list in
                list.daysUntilOccasion(birthday: member.birthday, from: today).flatMap { days in
                    days <= occasionDays
                        ? OccasionComing(username: member.username, name: member.name, listName: list.name, listID: list.id, daysAway: days) : nil
                }
            }
        }
        .sorted { ($0.daysAway, $0.name.lowercased(), $0.listID.rawValue) < ($1.daysAway, $1.name.lowercased(), $1.listID.rawValue) }
    }

    /// The birthdays in the next 7 days of the members who share, as the People page shows them.
    private static func birthdays(excluding userID: UserID, today: (year: Int, month: Int, day: Int), _ db: Database) throws -> [BirthdayComing] {
        try ProfileStore.Reader(db: db).birthdays(excluding: userID)
            .map { BirthdayComing(username: $0.username, name: $0.name, month: $0.birthday.month, day: $0.birthday.day, daysAway: $0.birthday.daysUntil(from: today)) }
            .filter { $0.daysAway <= 7 }
            .sorted { ($0.daysAway, $0.name.lowercased()) < ($1.daysAway, $1.name.lowercased()) }
    }
}
