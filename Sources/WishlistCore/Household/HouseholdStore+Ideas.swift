import Foundation
import GRDB

/// A book the others suggested for a member, as they see it (she never does).
public struct GiftIdea: Sendable, Equatable {
    public let id: IdeaID
    public let bookID: String
    public let title: String
    public let author: String
    public let note: String
    /// The suggester's name to show (``MemberName``).
    public let suggestedBy: String
    public let reservation: SharedItem.Reservation
}

/// Gift ideas: suggested, listed and reserved by the members who can see the owner's list, and
/// never read on the owner's behalf.
extension HouseholdStore {
    public enum SuggestOutcome: Sendable, Equatable {
        case suggested
        /// The book is already an idea for her (`by` suggested it).
        case alreadySuggested(by: String)
        /// She wishes for it herself already: reserve her item instead.
        case alreadyWished
        case unknownBook
        /// Not a member whose list the suggester can see (private, disabled, or herself).
        case notFound
    }

    public static let ideaNoteMaximumLength = 500

    /// Suggests a catalog book for `ownerID`, checked and written in one transaction.
    public func suggest(bookID: String, for ownerID: UserID, by suggesterID: UserID, note: String, at now: Date) async throws -> SuggestOutcome {
        try await database.write { db in
            guard ownerID != suggesterID, try Self.isReachable(ownerID, db) else { return .notFound }
            guard let book = try Row.fetchOne(db, sql: "SELECT title, author FROM book WHERE id = ?", arguments: [bookID]) else { return .unknownBook }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM wishlist_item WHERE user_id = ? AND book_id = ? AND shared)", arguments: [ownerID, bookID]) == true {
                return .alreadyWished
            }
            if let by = try String.fetchOne(
                db, sql: "SELECT \(MemberName.shownSQL("user")) FROM gift_idea JOIN user ON user.id = suggested_by WHERE owner_id = ? AND book_id = ?",
                arguments: [ownerID, bookID]
            ) {
                return .alreadySuggested(by: by)
            }
            try db.execute(
                sql: "INSERT INTO gift_idea (owner_id, suggested_by, book_id, title, author, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [ownerID, suggesterID, bookID, book["title"], book["author"], note, StoredDate(now)]
            )
            return .suggested
        }
    }

    /// Reserves an idea for a member as one reserves her items; the same outcomes.
    public func reserveIdea(ideaID: IdeaID, giverID: UserID, at now: Date) async throws -> ReserveOutcome {
        try await database.write { db in
            guard let idea = try Row.fetchOne(
                db,
                sql: """
                    SELECT gift_idea.title, gift_idea.author, owner.id AS owner_id, owner.username AS owner_name
                    FROM gift_idea JOIN user AS owner ON owner.id = gift_idea.owner_id
                    WHERE gift_idea.id = ? AND owner.sharing = 'household' AND owner.disabled_at IS NULL AND owner.id != ?
                    """,
                arguments: [ideaID, giverID]
            ) else { return .notFound }
            if let holder = try Row.fetchOne(
                db, sql: "SELECT giver.id, \(MemberName.shownSQL("giver")) AS name FROM reservation JOIN user AS giver ON giver.id = reservation.giver_id WHERE idea_id = ?",
                arguments: [ideaID]
            ) {
                return holder["id"] as UserID == giverID ? .alreadyYours : .takenBy(name: holder["name"])
            }
            try db.execute(
                sql: "INSERT INTO reservation (idea_id, giver_id, owner_id, owner_name, title, author, reserved_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [ideaID, giverID, idea["owner_id"], idea["owner_name"], idea["title"], idea["author"], StoredDate(now)]
            )
            return .reserved
        }
    }

    /// Cancels the giver's reservation of an idea; false when they hold none on it.
    public func cancelIdea(ideaID: IdeaID, giverID: UserID) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM reservation WHERE idea_id = ? AND giver_id = ?", arguments: [ideaID, giverID])
            return db.changesCount == 1
        }
    }

    private static func isReachable(_ userID: UserID, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM user WHERE id = ? AND sharing = 'household' AND disabled_at IS NULL)", arguments: [userID]
        ) ?? false
    }
}

extension HouseholdStore.Reader {
    /// The ideas for `ownerID` as `viewerID` sees them; nothing when the viewer is the owner.
    public func ideas(for ownerID: UserID, viewerID: UserID) throws -> [GiftIdea] {
        try Row.decodeAll(db.cachedStatement(sql: """
                SELECT gift_idea.*, \(MemberName.shownSQL("suggester")) AS suggested_by_name, reservation.giver_id,
                    \(MemberName.shownSQL("giver")) AS giver_name,
                    reservation.bought_at IS NOT NULL AS bought, reservation.card
                FROM gift_idea
                JOIN user AS suggester ON suggester.id = gift_idea.suggested_by
                LEFT JOIN reservation ON reservation.idea_id = gift_idea.id
                LEFT JOIN user AS giver ON giver.id = reservation.giver_id
                WHERE gift_idea.owner_id = ? AND ? != gift_idea.owner_id
                ORDER BY gift_idea.created_at DESC, gift_idea.id DESC
                """), arguments: [ownerID, viewerID]) { row in
            let reservation: SharedItem.Reservation
            switch row["giver_id"] as UserID? {
            case nil: reservation = .open
            case viewerID: reservation = .byViewer(bought: row["bought"], card: row["card"])
            default: reservation = .byOther(name: row["giver_name"], bought: row["bought"])
            }
            return GiftIdea(
                id: row["id"], bookID: row["book_id"], title: row["title"], author: row["author"], note: row["note"],
                suggestedBy: row["suggested_by_name"], reservation: reservation
            )
        }
    }
}

extension WishlistStore {
    /// When the owner wishes for a book the others suggested, the idea becomes her item: its
    /// reservation moves to the item (unless the item has one already: a received book moved
    /// back, whose idea's giver then finds the idea gone) and the idea goes. Runs in her add's transaction; what she
    /// is answered does not depend on it.
    static func absorbIdea(bookID: String, into itemID: ItemID, ownerID: UserID, _ db: Database) throws {
        // A want only on private lists leaves the idea as it was: its givers must not see it go.
        guard try Bool.fetchOne(db, sql: "SELECT shared FROM wishlist_item WHERE id = ?", arguments: [itemID]) == true else { return }
        try db.execute(
            sql: """
                UPDATE reservation SET item_id = ?1, idea_id = NULL
                WHERE idea_id = (SELECT id FROM gift_idea WHERE owner_id = ?2 AND book_id = ?3)
                  AND NOT EXISTS (SELECT 1 FROM reservation WHERE item_id = ?1)
                """,
            arguments: [itemID, ownerID, bookID]
        )
        try db.execute(sql: "DELETE FROM gift_idea WHERE owner_id = ? AND book_id = ?", arguments: [ownerID, bookID])
    }
}
