import GRDB

/// One page of a long list: `/admin`'s accounts and `/people` in name order, a wishlist in its
/// order. A server of ten thousand accounts, or a wishlist of a thousand books, is still a short
/// page on a phone and a short query.
public struct PagedList<Item: Sendable>: Sendable {
    /// A page holds this many items.
    public static var size: Int { 100 }

    public let items: [Item]
    /// All the items the pages share between them (those matching a filter, where there is one).
    public let total: Int
    /// The page's number, from 1.
    public let number: Int

    public var pageCount: Int { Self.pageCount(total) }
    /// The first item's position in the whole list, from 1 (0 when the page is empty).
    public var firstPosition: Int { items.isEmpty ? 0 : (number - 1) * Self.size + 1 }
    public var lastPosition: Int { items.isEmpty ? 0 : firstPosition + items.count - 1 }

    static func pageCount(_ total: Int) -> Int { max(1, (total + size - 1) / size) }

    /// The rows the page's query skips.
    static func offset(_ number: Int) -> Int { (number - 1) * size }

    /// A page past the end (an old link to a list that has since shrunk) is the last one.
    static func existing(_ number: Int, total: Int) -> Int { min(max(1, number), pageCount(total)) }
}

extension PagedList: Equatable where Item: Equatable {}

extension PagedList {
    /// Page `number` of what `rows` selects (`SELECT … ORDER BY …`, the limit and offset added
    /// here), with the total `count` counts (`SELECT COUNT(*) …`) over the same `arguments`; a
    /// number past the last page is the last page. The one paged query of every store.
    static func read(
        _ db: Database, count: String, rows: String, arguments: [(any DatabaseValueConvertible)?], page number: Int, _ decode: (Row) throws -> Item
    ) throws -> PagedList {
        try withoutActuallyEscaping(decode) { decode in
            try read(db, count: count, rows: rows, arguments: arguments, page: number, decoder: { _ in decode })
        }
    }

    /// The same, each row turned into an item by the decoder `decoder(for:)` makes for the rows'
    /// statement (``Row/decodeAll(_:arguments:decoder:)``).
    static func read(
        _ db: Database, count: String, rows: String, arguments: [(any DatabaseValueConvertible)?], page number: Int,
        decoder: (Statement) throws -> (Row) throws -> Item
    ) throws -> PagedList {
        let total = try Int.fetchOne(db.cachedStatement(sql: count), arguments: StatementArguments(arguments)) ?? 0
        let number = existing(number, total: total)
        let items = try Row.decodeAll(
            db.cachedStatement(sql: rows + " LIMIT ? OFFSET ?"), arguments: StatementArguments(arguments + [size, offset(number)]), decoder: decoder
        )
        return PagedList(items: items, total: total, number: number)
    }
}
