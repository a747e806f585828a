import Foundation
import GRDB

/// The `wish_list` and `wish_list_item` tables (migration 30): a member's lists and which of her
/// wants each holds. Every query is scoped to the owner: another member's list id finds nothing,
/// exactly like an id that does not exist.
public struct WishListStore: Sendable {
    public enum DeleteOutcome: Sendable, Equatable {
        case deleted
        /// The default list stays: every want needs a list to go back to.
        case isDefault
        case notFound
    }

    public enum PlacementOutcome: Sendable, Equatable {
        case saved
        /// Not one list was chosen: a want is on at least one list.
        case noList
        /// The want, or one of the lists, is not the owner's.
        case notFound
    }

    let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func lists(ownerID: UserID) async throws -> [WishList] {
        try await database.pool.read { try Reader(db: $0).lists(ownerID: ownerID) }
    }

    public func list(id: ListID, ownerID: UserID) async throws -> WishList? {
        try await database.pool.read { try Reader(db: $0).list(id: id, ownerID: ownerID) }
    }

    /// Every want on one of the owner's lists, in `sort`'s order.
    public func items(onList list: ListID, ownerID: UserID, sort: WishlistSort) async throws -> [WishlistItem] {
        try await database.pool.read { db in
            try Row.decodeAll(
                db.cachedStatement(sql: """
                    SELECT wishlist_item.* FROM wishlist_item JOIN wish_list_item ON wish_list_item.item_id = wishlist_item.id AND wish_list_item.list_id = ?
                    WHERE user_id = ? ORDER BY \(sort.orderBy)
                    """),
                arguments: [list.rawValue, ownerID], decoder: WishlistStore.items(in:)
            )
        }
    }

    /// The lists a want is on (none for another's want).
    public func listIDs(itemID: ItemID) async throws -> [ListID] {
        try await database.pool.read { try Reader(db: $0).listIDs(items: [itemID])[itemID] ?? [] }
    }

    /// The lists each of these wants is on.
    public func listIDs(items: [ItemID]) async throws -> [ItemID: [ListID]] {
        try await database.pool.read { try Reader(db: $0).listIDs(items: items) }
    }

    /// The owner's new list, placed after her others.
    public func create(_ list: WishListDraft.Checked, ownerID: UserID, at now: Date) async throws -> WishList {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO wish_list (user_id, name, occasion, occasion_date, visibility, is_default, position, created_at)
                    VALUES (?, ?, ?, ?, ?, 0, (SELECT COALESCE(MAX(position), 0) + 1 FROM wish_list WHERE user_id = ?), ?)
                    """,
                arguments: [ownerID, list.name, list.occasion.rawValue, list.date, list.visibility.rawValue, ownerID, StoredDate(now)]
            )
            return try Reader(db: db).list(id: ListID(db.lastInsertedRowID), ownerID: ownerID)!
        }
    }

    /// Saves the list's fields; false when the owner has no such list.
    public func update(id: ListID, ownerID: UserID, _ list: WishListDraft.Checked) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE wish_list SET name = ?, occasion = ?, occasion_date = ?, visibility = ? WHERE id = ? AND user_id = ?",
                arguments: [list.name, list.occasion.rawValue, list.date, list.visibility.rawValue, id.rawValue, ownerID]
            )
            return db.changesCount == 1
        }
    }

    /// Deletes a list that is not the default one. Its wants stay, those on no other list going
    /// back to the default list; with `deleteWants`, the wants on no other list go with it (a
    /// want also on another list stays there).
    public func delete(id: ListID, ownerID: UserID, deleteWants: Bool) async throws -> DeleteOutcome {
        try await database.write { db in
            guard let isDefault = try Bool.fetchOne(db, sql: "SELECT is_default FROM wish_list WHERE id = ? AND user_id = ?", arguments: [id.rawValue, ownerID])
            else { return .notFound }
            guard !isDefault else { return .isDefault }
            let onlyHere = "SELECT item_id FROM wish_list_item AS here WHERE here.list_id = ?1 AND NOT EXISTS (SELECT 1 FROM wish_list_item AS other WHERE other.item_id = here.item_id AND other.list_id != ?1)"
            if deleteWants {
                try db.execute(sql: "DELETE FROM wishlist_item WHERE id IN (\(onlyHere))", arguments: [id.rawValue])
            } else {
                try db.execute(
                    sql: "INSERT INTO wish_list_item (list_id, item_id) SELECT (SELECT id FROM wish_list WHERE user_id = ?2 AND is_default), item_id FROM (\(onlyHere))",
                    arguments: [id.rawValue, ownerID]
                )
            }
            try db.execute(sql: "DELETE FROM wish_list WHERE id = ?", arguments: [id.rawValue])
            return .deleted
        }
    }

    /// Puts the want on exactly `lists` (move and copy in one form), all the owner's.
    public func place(itemID: ItemID, on lists: Set<ListID>, ownerID: UserID) async throws -> PlacementOutcome {
        guard !lists.isEmpty else { return .noList }
        return try await database.write { db in
            try Self.place(itemID: itemID, on: lists, ownerID: ownerID, db)
        }
    }

    /// The same, inside a transaction the caller holds (adding a want straight to a list).
    static func place(itemID: ItemID, on lists: Set<ListID>, ownerID: UserID, _ db: Database) throws -> PlacementOutcome {
        let ids = JSONText.array(ofNumbers: lists.map(\.rawValue))
        let owned = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM wish_list WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))", arguments: [ownerID, ids]) ?? 0
        let isOwnItem = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM wishlist_item WHERE id = ? AND user_id = ?)", arguments: [itemID.rawValue, ownerID]) ?? false
        guard owned == lists.count, isOwnItem else { return .notFound }
        // Added first, removed after: the want is never on no list, so it never looks private in between.
        try db.execute(
            sql: "INSERT OR IGNORE INTO wish_list_item (list_id, item_id) SELECT value, ? FROM json_each(?)",
            arguments: [itemID.rawValue, ids]
        )
        try db.execute(
            sql: "DELETE FROM wish_list_item WHERE item_id = ? AND list_id NOT IN (SELECT value FROM json_each(?))",
            arguments: [itemID.rawValue, ids]
        )
        return .saved
    }

    /// The lists' queries on a connection a ``PageRead`` holds.
    public struct Reader {
        let db: Database

        /// The owner's lists, the default first, then in the order she made them, with their counts.
        public func lists(ownerID: UserID) throws -> [WishList] {
            try Row.decodeAll(
                db.cachedStatement(sql: """
                    SELECT wish_list.*, (SELECT COUNT(*) FROM wish_list_item WHERE list_id = wish_list.id) AS item_count
                    FROM wish_list WHERE user_id = ? ORDER BY is_default DESC, position, id
                    """),
                arguments: [ownerID], WishListStore.list
            )
        }

        public func list(id: ListID, ownerID: UserID) throws -> WishList? {
            try Row.fetchOne(
                db.cachedStatement(sql: """
                    SELECT wish_list.*, (SELECT COUNT(*) FROM wish_list_item WHERE list_id = wish_list.id) AS item_count
                    FROM wish_list WHERE id = ? AND user_id = ?
                    """),
                arguments: [id.rawValue, ownerID]
            ).map(WishListStore.list)
        }

        /// The member's lists the household sees, as ``lists(ownerID:)`` orders them: what her page
        /// shows the others (only while she shares, which the caller checked).
        public func sharedLists(ownerID: UserID) throws -> [WishList] {
            try lists(ownerID: ownerID).filter { $0.visibility == .household }
        }

        /// The birthdays and occasion lists of every member who shares but `viewerID`, for the
        /// occasions calendar: a list only when the household sees it and it has an occasion.
        public func sharedOccasions(excluding viewerID: UserID) throws -> [SharedOccasions] {
            let members = try Row.fetchAll(
                db.cachedStatement(sql: """
                    SELECT id, username, \(MemberName.shownSQL("user")) AS name, birthday FROM user
                    WHERE sharing = 'household' AND disabled_at IS NULL AND id != ? ORDER BY username_key
                    """),
                arguments: [viewerID]
            )
            let lists = try Row.decodeAll(
                db.cachedStatement(sql: """
                    SELECT wish_list.*, (SELECT COUNT(*) FROM wish_list_item WHERE list_id = wish_list.id) AS item_count
                    FROM wish_list JOIN user ON user.id = wish_list.user_id
                    WHERE wish_list.visibility = 'household' AND wish_list.occasion != 'none'
                        AND user.sharing = 'household' AND user.disabled_at IS NULL AND user.id != ?
                    ORDER BY wish_list.id
                    """),
                arguments: [viewerID], WishListStore.list
            )
            let byOwner = Dictionary(grouping: lists, by: \.ownerID)
            return members.compactMap { row in
                let id: UserID = row["id"]
                let birthday = (row["birthday"] as String?).flatMap(Birthday.init(stored:))
                let theirs = byOwner[id] ?? []
                guard birthday != nil || !theirs.isEmpty else { return nil }
                return SharedOccasions(ownerID: id, username: row["username"], name: row["name"], birthday: birthday, lists: theirs)
            }
        }

        /// The lists each of these wants is on.
        public func listIDs(items: [ItemID]) throws -> [ItemID: [ListID]] {
            guard !items.isEmpty else { return [:] }
            // The columns by their place in the query, read as the cursor passes each row.
            let pairs = try Row.decodeAll(
                db.cachedStatement(sql: "SELECT item_id, list_id FROM wish_list_item WHERE item_id IN (SELECT value FROM json_each(?)) ORDER BY list_id"),
                arguments: [JSONText.array(ofNumbers: items.map(\.rawValue))]
            ) { row in (item: row[0] as ItemID, list: row[1] as ListID) }
            var lists: [ItemID: [ListID]] = [:]
            for pair in pairs {
                lists[pair.item, default: []].append(pair.list)
            }
            return lists
        }
    }

    static func list(_ row: Row) -> WishList {
        WishList(
            id: row["id"], ownerID: row["user_id"], name: row["name"],
            occasion: Occasion(rawValue: row["occasion"]) ?? .none, occasionDate: row["occasion_date"],
            visibility: ListVisibility(rawValue: row["visibility"]) ?? .private, isDefault: row["is_default"],
            createdAt: row.date("created_at"), itemCount: row["item_count"]
        )
    }
}
