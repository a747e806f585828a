import CivilTime
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Download my data: one ZIP with everything of hers and nothing of anyone else's", .removesTemporaryDirectories)
struct DataExportHTTPTests {
    /// The download, its files as Python reads them, and `data.json` parsed.
    struct Download {
        let response: TestResponse
        let files: [String: [UInt8]]
        let json: [String: Any]

        var dataText: String { String(decoding: files["data.json"] ?? [], as: UTF8.self) }

        /// `data.json` without the moment it was made, to compare two downloads.
        var dataWithoutTime: String { dataText.replacing(/"exported_at" ?: "[^"]*"/, with: "") }
    }

    static func download(_ browser: inout TestBrowser) async throws -> Download {
        try await browser.get("/settings")
        let response = try await browser.post("/settings/export", [])
        let entries = try readZipWithPython(Array(buffer: response.body))
        let files = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0.bytes) })
        let json = try JSONSerialization.jsonObject(with: Data(files["data.json"] ?? [])) as? [String: Any] ?? [:]
        return Download(response: response, files: files, json: json)
    }

    static func itemID(_ database: AppDatabase, owner: String, book: String) async throws -> Int64 {
        try await database.pool.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT wishlist_item.id FROM wishlist_item JOIN user ON user.id = user_id WHERE username = ? AND book_id = ?",
                arguments: [owner, book]
            )!
        }
    }

    @Test func theArchiveHoldsEverythingOfHersAndNothingOthersDidForHer() async throws {
        let server = try await TestApp.build()
        let database = server.database
        let books = try await WishlistHTTPTests.fictionIDs(server)
        try await TestApp.run(server) { keeper in
            try await AccountsHTTPTests.giveEveryKindOfRow(&keeper, "keeper-4k", books: [books[3], books[4]])
            var maren = TestBrowser(client: keeper.client)
            try await AccountsHTTPTests.giveEveryKindOfRow(&maren, "maren-7q", books: [books[0], books[1]])
            let first = try await Self.itemID(database, owner: "maren-7q", book: books[0])
            #expect(try await maren.post("/wishlist/\(first)", [("note", "Hardback, please"), ("priority", "high")]).status == .seeOther)
            // A book she wished for arrives from the keeper, with a card.
            try await maren.post("/wishlist", [("book", books[2]), ("return_to", "/lists")])
            let gift = try await Self.itemID(database, owner: "maren-7q", book: books[2])
            #expect(try await keeper.post("/reservations", [("item", "\(gift)")]).status == .seeOther)
            #expect(try await keeper.post("/reservations/\(gift)/card", [("message", "Happy reading! K.")]).status == .seeOther)
            #expect(try await maren.post("/wishlist/\(gift)/received", []).status == .seeOther)
            // Her own gift to the keeper, bought and signed, and an idea for him.
            let forKeeper = try await Self.itemID(database, owner: "keeper-4k", book: books[3])
            #expect(try await maren.post("/reservations", [("item", "\(forKeeper)")]).status == .seeOther)
            #expect(try await maren.post("/reservations/\(forKeeper)/bought", []).status == .seeOther)
            #expect(try await maren.post("/reservations/\(forKeeper)/card", [("message", "From Maren, with love")]).status == .seeOther)
            #expect(try await maren.post("/people/keeper-4k/ideas", [("book", books[5]), ("note", "He liked the last one")]).status == .seeOther)

            let before = try await Self.download(&maren)

            let response = before.response
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/zip")
            #expect(response.headers[.cacheControl] == "no-store")
            let today = CivilDateTime(Date()).isoDate
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"bestseller-wishlist-maren-7q-\(today).zip\"")
            #expect(Set(before.files.keys) == ["data.json", "wishlist.csv", "picture-256.jpg"])
            let picture = try await database.pool.read { db in
                try Data.fetchOne(db, sql: "SELECT large FROM profile_picture JOIN user ON user.id = user_id WHERE username = 'maren-7q'")!
            }
            #expect(before.files["picture-256.jpg"] == Array(picture))
            #expect(before.files["wishlist.csv"] == Array(buffer: try await maren.get("/wishlist.csv").body), "the Goodreads export")

            let json = before.json
            let account = try #require(json["account"] as? [String: Any])
            #expect(account["username"] as? String == "maren-7q")
            #expect(account["sharing"] as? String == "household")
            #expect(account["start_list"] as? String == "Hardcover Fiction")
            #expect(account["favourite_lists"] as? [String] == ["Hardcover Fiction"])
            let browsers = try #require(json["signed_in_browsers"] as? [[String: Any]])
            #expect(!browsers.isEmpty && browsers.allSatisfy { $0["browser"] as? String == "Chrome on Linux" && $0["last_seen_at"] != nil })
            let passkeys = try #require(json["passkeys"] as? [[String: Any]])
            #expect(passkeys.count == 1 && passkeys[0]["name"] != nil && passkeys[0]["created_at"] != nil)
            let wishlist = try #require(json["wishlist"] as? [[String: Any]])
            let noted = try #require(wishlist.first { $0["note"] as? String == "Hardback, please" })
            #expect(noted["priority"] as? String == "high" && noted["added_at"] != nil && noted["title"] != nil)
            // Her lists (issue 51): the first, with every book on it.
            let lists = try #require(json["lists"] as? [[String: Any]])
            #expect(lists.count == 1 && lists[0]["name"] as? String == "Wishlist" && lists[0]["first"] as? Bool == true)
            #expect(lists[0]["visibility"] as? String == "household" && lists[0]["occasion"] as? String == "none")
            #expect((lists[0]["books"] as? [String])?.count == wishlist.count && wishlist.count > 0)
            let received = try #require(json["received"] as? [[String: Any]])
            #expect(received.count == 2)
            let cards = received.flatMap { $0["cards"] as? [[String: String]] ?? [] }
            #expect(cards == [["from": "keeper-4k", "message": "Happy reading! K."]])
            let readings = try #require(json["readings"] as? [[String: Any]])
            #expect(readings.count == 1 && readings[0]["rating"] as? Int == 5 && readings[0]["review"] as? String == "maren-7q loved it")
            let profile = try #require(json["profile"] as? [String: Any])
            #expect(profile["bio"] as? String == "I am maren-7q" && profile["birthday"] as? String == "03-14")
            #expect(profile["picture"] as? String == "picture-256.jpg" && (profile["favourite_books"] as? [String])?.count == 1)
            let gifts = try #require(json["gifts_i_am_giving"] as? [[String: Any]])
            #expect(gifts.count == 1 && gifts[0]["for_member"] as? String == "keeper-4k")
            #expect(gifts[0]["bought_at"] != nil && gifts[0]["card"] as? String == "From Maren, with love")
            let ideas = try #require(json["gift_ideas_i_suggested"] as? [[String: Any]])
            #expect(ideas.count == 1 && ideas[0]["for_member"] as? String == "keeper-4k" && ideas[0]["note"] as? String == "He liked the last one")

            let text = before.dataText
            for secret in ["argon2", "token", "password", "credential", "public_key"] {
                #expect(!text.lowercased().contains(secret), "no \(secret) in data.json")
            }
            for theirs in ["keeper-4k loved it", "I am keeper-4k"] {
                #expect(!text.contains(theirs), "nothing of the keeper's own: \(theirs)")
            }

            // Now the keeper reserves her open book, buys it and signs it, and suggests and
            // reserves an idea for her: her download does not change by a byte.
            #expect(try await keeper.post("/reservations", [("item", "\(first)")]).status == .seeOther)
            #expect(try await keeper.post("/reservations/\(first)/bought", []).status == .seeOther)
            #expect(try await keeper.post("/reservations/\(first)/card", [("message", "Not yet, Maren!")]).status == .seeOther)
            #expect(try await keeper.post("/people/maren-7q/ideas", [("book", books[6]), ("note", "A surprise for Maren")]).status == .seeOther)
            let idea = try await database.pool.read { try Int64.fetchOne($0, sql: "SELECT id FROM gift_idea WHERE note = 'A surprise for Maren'")! }
            #expect(try await keeper.post("/people/maren-7q/ideas/\(idea)/reserve", []).status == .seeOther)

            let after = try await Self.download(&maren)
            #expect(after.dataWithoutTime == before.dataWithoutTime)
            #expect(after.files["wishlist.csv"] == before.files["wishlist.csv"])
            #expect(!after.dataText.contains("Not yet, Maren!") && !after.dataText.contains("A surprise for Maren"))
        }
    }

    @Test func aMemberWithoutAPictureGetsNoPictureFile() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.signUp("plain-member")
            let download = try await Self.download(&browser)
            #expect(Set(download.files.keys) == ["data.json", "wishlist.csv"])
            #expect((download.json["profile"] as? [String: Any])?["picture"] == nil)
            #expect((download.json["wishlist"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func signedOutThereIsNothingToDownload() async throws {
        try await TestApp.run(try await TestApp.build()) { browser in
            try await browser.get("/login")
            let refused = try await browser.post("/settings/export", [])
            #expect(refused.status == .seeOther && refused.location?.hasPrefix("/login") == true)
            #expect(refused.headers[.contentType] != "application/zip")
            #expect(try await browser.post("/settings/export", [("csrf_token", "forged")]).status == .forbidden)
        }
    }
}
