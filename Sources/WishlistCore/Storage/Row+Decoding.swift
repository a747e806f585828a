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

    /// Each row of `statement` turned into a value by the decoder `decoder(for:)` makes for the
    /// statement, which finds the columns it reads once for all the rows (``ColumnPlaces``).
    static func decodeAll<Value>(
        _ statement: Statement, arguments: StatementArguments = StatementArguments(), decoder: (Statement) throws -> (Row) throws -> Value
    ) throws -> [Value] {
        try decodeAll(statement, arguments: arguments, decoder(statement))
    }

    /// The first row of `statement` turned into a value by `decode`, as ``decodeAll(_:arguments:_:)``
    /// does; nil when there is none.
    static func decodeOne<Value>(
        _ statement: Statement, arguments: StatementArguments = StatementArguments(), _ decode: (Row) throws -> Value
    ) throws -> Value? {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        return try rows.next().map(decode)
    }

    /// The first row of `statement` turned into a value by the decoder `decoder(for:)` makes for it.
    static func decodeOne<Value>(
        _ statement: Statement, arguments: StatementArguments = StatementArguments(), decoder: (Statement) throws -> (Row) throws -> Value
    ) throws -> Value? {
        try decodeOne(statement, arguments: arguments, decoder(statement))
    }
}

/// Where a statement's rows hold the columns a decoder reads, found by name once for all of them:
/// a column looked up by name in each row is lower-cased and hashed every time, which was 6–9% of
/// what the API's read of wants and a member's page cost for a hundred items (issue 58). A name is
/// found as `row["name"]` finds it, ignoring case, the leftmost column of that name.
struct ColumnPlaces {
    private let statement: Statement

    init(_ statement: Statement) {
        self.statement = statement
    }

    /// The place of a column every statement that reads this kind of row selects.
    func of(_ name: String) -> Int {
        guard let place = statement.index(ofColumn: name) else { preconditionFailure("a statement's rows have no column \(name)") }
        return place
    }
}
