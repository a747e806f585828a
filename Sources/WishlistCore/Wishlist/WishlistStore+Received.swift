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

/// The owner's "I got it", the received books, and wishing for one again. The move happens in
/// one transaction: the item leaves `wishlist_item` for `received_item` with the same id, and its
/// reservation follows it, so the giver sees it given; until then nothing of the reservation is
/// read on the owner's behalf.
///
/// Once received, a book stays received. "I got it" shows her the cards, so it cannot be taken
/// back as if it had never happened: wishing for the book again makes a new wish, without the
/// reservation or the cards, and the givers keep their gift as given (issue 50,
/// docs/decisions/received-books-stay-received.md).
extension WishlistStore {
    public enum WishAgainOutcome: Sendable, Equatable {
        case wished
        /// The same book is on the wishlist again (added since): nothing changed.
        case alreadyOnWishlist
        case notFound
    }

    /// What a wish and a received book hold alike, besides the id and the dates.
    private static let wishColumns = """
        user_id, book_id, title, author, publisher, description, isbn10, isbn13, image_url, image_width, image_height,
        buy_links, reading_links, note, priority
        """
    private static let itemColumns = "id, \(wishColumns), added_at"

    /// Moves the owner's item to her received books; nil when she has no such item (any more).
    public func markReceived(itemID: ItemID, userID: UserID, at now: Date) async throws -> WishlistItem? {
        try await database.write { db in
            guard let item = try Row.decodeOne(
                db.makeStatement(sql: "SELECT * FROM wishlist_item WHERE id = ? AND user_id = ?"), arguments: [itemID, userID], decoder: Self.items(in:)
            ) else { return nil }
            try db.execute(
                sql: "INSERT INTO received_item (\(Self.itemColumns), received_at) SELECT \(Self.itemColumns), ? FROM wishlist_item WHERE id = ?",
                arguments: [StoredDate(now), itemID]
            )
            try db.execute(sql: "UPDATE reservation SET received_item_id = item_id WHERE item_id = ?", arguments: [itemID])
            try db.execute(sql: "DELETE FROM wishlist_item WHERE id = ?", arguments: [itemID])
            return item
        }
    }

    /// Puts a received book on the wishlist again as a new wish, with its note and priority and
    /// nothing of the givers': the received book, its reservations and their cards stay where
    /// they are. The same for her whoever reserved it or wrote for it; its givers see when it was
    /// wished for again.
    public func wishAgain(receivedID: ItemID, userID: UserID, at now: Date) async throws -> WishAgainOutcome {
        try await database.write { db in
            guard let bookID = try Row.fetchOne(
                db, sql: "SELECT book_id FROM received_item WHERE id = ? AND user_id = ?", arguments: [receivedID, userID]
            ).map({ $0["book_id"] as String? }) else { return .notFound }
            if let bookID, try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM wishlist_item WHERE user_id = ? AND book_id = ?)", arguments: [userID, bookID]
            ) == true {
                return .alreadyOnWishlist
            }
            try db.execute(
                sql: "INSERT INTO wishlist_item (\(Self.wishColumns), added_at) SELECT \(Self.wishColumns), ? FROM received_item WHERE id = ?",
                arguments: [StoredDate(now), receivedID]
            )
            let wishID = ItemID(db.lastInsertedRowID)
            try db.execute(sql: "UPDATE received_item SET wished_again_at = ? WHERE id = ?", arguments: [StoredDate(now), receivedID])
            if let bookID { try Self.absorbIdea(bookID: bookID, into: wishID, ownerID: userID, db) }
            return .wished
        }
    }

    /// The owner's received books, newest first, each with the cards signed for it.
    public func received(userID: UserID) async throws -> [ReceivedItem] {
        try await database.pool.read { try Self.received(userID: userID, $0) }
    }

    /// The same on a connection that a longer read holds.
    static func received(userID: UserID, _ db: Database) throws -> [ReceivedItem] {
        let cards = try Row.decodeAll(
            db.makeStatement(sql: """
                SELECT reservation.received_item_id, \(MemberName.shownSQL("giver")) AS giver_name, reservation.card FROM reservation
                JOIN received_item ON received_item.id = reservation.received_item_id
                JOIN user AS giver ON giver.id = reservation.giver_id
                WHERE received_item.user_id = ? AND reservation.card != ''
                """),
            arguments: [userID]
        ) { row in (item: row["received_item_id"] as ItemID, card: ReceivedItem.Card(giverName: row["giver_name"], message: row["card"])) }
        let cardsByItem = Dictionary(grouping: cards, by: \.item)
        let received = try db.makeStatement(sql: "SELECT * FROM received_item WHERE user_id = ? ORDER BY received_at DESC, id DESC")
        let decodeItem = Self.items(in: received)
        return try Row.decodeAll(received, arguments: [userID]) { row in
            let item = decodeItem(row)
            return ReceivedItem(item: item, receivedAt: row.date("received_at"), cards: (cardsByItem[item.id] ?? []).map(\.card))
        }
    }
}
