import Foundation
import GRDB

/// What a giver does after reserving: marks the gift bought (or not), writes a card. Each is a
/// change to the giver's own reservation only, so it grows the reservation generation and never
/// touches a row or a cache of the owner's.
extension HouseholdStore {
    public enum GiftChange: Sendable, Equatable {
        case changed
        /// It already was so (another press, or another tab, got there first).
        case unchanged
        /// The giver holds no reservation on that item (never did, cancelled, or it was received).
        case notReserved
    }

    public static let cardMaximumLength = 500

    /// Marks the giver's reservation of `itemID` bought, or with `bought` false, not bought.
    public func markBought(itemID: ItemID, giverID: UserID, _ bought: Bool, at now: Date) async throws -> GiftChange {
        try await database.write { db in
            try db.execute(
                sql: """
                    UPDATE reservation SET bought_at = ? WHERE item_id = ? AND giver_id = ? AND (bought_at IS NULL) = ?
                    """,
                arguments: [bought ? StoredDate(now) : nil, itemID, giverID, bought]
            )
            if db.changesCount == 1 { return .changed }
            return try Self.holdsReservation(itemID: itemID, giverID: giverID, db) ? .unchanged : .notReserved
        }
    }

    /// Writes (or with "" removes) the card on the giver's reservation of `itemID`.
    public func setCard(itemID: ItemID, giverID: UserID, message: String) async throws -> GiftChange {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE reservation SET card = ? WHERE item_id = ? AND giver_id = ? AND card != ?",
                arguments: [message, itemID, giverID, message]
            )
            if db.changesCount == 1 { return .changed }
            return try Self.holdsReservation(itemID: itemID, giverID: giverID, db) ? .unchanged : .notReserved
        }
    }

    private static func holdsReservation(itemID: ItemID, giverID: UserID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM reservation WHERE item_id = ? AND giver_id = ?)", arguments: [itemID, giverID]
        ) ?? false
    }
}
