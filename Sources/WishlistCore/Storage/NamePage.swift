/// One page of a list of people in name order (`/admin`'s accounts, `/people`), found by a part
/// of their name: a server of ten thousand accounts is still a short page and a short query.
public struct NamePage<Item: Sendable>: Sendable {
    /// A page holds this many names.
    public static var size: Int { 100 }

    public let items: [Item]
    /// Names containing the filter (all of them without one).
    public let total: Int
    /// The page's number, from 1.
    public let number: Int

    public var pageCount: Int { max(1, (total + Self.size - 1) / Self.size) }
    /// The first item's position in the whole list, from 1 (0 when the page is empty).
    public var firstPosition: Int { items.isEmpty ? 0 : (number - 1) * Self.size + 1 }
    public var lastPosition: Int { items.isEmpty ? 0 : firstPosition + items.count - 1 }

    /// The rows the page's query skips.
    static func offset(_ number: Int) -> Int { (number - 1) * size }
}

extension NamePage: Equatable where Item: Equatable {}
