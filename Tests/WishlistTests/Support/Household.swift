import Foundation
import GRDB
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// A server with three members: Maya owns a list of three books, Ana and Ben give.
struct Household {
    let server: WishlistServer
    let itemIDs: [Int64]
    let titles: [String]

    static func make(clock: WallClock = .system) async throws -> Household {
        let server = try await TestApp.build(clock: clock)
        let books = Array(try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1.prefix(3).map(\.book))
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            for book in books {
                #expect(try await maya.post("/wishlist", [("book", book.id), ("return_to", "/wishlist")]).status == .seeOther)
            }
            var giver = TestBrowser(client: maya.client)
            try await giver.signUp("ana")
            giver = TestBrowser(client: maya.client)
            try await giver.signUp("ben")
        }
        let ids = try await server.database.pool.read { try Int64.fetchAll($0, sql: "SELECT id FROM wishlist_item ORDER BY id") }
        return Household(server: server, itemIDs: ids, titles: books.map(\.title))
    }

    enum Member { case maya, ana, ben }

    /// Runs `body` against the household's server with Maya, Ana and Ben signed in, each in a
    /// browser of their own, once the members in `sharing` share their lists with the household
    /// (Maya alone unless told otherwise): `try await home.run { maya, ana, ben in … }`.
    func run<Value: Sendable>(
        sharing: [Member] = [.maya],
        _ body: @Sendable (inout TestBrowser, inout TestBrowser, inout TestBrowser) async throws -> Value
    ) async throws -> Value {
        try await TestApp.run(server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            var ana = try await TestBrowser.signedIn("ana", like: browser)
            var ben = try await TestBrowser.signedIn("ben", like: browser)
            for member in sharing {
                switch member {
                case .maya: try await maya.share()
                case .ana: try await ana.share()
                case .ben: try await ben.share()
                }
            }
            return try await body(&maya, &ana, &ben)
        }
    }

    func reservationCount() async throws -> Int {
        try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM reservation") ?? 0 }
    }

    /// The catalog ids of Maya's three books, in the order of ``itemIDs``.
    func bookIDs() async throws -> [String] {
        try await server.database.pool.read { try String.fetchAll($0, sql: "SELECT book_id FROM wishlist_item ORDER BY id") }
    }

    func readingCount() async throws -> Int {
        try await server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM reading") ?? 0 }
    }

    func itemCount(owner: String) async throws -> Int {
        try await server.database.pool.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM wishlist_item JOIN user ON user.id = user_id WHERE username = ?", arguments: [owner]) ?? 0
        }
    }
}

extension TestBrowser {
    /// A second browser on the same server, signed in as `username`.
    static func signedIn(_ username: String, like other: TestBrowser) async throws -> TestBrowser {
        var browser = TestBrowser(client: other.client)
        #expect(try await browser.signIn(username).status == .seeOther)
        return browser
    }

    mutating func share(_ sharing: String = "household") async throws {
        let response = try await post("/settings/sharing", [("sharing", sharing)])
        #expect(response.status == .seeOther)
        #expect(response.location == "/settings/sharing?done=sharing-\(sharing)#flash")
    }

    mutating func reserve(_ item: Int64, returnTo: String = "/people/maya") async throws -> TestResponse {
        try await post("/reservations", [("item", "\(item)"), ("return_to", returnTo)])
    }
}
