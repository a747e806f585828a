import Foundation
import GRDB
import Hummingbird
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("503 pages: each says what is unavailable", .removesTemporaryDirectories)
struct ServiceUnavailableTests {
    @Test func aBusyDatabaseAnswers503SayingSo() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("patient")
            try await browser.get("/lists")
            // The server's writer gives up at once instead of after its 5-second busy timeout,
            // while another connection holds the write lock.
            try await server.database.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA busy_timeout = 0") }
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let other = try DatabaseQueue(path: server.config.database.path, configuration: configuration)
            try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }

            let response = try await browser.post("/lists/audio-fiction/favorite", [("return_to", "/lists")])
            #expect(response.status == .serviceUnavailable)
            #expect(response.shows("The server is busy saving other changes"))
            #expect(!response.shows("sign-ins"))
            #expect(response.headers[.retryAfter] == "2")

            try other.inDatabase { try $0.execute(sql: "ROLLBACK") }
            #expect(try await browser.post("/lists/audio-fiction/favorite", [("return_to", "/lists")]).status == .seeOther)
        }
    }

    /// A full disk refuses the write with a page that says so, keeps what was acknowledged and the
    /// pages readable, and once there is room again the same form works, without a restart.
    @Test func aFullDiskAnswers503SayingSoAndTheServerRecoversWhenSpaceReturns() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("crowded")
            #expect(try await browser.post("/lists/hardcover-fiction/favorite", [("return_to", "/lists")]).status == .seeOther)
            // Every new favourite now needs a megabyte more than the file may grow: SQLITE_FULL,
            // as on a full disk. (max_page_count cannot go below the file's size, which it becomes.)
            try await server.database.pool.writeWithoutTransaction { db in
                try db.execute(sql: "CREATE TABLE ballast (bytes BLOB)")
                try db.execute(sql: "CREATE TRIGGER fill_the_disk AFTER INSERT ON favorite_list BEGIN INSERT INTO ballast VALUES (randomblob(1000000)); END")
                try db.execute(sql: "PRAGMA max_page_count = 1")
            }
            let response = try await browser.post("/lists/audio-fiction/favorite", [("return_to", "/lists")])
            #expect(response.status == .serviceUnavailable)
            #expect(response.shows("The server has run out of disk space"))
            #expect(!response.shows("sign-ins"))

            let catalog = try await browser.get("/lists")
            #expect(catalog.status == .ok, "pages stay readable")
            #expect(catalog.text.contains(#"id="favorites""#), "the favourite acknowledged before is there")
            let wishlist = try await browser.get("/wishlist")
            #expect(wishlist.status == .ok)
            #expect(wishlist.text.contains(#"<h1 id="page-title">Your wishlist"#), "the wishlist itself, not an error page that answered 200")

            // Space returns: the writer may grow the file again, and the next try succeeds.
            try await server.database.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = 1073741823") }
            #expect(try await browser.post("/lists/audio-fiction/favorite", [("return_to", "/lists")]).status == .seeOther)
        }
        let favourites = try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT list_name_encoded FROM favorite_list ORDER BY list_name_encoded") }
        #expect(favourites == ["audio-fiction", "hardcover-fiction"])
    }

    @Test func aDatabaseThatCannotBeWrittenAnswers503SayingSo() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("readonly")
            try await browser.get("/lists")
            // SQLITE_READONLY, as when the file's permissions have changed under the server.
            try await server.database.pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = 1") }
            let response = try await browser.post("/lists/audio-fiction/favorite", [("return_to", "/lists")])
            #expect(response.status == .serviceUnavailable)
            #expect(response.shows("The server cannot use its database right now"))
        }
    }

    @Test func aServiceUnavailableFromTheFrameworkDoesNotBlameSignIns() {
        let page = PageError.from(status: .serviceUnavailable)
        #expect(page.status == .serviceUnavailable)
        #expect(page.message != PageError.hasherBusy.message)
        #expect(!page.title.contains("sign-ins"))
    }

}
