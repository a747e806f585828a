import GRDB

/// A row's id, typed by what it names: an item's id cannot be passed where a reservation's or a
/// user's belongs, which a bare `Int64` allowed (13 functions took two of them side by side).
/// The database reads and writes it as the integer it is (`DatabaseValueConvertible`), so the
/// type holds from the row to the page and back.
public struct ID<Tag>: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The one reader of ids from text (paths and form fields): 1 to 18 ASCII digits without a
    /// leading zero, so a positive `Int64` with one spelling. Nil for anything else (`0`, `-1`,
    /// `+5`, `007`, `1e3`, 19 digits), which the caller answers as an unknown id.
    public init?(_ text: some StringProtocol) {
        let digits = text.utf8
        guard (1...18).contains(digits.count), digits.first != UInt8(ascii: "0"),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let value = Int64(text)
        else { return nil }
        rawValue = value
    }

    public var description: String { String(rawValue) }

    public static func < (left: ID, right: ID) -> Bool { left.rawValue < right.rawValue }
}

extension ID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> ID? {
        Int64.fromDatabaseValue(value).map { ID($0) }
    }
}

/// Read straight from the statement's column, as `Int64` is, rather than through a
/// `DatabaseValue`: a page of a hundred wants reads an id or two of each (issue 58).
extension ID: StatementColumnConvertible {
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self.init(Int64(sqliteStatement: sqliteStatement, index: index))
    }
}

/// A member's account.
public typealias UserID = ID<User>
/// A wishlist item's id, which a received item keeps.
public typealias ItemID = ID<WishlistItem>
/// A gift reservation's id (its notice, once the item is gone).
public typealias ReservationID = ID<Gift>
/// A gift idea for a member.
public typealias IdeaID = ID<GiftIdea>
/// A book a member has read (a favourite on her profile is one).
public typealias ReadingID = ID<Reading>
/// A passkey's id in Settings.
public typealias PasskeyID = ID<Passkey>
/// An invite's id on `/admin`.
public typealias InviteID = ID<Invites.Invite>
/// A signed-in browser.
public typealias SessionID = ID<ActiveSession>
/// A provider identity linked to an account.
public typealias IdentityID = ID<LinkedIdentity>
/// A Goodreads import under way, whose rows carry it until it finishes.
public typealias ImportID = ID<GoodreadsImporter>
/// A message of the outbox.
public typealias MailID = ID<MailOutbox>
/// A personal API token (issue 54).
public typealias APITokenID = ID<APIToken>
