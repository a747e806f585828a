import Foundation
import GRDB

/// A database as SQL text that rebuilds it, as `sqlite3`'s `.dump` writes it but without the CLI:
/// tables, their rows, then indexes and triggers (after the rows, so no trigger fires while the
/// text loads and every index is built once). A full-text table is written as its own rows, not
/// its shadow tables': creating it makes those, and inserting re-indexes.
enum SQLDump {
    /// The text: `header` as comment lines, then statements that rebuild the database in one
    /// transaction with foreign keys off (a table may reference one created after it).
    static func text(of db: Database, header: [String]) throws -> String {
        var lines = header.map { "-- " + $0 }
        lines += ["PRAGMA foreign_keys = OFF;", "BEGIN;"]
        let objects = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
            AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow') ORDER BY rowid
            """)
        let tables = objects.filter { $0["type"] == "table" }
        lines += tables.map { ($0["sql"] as String) + ";" }
        for table in tables {
            lines += try inserts(into: table["name"], db)
        }
        if try db.tableExists("sqlite_sequence") {
            // AUTOINCREMENT's memory: ids of deleted rows are never given again (received items keep theirs).
            lines.append("DELETE FROM sqlite_sequence;")
            lines += try inserts(into: "sqlite_sequence", db)
        }
        lines += objects.filter { $0["type"] != "table" }.map { ($0["sql"] as String) + ";" }
        lines.append("COMMIT;")
        return lines.joined(separator: "\n") + "\n"
    }

    /// How many rows each table holds, shadow tables left out.
    static func rowCounts(_ db: Database) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in try tables(db) {
            counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\"")
        }
        return counts
    }

    /// The tables whose rows a dump writes.
    static func tables(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite_%' ORDER BY name
            """)
    }

    private static func inserts(into table: String, _ db: Database) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY rowid")
        return rows.map { row in
            let columns = row.columnNames.map { "\"\($0)\"" }.joined(separator: ", ")
            let values = row.databaseValues.map(literal).joined(separator: ", ")
            return "INSERT INTO \"\(table)\" (\(columns)) VALUES (\(values));"
        }
    }

    private static func literal(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let integer): String(integer)
        case .double(let real): String(real)
        case .string(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): "X'" + data.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}
