import Foundation
import GRDB
import Testing
@testable import WishlistCore

@Suite("A database from a newer version is refused and left alone", .removesTemporaryDirectories)
struct NewerSchemaTests {
    @Test func aSchemaThisBinaryDoesNotKnowStopsTheOpenWithOneLineAndWritesNothing() throws {
        let path = try temporaryDirectory().appendingPathComponent("newer.sqlite").path
        do {
            let database = try AppDatabase.open(path: path)
            // What a later version would leave: its migration recorded, and a table of its own.
            try database.pool.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('19-from-a-later-version')")
                try db.execute(sql: "CREATE TABLE later_feature (id INTEGER PRIMARY KEY)")
            }
            try database.pool.writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
        }
        let before = try Self.contents(path)
        #expect {
            _ = try AppDatabase.open(path: path)
        } throws: { error in
            let description = String(describing: error)
            return error is AppDatabase.NewerSchema && description.contains("schema 19-from-a-later-version")
                && description.contains("knows up to \(AppDatabase.migrator.migrations.last!)") && !description.contains("\n")
        }
        #expect(try Self.contents(path) == before, "nothing in the file changed: no migration, no table, no row")
    }

    @Test func eachMigrationRunsInATransactionSoOneThatFailsHalfWayLeavesTheFileAsItWas() throws {
        let path = try temporaryDirectory().appendingPathComponent("half.sqlite").path
        let database = try AppDatabase.open(path: path)
        var migrator = AppDatabase.migrator
        migrator.registerMigration("19-fails-half-way") { db in
            try db.execute(sql: "CREATE TABLE half_done (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO user (username) VALUES (NULL)")
        }
        #expect(throws: DatabaseError.self) { try migrator.migrate(database.pool) }
        let left = try database.pool.read { db in
            (try db.tableExists("half_done"), try migrator.appliedIdentifiers(db).contains("19-fails-half-way"))
        }
        #expect(left == (false, false), "neither the table nor the record of the migration stayed")
        #expect(try database.appliedMigrations() == AppDatabase.migrator.migrations)
    }

    /// The schema and every row of every table, read with SQLite alone (no migrator).
    static func contents(_ path: String) throws -> String {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            let schema = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
            let rows = try tables.map { table in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map(\.description).joined(separator: "\n") }
            return (schema + rows).joined(separator: "\n")
        }
    }
}
