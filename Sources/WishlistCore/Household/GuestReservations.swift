import Foundation
import GRDB

/// Reservations by guests on a share link (issue 57): a grandparent without an account reserves
/// a want of the link's list with their name. A want is reserved once, by a member or a guest;
/// the check and the write are one transaction, so two guests (or a guest and a member) pressing
/// at once get one reservation and one refusal. The owner never reads these rows: only the
/// household's givers see the name ("Reserved by Grandpa (guest)", ``HouseholdStore``), and the
/// guest cancels through a private link shown once, kept as its SHA-256.
public struct GuestReservations: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// The cancel link's token, to show this once.
        case reserved(cancelToken: String)
        /// A member or another guest holds it.
        case taken
        /// Not a want of the link's list.
        case notFound
        /// Seconds until this client may try again.
        case throttled(retryAfter: Int)
    }

    /// The reservation a cancel link holds, for its confirmation page.
    public struct Held: Sendable, Equatable {
        public let title: String
        /// The owner's name to show (``MemberName``).
        public let ownerName: String
        public let guestName: String
    }

    /// A guest's name, as the givers will read it: one line, 1 to 60 characters.
    public enum NameProblem: Error, Sendable, Equatable {
        case missing, tooLong, controlCharacters
    }

    public static let nameMaximumLength = 60

    let database: AppDatabase
    let clock: WallClock
    let throttle: LoginThrottle

    public init(database: AppDatabase, clock: WallClock, settings: AppConfig.Accounts) {
        self.database = database
        self.clock = clock
        self.throttle = LoginThrottle(database: database, clock: clock, settings: settings)
    }

    /// The name trimmed, or what is wrong with it.
    public static func checkedName(_ name: String) -> Result<String, NameProblem> {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return .failure(.missing) }
        if name.count > nameMaximumLength { return .failure(.tooLong) }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return .failure(.controlCharacters) }
        return .success(name)
    }

    /// The wants of `list` that someone (a member or a guest) has reserved: what a guest sees as
    /// "Reserved". Never for the owner's pages.
    public func reservedItems(onList list: ListID) async throws -> Set<ItemID> {
        try await database.pool.read { db in
            Set(try ItemID.fetchAll(
                db.cachedStatement(sql: """
                    SELECT wish_list_item.item_id FROM wish_list_item WHERE wish_list_item.list_id = ?1 AND (
                        EXISTS (SELECT 1 FROM reservation WHERE reservation.item_id = wish_list_item.item_id)
                        OR EXISTS (SELECT 1 FROM guest_reservation WHERE guest_reservation.item_id = wish_list_item.item_id))
                    """),
                arguments: [list.rawValue]
            ))
        }
    }

    /// Reserves `itemID`, a want of the shared `list`, for the guest `name` (checked), counted
    /// against the client's address whatever the outcome, so a script cannot try every want.
    public func reserve(itemID: ItemID, onList list: ListID, name: String, clientAddress: String) async throws -> Outcome {
        if case .throttled(let seconds) = try await throttle.admit([.guestReservations(clientAddress)]) { return .throttled(retryAfter: seconds) }
        let token = SecureRandom.token()
        let now = clock.now()
        return try await database.write { db in
            guard try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM wish_list_item JOIN wish_list ON wish_list.id = wish_list_item.list_id
                        JOIN wishlist_item ON wishlist_item.id = wish_list_item.item_id JOIN user ON user.id = wishlist_item.user_id
                        WHERE wish_list_item.list_id = ? AND wish_list_item.item_id = ? AND wish_list.visibility = 'household' AND user.disabled_at IS NULL)
                    """,
                arguments: [list.rawValue, itemID]
            ) == true else { return .notFound }
            let taken = try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM reservation WHERE item_id = ?1) OR EXISTS (SELECT 1 FROM guest_reservation WHERE item_id = ?1)",
                arguments: [itemID]
            ) ?? false
            guard !taken else { return .taken }
            try db.execute(
                sql: "INSERT INTO guest_reservation (item_id, guest_name, cancel_token_hash, reserved_at) VALUES (?, ?, ?, ?)",
                arguments: [itemID, name, SessionStore.fingerprint(token), StoredDate(now)]
            )
            return .reserved(cancelToken: token)
        }
    }

    /// The reservation behind a cancel link, or nil for an unknown one or one already cancelled.
    public func held(cancelToken token: String) async throws -> Held? {
        guard token.utf8.count == 43 else { return nil }
        return try await database.pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT wishlist_item.title, \(MemberName.shownSQL("owner")) AS owner_name, guest_reservation.guest_name
                    FROM guest_reservation JOIN wishlist_item ON wishlist_item.id = guest_reservation.item_id
                    JOIN user AS owner ON owner.id = wishlist_item.user_id
                    WHERE guest_reservation.cancel_token_hash = ?
                    """,
                arguments: [SessionStore.fingerprint(token)]
            ).map { Held(title: $0["title"], ownerName: $0["owner_name"], guestName: $0["guest_name"]) }
        }
    }

    /// Cancels the reservation behind a cancel link; false when there is none (any more).
    public func cancel(cancelToken token: String) async throws -> Bool {
        guard token.utf8.count == 43 else { return false }
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM guest_reservation WHERE cancel_token_hash = ?", arguments: [SessionStore.fingerprint(token)])
            return db.changesCount == 1
        }
    }
}
