import Foundation
import GRDB
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// `PageReadMemo`: the same request reuses its session read while nothing was committed, and
/// anything committed, by any connection, is seen by the next request.
@Suite("Page read memo: a read reused while the database is unchanged", .removesTemporaryDirectories)
struct PageReadMemoTests {
    typealias Probe = PageLoadersTests

    /// Another connection to the database file, as `wishlist user …` in a shell would open.
    static func otherConnection(_ server: WishlistServer) throws -> DatabaseQueue {
        try DatabaseQueue(path: server.database.pool.path)
    }

    @Test func theSameRequestIsAnsweredWithoutReadingAgainWhileNothingIsCommitted() async throws {
        try await Probe.withProbe { setup in
            let first = try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie)
            let again = try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie)
            #expect(first == "first \(setup.userID) 0 true" && again == first)
            #expect(setup.loads.value == 1)

            // Another address or other cookies are another read.
            _ = try await Probe.text(setup.client, .get, "/probe/second", cookie: setup.cookie)
            _ = try await Probe.text(setup.client, .get, "/probe/first?sort=weeks", cookie: setup.cookie)
            _ = try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie + "; list_sort=weeks")
            #expect(setup.loads.value == 4)
            // A POST to the same address reads the session for itself and gets no page.
            #expect(try await Probe.text(setup.client, .post, "/probe/first", cookie: setup.cookie) == "nothing")
        }
    }

    @Test func aCommitFromAnotherConnectionIsSeenByTheNextRequest() async throws {
        try await Probe.withProbe { setup in
            _ = try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie)
            try await Self.otherConnection(setup.server).write { db in
                try db.execute(
                    sql: """
                        INSERT INTO wishlist_item (user_id, title, author, publisher, description, isbn10, isbn13,
                            image_width, image_height, buy_links, reading_links, added_at)
                        VALUES (?, 'A Book', 'An Author', '', '', '', '', 0, 0, '[]', '[]', ?)
                        """,
                    arguments: [setup.userID, Date()]
                )
            }
            let after = try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie)
            #expect(after == "first \(setup.userID) 1 true", "the wishlist's new count")
            #expect(setup.loads.value == 2)
        }
    }

    @Test func aSessionDeletedFromAnotherProcessEndsAtOnce() async throws {
        try await Probe.withProbe { setup in
            #expect(try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie) != "nothing")
            try await Self.otherConnection(setup.server).write { db in try db.execute(sql: "DELETE FROM session") }
            #expect(try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie) == "nothing")
        }
    }

    @Test func aKeptSessionIsCheckedForExpiryAndItsLastSeenWriteOnEveryUse() async throws {
        try await Probe.withProbe { setup in
            _ = try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie)
            // Past the last-seen resolution: the session is read again, and its last use written.
            setup.time.advance(by: SessionStore.lastSeenResolution + 1)
            #expect(try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie) != "nothing")
            #expect(setup.loads.value == 2)
            let seen = try await setup.server.accounts.sessions.list(userID: setup.userID).first?.lastSeenAt
            #expect(seen.map { abs($0.timeIntervalSince(setup.time.clock.now())) < 1 } == true)

            // Idle for longer than a session lives: signed out, although nothing was committed.
            _ = try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie)
            setup.time.advance(by: TimeInterval(AppConfig.Accounts().sessionIdleDays) * 86_400 + 1)
            #expect(try await Probe.text(setup.client, .get, "/probe/first", cookie: setup.cookie) == "nothing")
        }
    }

    @Test func theProbeSeesCommitsOfEveryConnectionAndNothingElse() async throws {
        let server = try await TestApp.build()
        let before = try #require(server.database.changes.version())
        _ = try await server.database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user") }
        #expect(server.database.changes.version() == before, "a read commits nothing")
        _ = try await server.accounts.createUser(username: "writer", password: "correct horse battery")
        let afterOwnWrite = try #require(server.database.changes.version())
        #expect(afterOwnWrite != before)
        try await Self.otherConnection(server).write { db in try db.execute(sql: "DELETE FROM user WHERE username = 'writer'") }
        #expect(server.database.changes.version() != afterOwnWrite)
        #expect(server.database.changes.readsTheWALIndex, "the app's database is in WAL mode: the probe reads the index's header")
    }

    /// A database with no write-ahead log has no index to read: the probe asks SQLite instead,
    /// and still sees every commit.
    @Test func withoutAWriteAheadLogTheProbeAsksSQLite() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        let probe = try DatabaseChangeProbe(path: path)
        #expect(!probe.readsTheWALIndex)
        let before = try #require(probe.version())
        #expect(probe.version() == before)
        try other.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try #require(probe.version()) > before)
    }

    /// Versions only grow, so the memo can tell a newer read from an older one.
    @Test func versionsGrowWithEveryCommit() async throws {
        let server = try await TestApp.build()
        var last = try #require(server.database.changes.version())
        for round in 0..<5 {
            try await Self.otherConnection(server).write { db in try db.execute(sql: "INSERT INTO audit_event (happened_at, actor, action, subject) VALUES ('2026-11-24 00:00:00.000', 'probe', 'round', ?)", arguments: ["\(round)"]) }
            let next = try #require(server.database.changes.version())
            #expect(next > last)
            last = next
        }
    }
}
