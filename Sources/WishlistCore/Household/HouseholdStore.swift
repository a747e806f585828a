import Foundation
import GRDB

/// Sharing wishlists with the others on the server and reserving their books as gifts.
///
/// The one rule that shapes this type: an owner never learns which of their books are reserved.
/// Nothing here is read on the owner's behalf; every query about reservations is asked by a
/// giver, about someone else's shared list.
public struct HouseholdStore: Sendable {
    public enum Lookup: Sendable, Equatable {
        case member(Member)
        /// The viewer asked for their own name.
        case viewer
        /// No such user, or their list is private: the same answer, so privacy hides existence.
        case notFound
    }

    public enum ReserveOutcome: Sendable, Equatable {
        case reserved
        case alreadyYours
        case takenBy(name: String)
        /// Unknown item, the giver's own, or on a private list.
        case notFound
    }

    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    // MARK: Sharing

    public func sharing(userID: UserID) async throws -> Sharing {
        try await database.pool.read { db in
            let stored = try String.fetchOne(db, sql: "SELECT sharing FROM user WHERE id = ?", arguments: [userID])
            return stored.flatMap(Sharing.init(rawValue:)) ?? .private
        }
    }

    /// Making a list private hides it at once; its reservations are kept for if it is shared again.
    public func setSharing(userID: UserID, _ sharing: Sharing) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE user SET sharing = ? WHERE id = ?", arguments: [sharing.rawValue, userID])
        }
    }

    // MARK: Members

    /// Page `number` (from 1) of everyone but the viewer whose list is shared and whose username
    /// or display name contains `filter` (case-insensitive; everyone when empty), by the name
    /// shown, with their item counts.
    public func members(excluding viewerID: UserID, containing filter: String = "", page number: Int = 1) async throws -> PagedList<Member> {
        let key = MemberName.key(filter)
        let matching = """
            sharing = 'household' AND disabled_at IS NULL AND id != ?1
            AND (?2 = '' OR instr(username_key, ?2) > 0 OR instr(display_name_key, ?2) > 0)
            """
        return try await database.pool.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE \(matching)", arguments: [viewerID, key]) ?? 0
            // The item counts are counted for the page's rows only.
            let members = try Row.decodeAll(db.makeStatement(sql: """
                    SELECT user.id, user.username, \(MemberName.shownSQL("user")) AS name,
                        (SELECT COUNT(*) FROM wishlist_item WHERE user_id = user.id AND shared) AS item_count,
                        (SELECT group_concat(\(MemberName.shownSQL("manager")), char(31)) FROM child_manager
                            JOIN user AS manager ON manager.id = child_manager.manager_id WHERE child_manager.child_id = user.id) AS managers,
                        EXISTS (SELECT 1 FROM child_manager WHERE child_id = user.id AND manager_id = ?1) AS managed_by_viewer
                    FROM user WHERE \(matching)
                    ORDER BY COALESCE(display_name_key, username_key), username_key LIMIT ?3 OFFSET ?4
                    """), arguments: [viewerID, key, PagedList<Member>.size, PagedList<Member>.offset(number)], Self.member)
            return PagedList(items: members, total: total, number: number)
        }
    }


    // MARK: Reservations

    /// Reserves another member's shared item for `giverID`, checked and written in one transaction
    /// so that two givers pressing at once get one reservation and one refusal.
    public func reserve(itemID: ItemID, giverID: UserID, at now: Date) async throws -> ReserveOutcome {
        try await database.write { db in
            guard let item = try Row.fetchOne(
                db,
                sql: """
                    SELECT wishlist_item.title, wishlist_item.author, owner.id AS owner_id, owner.username AS owner_name
                    FROM wishlist_item JOIN user AS owner ON owner.id = wishlist_item.user_id
                    WHERE wishlist_item.id = ? AND wishlist_item.shared AND owner.sharing = 'household' AND owner.disabled_at IS NULL AND owner.id != ?
                    """,
                arguments: [itemID, giverID]
            ) else { return .notFound }
            if let holder = try Row.fetchOne(
                db,
                sql: "SELECT giver.id, \(MemberName.shownSQL("giver")) AS name FROM reservation JOIN user AS giver ON giver.id = reservation.giver_id WHERE item_id = ?",
                arguments: [itemID]
            ) {
                return holder["id"] as UserID == giverID ? .alreadyYours : .takenBy(name: holder["name"])
            }
            if let guest = try String.fetchOne(db, sql: "SELECT guest_name FROM guest_reservation WHERE item_id = ?", arguments: [itemID]) {
                return .takenBy(name: HeldItem.Holder.guestName(guest))
            }
            try db.execute(
                sql: """
                    INSERT INTO reservation (item_id, giver_id, owner_id, owner_name, title, author, reserved_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [itemID, giverID, item["owner_id"], item["owner_name"], item["title"], item["author"], StoredDate(now)]
            )
            return .reserved
        }
    }

    /// Cancels the giver's reservation of an item; false when they hold none on it.
    public func cancel(itemID: ItemID, giverID: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM reservation WHERE item_id = ? AND giver_id = ?", arguments: [itemID, giverID])
            return db.changesCount == 1
        }
    }

    /// Forgets a reservation whose item or list is gone, once the giver has read that it is;
    /// false when the giver has no such notice.
    public func dismiss(reservationID: ReservationID, giverID: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM reservation WHERE id = ? AND giver_id = ? AND item_id IS NULL",
                arguments: [reservationID, giverID]
            )
            return db.changesCount == 1
        }
    }

    /// The book of the giver's reservation on `itemID` and its owner's name to show, for the
    /// confirmation after reserving.
    public func reservedTitle(itemID: ItemID, giverID: UserID) async throws -> (title: String, ownerName: String)? {
        try await database.pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT reservation.title, COALESCE(\(MemberName.shownSQL("owner")), reservation.owner_name) AS owner_name
                    FROM reservation LEFT JOIN user AS owner ON owner.id = reservation.owner_id
                    WHERE reservation.item_id = ? AND reservation.giver_id = ?
                    """,
                arguments: [itemID, giverID]
            ).map { ($0["title"], $0["owner_name"]) }
        }
    }

    /// The giver's reservations, grouped by owner name (A–Z), newest first within each.
    public func gifts(giverID: UserID) async throws -> [Gift] {
        try await database.pool.read { db in
            try Row.decodeAll(db.makeStatement(sql: """
                    SELECT reservation.id AS reservation_id, reservation.owner_id, reservation.owner_name,
                        COALESCE(\(MemberName.shownSQL("owner")), reservation.owner_name) AS owner_shown_name,
                        reservation.title AS reserved_title, reservation.author AS reserved_author, reservation.reserved_at,
                        reservation.bought_at, reservation.card, received_item.received_at, received_item.wished_again_at, reservation.idea_id, gift_idea.note AS idea_note,
                        owner.sharing, owner.disabled_at AS owner_disabled_at, wishlist_item.*
                    FROM reservation
                    LEFT JOIN user AS owner ON owner.id = reservation.owner_id
                    LEFT JOIN wishlist_item ON wishlist_item.id = reservation.item_id
                    LEFT JOIN received_item ON received_item.id = reservation.received_item_id
                    LEFT JOIN gift_idea ON gift_idea.id = reservation.idea_id
                    WHERE reservation.giver_id = ?
                    ORDER BY owner_shown_name COLLATE NOCASE, reservation.owner_name, reservation.reserved_at DESC, reservation.id DESC
                    """), arguments: [giverID], decoder: Self.gifts(in:))
        }
    }

    // MARK: Rows

    private static func member(_ row: Row) -> Member {
        // Names cannot hold control characters (``MemberName``), so U+001F parts them.
        let managers = (row["managers"] as String?)?.split(separator: "\u{1F}").map(String.init).sorted() ?? []
        return Member(id: row["id"], username: row["username"], name: row["name"], itemCount: row["item_count"], managerNames: managers,
                      managedByViewer: row["managed_by_viewer"] as Bool? ?? false)
    }

    /// A decoder of the gifts of `statement`'s rows, which finds their items' columns once for all of them.
    private static func gifts(in statement: Statement) -> (Row) -> Gift {
        let decodeItem = WishlistStore.items(in: statement)
        return { row in gift(row, decodeItem: decodeItem) }
    }

    private static func gift(_ row: Row, decodeItem: (Row) -> WishlistItem) -> Gift {
        let state: Gift.State
        // A want only on private lists is hidden as her whole list is when she stops sharing.
        let listShared = row["sharing"] as String? == Sharing.household.rawValue && row["owner_disabled_at"] as String? == nil
            && row["shared"] as Bool? != false
        if row["received_at"] as String? != nil {
            // A wish on a list the giver can no longer see is not the giver's to hear about.
            state = .given(receivedAt: row.date("received_at"), wishedAgainAt: listShared ? row.optionalDate("wished_again_at") : nil)
        } else if let ideaID = row["idea_id"] as IdeaID? {
            state = .idea(id: ideaID, note: row["idea_note"])
        } else if row["owner_id"] as UserID? == nil {
            state = .listGone
        } else if row["id"] as ItemID? == nil {
            state = .removed
        } else if !listShared {
            state = .listHidden(itemID: row["id"])
        } else {
            state = .reserved(item: decodeItem(row))
        }
        return Gift(
            id: row["reservation_id"], ownerName: row["owner_name"], ownerShownName: row["owner_shown_name"], title: row["reserved_title"], author: row["reserved_author"],
            reservedAt: row.date("reserved_at"), boughtAt: row.optionalDate("bought_at"), card: row["card"], state: state
        )
    }
}

extension HouseholdStore {
    /// The household's queries on a connection a ``PageRead`` holds.
    public struct Reader {
        let db: Database

        /// Grows with every change to a member's wishlist as the others see it on her page
        /// (migration 25): her items, the reservations and ideas for her, and anyone's shown name
        /// (a reserver's is on the card). Her own pages are never kept under it.
        public func memberWishlistGeneration(ownerID: UserID) throws -> Int64 {
            try Int64.fetchOne(
                db.cachedStatement(sql: """
                    SELECT COALESCE((SELECT wishes + givers FROM owner_generation WHERE user_id = ?), 0)
                        + (SELECT value FROM name_generation)
                    """),
                arguments: [ownerID]
            ) ?? 0
        }

        /// Grows with every change to what a member's page says about her: her account,
        /// readings, favourites and picture, and anyone's shown name (hers depends on whether
        /// another member took it, ``MemberName``).
        public func memberAboutGeneration(ownerID: UserID) throws -> Int64 {
            try Int64.fetchOne(
                db.cachedStatement(sql: """
                    SELECT COALESCE((SELECT about FROM owner_generation WHERE user_id = ?), 0) + (SELECT value FROM name_generation)
                    """),
                arguments: [ownerID]
            ) ?? 0
        }

        /// Whose shared list `username` names, as `viewerID` may see it.
        public func member(named username: String, viewerID: UserID) throws -> Lookup {
            let row = try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT user.id, user.username, \(MemberName.shownSQL("user")) AS name, user.sharing, user.disabled_at,
                        (SELECT COUNT(*) FROM wishlist_item WHERE user_id = user.id AND shared) AS item_count
                    FROM user WHERE username_key = ?
                    """),
                arguments: [AccountRules.key(username)]
            )
            guard let row else { return .notFound }
            if row["id"] as UserID == viewerID { return .viewer }
            // A disabled account's list is out of reach like a private one, so neither says it exists.
            let reachable = row["sharing"] as String == Sharing.household.rawValue && row["disabled_at"] as String? == nil
            return reachable ? .member(HouseholdStore.member(row)) : .notFound
        }

        /// Page `number` of a member's items (the last page for a number past it), each with who
        /// (if anyone) reserved it: what her page shows every other member, each seeing their own
        /// part (``HeldItem``). Never for the owner herself.
        public func items(ownerID: UserID, sort: WishlistSort, page number: Int) throws -> PagedList<HeldItem> {
            try PagedList.read(
                db, count: "SELECT COUNT(*) FROM wishlist_item WHERE user_id = ? AND shared",
                rows: """
                    SELECT wishlist_item.*, reservation.giver_id AS giver_id, \(MemberName.shownSQL("giver")) AS giver_name,
                        reservation.bought_at IS NOT NULL AS bought, reservation.card, guest_reservation.guest_name
                    FROM wishlist_item
                    LEFT JOIN reservation ON reservation.item_id = wishlist_item.id
                    LEFT JOIN user AS giver ON giver.id = reservation.giver_id
                    LEFT JOIN guest_reservation ON guest_reservation.item_id = wishlist_item.id
                    WHERE wishlist_item.user_id = ? AND wishlist_item.shared
                    ORDER BY \(sort.orderBy)
                    """,
                arguments: [ownerID], page: number, decoder: HeldItem.decoder(for:)
            )
        }

        /// The other members' shared wants of one book, as `viewerID` (a giver) sees them on its
        /// page, by name: who here wants it, each want with who (if anyone) reserved it (issue 57).
        /// Never the viewer's own want, a private want or a private or disabled member's; a managed
        /// child's want is read as any member's. Only the wants `isShown` picks (by place and want)
        /// are read whole: a page names a dozen of a book's wants and counts the rest
        /// (docs/decisions/book-page-names-twelve-wanters.md), and reading and decoding every
        /// want's row was the largest part of what a big household's page of a book cost beyond a
        /// small one's (issue 58).
        public func wants(bookID: String, viewerID: UserID, readingWhole isShown: (Int, BookWant) -> Bool) throws -> [BookWant] {
            // Columns by their place in the query: a column looked up by name is lower-cased and
            // hashed for every row, and a book on a big household's page has dozens of wants.
            var wants = try Row.decodeAll(db.cachedStatement(sql: Self.wantsOfABook), arguments: [bookID, viewerID]) { row in
                let holder = (row[3] as UserID?).map { HeldItem.Holder(id: $0, name: row[4], bought: row[5], card: row[6]) }
                return BookWant(itemID: row[0], username: row[1], name: row[2], holder: holder)
            }
            let shown = wants.indices.filter { isShown($0, wants[$0]) }
            let items = try wholeItems(shown.map { wants[$0].itemID })
            for index in shown {
                wants[index].item = items[wants[index].itemID]
            }
            return wants
        }

        /// A book's wants as its page lists them, for a giver (the arguments): whose each is, and
        /// its holder, in this order of columns (``wants(bookID:viewerID:readingWhole:)`` reads
        /// them by place). Migration 37's index holds every column of the want it reads, so the
        /// wants of a book are found without reading their rows.
        static let wantsOfABook = """
            SELECT wishlist_item.id, owner.username AS owner_username, \(MemberName.shownSQL("owner")) AS owner_shown_name,
                reservation.giver_id AS giver_id, \(MemberName.shownSQL("giver")) AS giver_name,
                reservation.bought_at IS NOT NULL AS bought, reservation.card
            FROM wishlist_item JOIN user AS owner ON owner.id = wishlist_item.user_id
            LEFT JOIN reservation ON reservation.item_id = wishlist_item.id
            LEFT JOIN user AS giver ON giver.id = reservation.giver_id
            WHERE wishlist_item.book_id = ? AND wishlist_item.shared AND owner.id != ?
                AND owner.sharing = 'household' AND owner.disabled_at IS NULL
            ORDER BY owner_shown_name COLLATE NOCASE, owner.id
            """

        /// These wishlist items whole, by id.
        private func wholeItems(_ ids: [ItemID]) throws -> [ItemID: WishlistItem] {
            guard !ids.isEmpty else { return [:] }
            let items = try Row.decodeAll(
                db.cachedStatement(sql: Self.itemsByID),
                arguments: [JSONText.array(ofNumbers: ids.map(\.rawValue))], decoder: WishlistStore.items(in:)
            )
            return Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        }

        /// The wishlist items whose ids a JSON array holds, each looked up as the array gives it:
        /// `id IN (SELECT value FROM json_each(?))` would first copy the ids into a temporary
        /// b-tree, for which SQLite opens a pager and allocates its pages on every read (issue 58:
        /// about half of what reading a book page's dozen named wants cost on a big database).
        static let itemsByID = "SELECT wishlist_item.* FROM json_each(?) AS named CROSS JOIN wishlist_item ON wishlist_item.id = named.value"

        /// Page `number` of the member's shared wants on one of her lists, as ``items(ownerID:sort:page:)``;
        /// the caller has checked that the list is hers and shared.
        public func items(ownerID: UserID, onList list: ListID, sort: WishlistSort, page number: Int) throws -> PagedList<HeldItem> {
            let onList = """
                FROM wishlist_item JOIN wish_list_item ON wish_list_item.item_id = wishlist_item.id AND wish_list_item.list_id = ?
                LEFT JOIN reservation ON reservation.item_id = wishlist_item.id
                LEFT JOIN user AS giver ON giver.id = reservation.giver_id
                LEFT JOIN guest_reservation ON guest_reservation.item_id = wishlist_item.id
                WHERE wishlist_item.user_id = ? AND wishlist_item.shared
                """
            return try PagedList.read(
                db, count: "SELECT COUNT(*) \(onList)",
                rows: """
                    SELECT wishlist_item.*, reservation.giver_id AS giver_id, \(MemberName.shownSQL("giver")) AS giver_name,
                        reservation.bought_at IS NOT NULL AS bought, reservation.card, guest_reservation.guest_name
                    \(onList) ORDER BY \(sort.orderBy)
                    """,
                arguments: [list.rawValue, ownerID], page: number, decoder: HeldItem.decoder(for:)
            )
        }
    }
}
