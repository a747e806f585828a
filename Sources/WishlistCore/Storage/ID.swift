/// A row's id, typed by what it names: an item's id cannot be passed where a reservation's or a
/// user's belongs, which a bare `Int64` allowed (13 functions took two of them side by side).
public struct ID<Tag>: Hashable, Sendable, CustomStringConvertible {
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
}

/// A wishlist item's id.
public typealias ItemID = ID<WishlistItem>
/// A gift reservation's id (its notice, once the item is gone).
public typealias ReservationID = ID<Gift>
/// A passkey's id in Settings.
public typealias PasskeyID = ID<PasskeyStore>
/// An invite's id on `/admin`.
public typealias InviteID = ID<Invites>
/// An account's id on `/admin`.
public typealias AccountID = ID<User>
