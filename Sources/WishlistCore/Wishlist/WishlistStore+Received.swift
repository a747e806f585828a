import Foundation
import GRDB

/// A wish that came true, as its owner sees it: the item, when it came, and the cards of the
/// givers who signed one (the others stay anonymous).
public struct ReceivedItem: Sendable, Equatable {
    public struct Card: Sendable, Equatable {
        /// The giver's name to show (``MemberName``).
        public let giverName: String
        public let message: String
    }

    public let item: WishlistItem
    public let receivedAt: Date
    public let cards: [Card]
}

/// The owner's "I got it", the received books, and moving one back. The move happens in one
/// transaction: the item leaves `wishlist_item` for `received_item` with the same id, and its
/// reservation follows it, so the giver sees it given; until then nothing of the reservation is
/// read on the owner's behalf.
extension WishlistStore {
    public enum RestoreOutcome: Sendable, Equatable {
        case restored
        /// The same book is on the wishlist again (added since): nothing moved.
        case alreadyOnWishlist
        case notFound
    }

    private static let itemColumns = """
        id, user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
        buy_links, reading_links, note, priority, added_at
        """

    /// Moves the owner's item to her received books; nil when she has no such item (any more).
    public func markReceived(itemID: ItemID, userID: Int64, at now: Date) async throws -> WishlistItem? {
        try await database.pool.write { db in
            guard let item = try Row.fetchOne(db, sql: "SELECT * FROM wishlist_item WHERE id = ? AND user_id = ?", arguments: [itemID.rawValue, userID])
                .map(Self.item)
            else { return nil }
            try db.execute(
                sql: "INSERT INTO received_item (\(Self.itemColumns), received_at) SELECT \(Self.itemColumns), ? FROM wishlist_item WHERE id = ?",
                arguments: [StoredDate(now), itemID.rawValue]
            )
            try db.execute(sql: "UPDATE reservation SET received_item_id = item_id WHERE item_id = ?", arguments: [itemID.rawValue])
            try db.execute(sql: "DELETE FROM wishlist_item WHERE id = ?", arguments: [itemID.rawValue])
            return item
        }
    }

    /// Puts a received book back on the wishlist as it was (a mistake): its reservation is the
    /// giver's again, and nobody is told anything.
    public func restoreReceived(itemID: ItemID, userID: Int64) async throws -> RestoreOutcome {
        try await database.pool.write { db in
            guard let bookID = try Row.fetchOne(
                db, sql: "SELECT book_id FROM received_item WHERE id = ? AND user_id = ?", arguments: [itemID.rawValue, userID]
            ).map({ $0["book_id"] as String? }) else { return .notFound }
            if let bookID, try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM wishlist_item WHERE user_id = ? AND book_id = ?)", arguments: [userID, bookID]
            ) == true {
                return .alreadyOnWishlist
            }
            try db.execute(
                sql: "INSERT INTO wishlist_item (\(Self.itemColumns)) SELECT \(Self.itemColumns) FROM received_item WHERE id = ?",
                arguments: [itemID.rawValue]
            )
            try db.execute(sql: "UPDATE reservation SET item_id = received_item_id WHERE received_item_id = ?", arguments: [itemID.rawValue])
            try db.execute(sql: "DELETE FROM received_item WHERE id = ?", arguments: [itemID.rawValue])
            if let bookID { try Self.absorbIdea(bookID: bookID, into: itemID.rawValue, ownerID: userID, db) }
            return .restored
        }
    }

    /// The owner's received books, newest first, each with the cards signed for it.
    public func received(userID: Int64) async throws -> [ReceivedItem] {
        try await database.pool.read { try Self.received(userID: userID, $0) }
    }

    /// The same on a connection that a longer read holds.
    static func received(userID: Int64, _ db: Database) throws -> [ReceivedItem] {
        let items = try Row.fetchAll(
            db, sql: "SELECT * FROM received_item WHERE user_id = ? ORDER BY received_at DESC, id DESC", arguments: [userID]
        )
        let cards = try Row.fetchAll(
            db,
            sql: """
                SELECT reservation.received_item_id, \(MemberName.shownSQL("giver")) AS giver_name, reservation.card FROM reservation
                JOIN received_item ON received_item.id = reservation.received_item_id
                JOIN user AS giver ON giver.id = reservation.giver_id
                WHERE received_item.user_id = ? AND reservation.card != ''
                """,
            arguments: [userID]
        )
        let cardsByItem = Dictionary(grouping: cards) { $0["received_item_id"] as Int64 }
        return items.map { row in
            ReceivedItem(
                item: Self.item(row), receivedAt: row.date("received_at"),
                cards: (cardsByItem[row["id"]] ?? []).map { ReceivedItem.Card(giverName: $0["giver_name"], message: $0["card"]) }
            )
        }
    }
}
