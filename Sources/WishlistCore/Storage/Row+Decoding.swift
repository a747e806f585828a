import GRDB

extension Row {
    /// Each row of `statement`, turned into a value by `decode` while the cursor stands on it.
    ///
    /// `Row.fetchAll` copies every row, and a copied row finds a column by name by lowercasing the
    /// names of the columns before it, one after another, on every lookup: a page of a hundred
    /// wishlist items read that way spent about a percent of the server's CPU lowercasing (issue
    /// 34, `perf` of the household mix). A cursor's row finds its columns in a table of the
    /// statement's names made once. `decode` must not keep the row, which the cursor reuses.
    static func decodeAll<Value>(
        _ statement: Statement, arguments: StatementArguments = StatementArguments(), _ decode: (Row) throws -> Value
    ) throws -> [Value] {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var values: [Value] = []
        while let row = try rows.next() { values.append(try decode(row)) }
        return values
    }

    /// The first row of `statement` turned into a value by `decode`, as ``decodeAll(_:arguments:_:)``
    /// does; nil when there is none.
    static func decodeOne<Value>(
        _ statement: Statement, arguments: StatementArguments = StatementArguments(), _ decode: (Row) throws -> Value
    ) throws -> Value? {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        return try rows.next().map(decode)
    }
}
