import Foundation
import GRDB

/// Who may see a user's wishlist. Every account starts private.
public enum Sharing: String, Sendable, CaseIterable {
    /// Only its owner.
    case `private`
    /// Every signed-in user of this server, who may also reserve its books as gifts.
    case household
}

/// A member whose wishlist is shared with the household, as the People page lists them.
public struct Member: Sendable, Equatable {
    public let id: UserID
    public let username: String
    /// The name to show (``MemberName``); URLs keep the username.
    public let name: String
    public let itemCount: Int
    /// For a child's profile, the names of the members who manage her (on People only); else empty.
    public var managerNames: [String] = []
    /// Whether the member who reads People manages this child.
    public var managedByViewer = false
}

/// One item of a shared wishlist as another member sees it.
public struct SharedItem: Sendable, Equatable {
    public enum Reservation: Sendable, Equatable {
        case open
        /// The viewer's: whether they marked it bought, and their card ("" for none).
        case byViewer(bought: Bool, card: String)
        /// Another giver's, by the name to show (``MemberName``).
        case byOther(name: String, bought: Bool)
    }

    public let item: WishlistItem
    public let reservation: Reservation
}

/// One item of a shared wishlist and its reservation as it stands, whoever looks: a member's
/// page is read once for all the others, and each sees their own part of it. Never read for
/// its owner, who sees no reservation.
public struct HeldItem: Sendable, Equatable {
    /// The giver who reserved the item: a member, or a guest on a share link (issue 57).
    public struct Holder: Sendable, Equatable {
        /// The member; nil for a guest.
        public let id: UserID?
        /// The name to show (``MemberName``; a guest's as ``guestName(_:)`` words it).
        public let name: String
        public let bought: Bool
        /// Their card ("" for none), which only they see before the book arrives.
        public let card: String

        /// "Grandpa (guest)": a guest's name beside the members', never taken for one of them.
        public static func guestName(_ name: String) -> String { "\(name) (guest)" }

        /// The holder of a row with a member's `giver_id` and `giver_name`, `bought` and `card`,
        /// or a guest's `guest_name`; nil when the want is open.
        init?(_ row: Row, _ at: Columns) {
            if let giver: UserID = row[at.giverID] {
                self.init(id: giver, name: row[at.giverName], bought: row[at.bought], card: row[at.card])
            } else if let guest: String = row[at.guestName] {
                self.init(id: nil, name: Self.guestName(guest), bought: false, card: "")
            } else {
                return nil
            }
        }

        /// Where rows hold the holder's columns.
        struct Columns {
            let giverID, giverName, bought, card, guestName: Int

            init(_ columns: ColumnPlaces) {
                giverID = columns.of("giver_id")
                giverName = columns.of("giver_name")
                bought = columns.of("bought")
                card = columns.of("card")
                guestName = columns.of("guest_name")
            }
        }

        init(id: UserID?, name: String, bought: Bool, card: String) {
            self.id = id
            self.name = name
            self.bought = bought
            self.card = card
        }
    }

    public let item: WishlistItem
    public let holder: Holder?

    /// The item as every other member sees it: open, or whose it is.
    public var seenByOthers: SharedItem {
        SharedItem(item: item, reservation: holder.map { .byOther(name: $0.name, bought: $0.bought) } ?? .open)
    }

    /// The item as the giver who reserved it sees it, with their card; nil while it is open or a
    /// guest holds it.
    public var seenByHolder: SharedItem? {
        holder.flatMap { $0.id == nil ? nil : SharedItem(item: item, reservation: .byViewer(bought: $0.bought, card: $0.card)) }
    }
}

extension HeldItem {
    /// A decoder of the items of `statement`'s rows, read with their holders' columns
    /// (``Holder/init(_:_:)``), which finds the columns once for all the rows.
    static func decoder(for statement: Statement) -> (Row) -> HeldItem {
        let item = WishlistStore.items(in: statement)
        let holder = Holder.Columns(ColumnPlaces(statement))
        return { row in HeldItem(item: item(row), holder: Holder(row, holder)) }
    }
}

/// A member's shared want of a book as the book's page lists it (issue 57): whose it is and who,
/// if anyone, holds it; the item itself only when the page names the want
/// (``HouseholdStore/Reader/wants(bookID:viewerID:readingWhole:)``).
public struct BookWant: Sendable, Equatable {
    public let itemID: ItemID
    /// The member who wants it: her username and her name as pages show it (``MemberName``).
    public let username: String
    public let name: String
    public let holder: HeldItem.Holder?
    /// The item, read for a want the page names; nil for one it only counts.
    public internal(set) var item: WishlistItem?

    /// The want with its holder, as a member's page shows its items; nil when it was not read whole.
    public var held: HeldItem? { item.map { HeldItem(item: $0, holder: holder) } }
}

/// A gift the viewer has reserved, as "Gifts I'm giving" shows it.
public struct Gift: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// The item is still on the owner's shared list, as it is now.
        case reserved(item: WishlistItem)
        /// The item is still on the owner's list, but the list is private now (or its owner's
        /// account is disabled): the giver keeps the reservation, and sees only the title and
        /// author stored when reserving, never the item's current note or priority.
        case listHidden(itemID: ItemID)
        /// The owner removed the item from their list.
        case removed
        /// The owner deleted their account, and the list with it.
        case listGone
        /// The owner has it: she marked it received (the giver's "Given" history). When she has
        /// wished for the book again since (a new wish, free to reserve), the date she did, told
        /// only while her list is shared.
        case given(receivedAt: Date, wishedAgainAt: Date?)
        /// A gift idea for the owner (never on her list, so never hidden or removed by her).
        case idea(id: IdeaID, note: String)
    }

    public let id: ReservationID
    /// The owner's username when she reserved it, kept for if her account goes; paths use it.
    public let ownerName: String
    /// The owner's name to show (``MemberName``); the kept username once her account is gone.
    public let ownerShownName: String
    public let title: String
    public let author: String
    public let reservedAt: Date
    public let boughtAt: Date?
    /// The giver's card, which the owner reads once she has the book ("" for none).
    public let card: String
    public let state: State
}
