import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 54: the API's reads: paging with `Link` headers, `ETag` and 304, problem+json for bad
/// input, and what a giver sees of a member's lists.
@Suite("API: reads", .removesTemporaryDirectories)
struct APIReadsHTTPTests {
    @Test func myWantsComeAHundredAPageWithLinksToTheOthers() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let ids = try await LongWishlistHTTPTests.fill(server, "maya", count: 201)
            let token = try await APITokensHTTPTests.token(&maya, scope: "read")
            let first = try await APITokensHTTPTests.api(maya, "/api/v1/wants", token)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "application/json")
            #expect(first.headers[APIResponse.linkHeader] == #"</api/v1/wants?page=1>; rel="first", </api/v1/wants?page=3>; rel="last", </api/v1/wants?page=2>; rel="next""#)
            let middle = try await APITokensHTTPTests.api(maya, "/api/v1/wants?page=2", token)
            #expect(middle.headers[APIResponse.linkHeader]?.contains(#"</api/v1/wants?page=1>; rel="prev""#) == true)
            #expect(middle.headers[APIResponse.linkHeader]?.contains(#"</api/v1/wants?page=3>; rel="next""#) == true)
            var seen: [Int64] = []
            for page in 1...3 {
                let object = try Self.object(try await APITokensHTTPTests.api(maya, "/api/v1/wants?page=\(page)", token))
                #expect(object["total"] as? Int == 201 && object["page"] as? Int == page && object["pages"] as? Int == 3)
                seen += (object["wants"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.int64Value }
            }
            #expect(seen.count == 201 && Set(seen) == Set(ids), "every want on exactly one page")
            for bad in ["0", "-1", "x", "1e3"] {
                let refused = try await APITokensHTTPTests.api(maya, "/api/v1/wants?page=\(bad)", token)
                #expect(refused.status == .badRequest, "\(bad)")
                try APITokensHTTPTests.expectProblem(refused, status: 400)
            }
        }
    }

    @Test func aReadCarriesAnETagAndAnswers304WhileNothingChanged() async throws {
        let server = try await TestApp.build()
        let book = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1[0].book
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let token = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            let first = try await APITokensHTTPTests.api(maya, "/api/v1/wants", token)
            let tag = try #require(first.headers[.eTag])
            let again = try await APITokensHTTPTests.api(maya, "/api/v1/wants", token, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            #expect(again.headers[.eTag] == tag)
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/wants", token, headers: [.ifNoneMatch: #""other", \#(tag)"#]).status == .notModified)
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/wants", token, method: .post, json: #"{"book_id": "\#(book.id)"}"#).status == .created)
            let changed = try await APITokensHTTPTests.api(maya, "/api/v1/wants", token, headers: [.ifNoneMatch: tag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != tag)
        }
    }

    @Test func badInputIsA4xxProblemNeverA500() async throws {
        let server = try await TestApp.build()
        let book = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1[0].book
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let token = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            let cases: [(String, HTTPRequest.Method, String?, Int)] = [
                ("/api/v1/wants", .post, "{not json", 400),
                ("/api/v1/wants", .post, "[]", 400),
                ("/api/v1/wants", .post, #"{"book_id": 5}"#, 400),
                ("/api/v1/wants", .post, #"{}"#, 400),
                ("/api/v1/wants", .post, #"{"book_id": "nope"}"#, 422),
                ("/api/v1/wants", .post, #"{"book_id": "\#(book.id)", "list": 999}"#, 422),
                ("/api/v1/wants/abc", .get, nil, 404),
                ("/api/v1/wants/0", .delete, nil, 404),
                ("/api/v1/catalog/books/nope", .get, nil, 404),
                ("/api/v1/catalog/lists/nope", .get, nil, 404),
                ("/api/v1/people/nobody", .get, nil, 404),
                ("/api/v1/people/nobody/wants?list=x", .get, nil, 400),
            ]
            for (path, method, json, status) in cases {
                let response = try await APITokensHTTPTests.api(maya, path, token, method: method, json: json)
                #expect(response.status.code == status, "\(method) \(path) \(json ?? "")")
                try APITokensHTTPTests.expectProblem(response, status: status)
            }
            let added = try await APITokensHTTPTests.api(maya, "/api/v1/wants", token, method: .post, json: #"{"book_id": "\#(book.id)"}"#)
            let location = try #require(added.location)
            for (json, status) in [(#"{"priority": "urgent"}"#, 422), (#"{"note": 3}"#, 400), (#"{"note": "\#(String(repeating: "x", count: 2001))"}"#, 422)] {
                let response = try await APITokensHTTPTests.api(maya, location, token, method: .patch, json: json)
                #expect(response.status.code == status, "\(json.prefix(30))")
                try APITokensHTTPTests.expectProblem(response, status: status)
            }
            let saved = try Self.object(try await APITokensHTTPTests.api(maya, location, token, method: .patch, json: #"{"note": "Hardback", "priority": "high"}"#))
            #expect(saved["note"] as? String == "Hardback" && saved["priority"] as? String == "high")
        }
    }

    @Test func aGiverSeesHerOwnPartOfEachReservationAndPrivateListsStayPrivate() async throws {
        let home = try await Household.make()
        try await home.run(sharing: [.maya, .ana]) { maya, ana, ben in
            #expect(try await ana.reserve(home.itemIDs[0]).status == .seeOther)
            #expect(try await ben.reserve(home.itemIDs[1]).status == .seeOther)
            let anas = try await APITokensHTTPTests.token(&ana, scope: "read")
            let wants = try Self.object(try await APITokensHTTPTests.api(ana, "/api/v1/people/maya/wants", anas))
            let states = Dictionary(uniqueKeysWithValues: (wants["wants"] as? [[String: Any]] ?? []).map { (($0["id"] as? NSNumber)?.int64Value ?? 0, $0) })
            #expect(states[home.itemIDs[0]]?["reservation"] as? String == "yours")
            #expect(states[home.itemIDs[1]]?["reservation"] as? String == "taken")
            #expect(states[home.itemIDs[1]]?["reserved_by"] as? String == "ben")
            #expect(states[home.itemIDs[2]]?["reservation"] as? String == "open")
            let person = try Self.object(try await APITokensHTTPTests.api(ana, "/api/v1/people/maya", anas))
            #expect((person["lists"] as? [[String: Any]])?.count == 1)
            let people = try Self.object(try await APITokensHTTPTests.api(ana, "/api/v1/people", anas))
            #expect((people["people"] as? [[String: Any]])?.compactMap { $0["username"] as? String } == ["maya"], "Ben does not share")
            let bens = try await APITokensHTTPTests.token(&ben, scope: "read")
            let nobody = try await APITokensHTTPTests.api(ben, "/api/v1/people/nobody", bens)
            for path in ["/api/v1/people/ben", "/api/v1/people/ben/wants"] {
                #expect(try await APITokensHTTPTests.api(ana, path, anas).body == nobody.body, "a member who does not share")
            }
            let mayas = try await APITokensHTTPTests.token(&maya, scope: "read")
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/people/maya/wants", mayas).body == nobody.body, "her own reservations: never")
            #expect(try await APITokensHTTPTests.api(ana, "/api/v1/people/maya/wants?list=999", anas).body == nobody.body, "a list that is not hers")
            let lists = try Self.object(try await APITokensHTTPTests.api(maya, "/api/v1/lists", mayas))
            #expect((lists["lists"] as? [[String: Any]])?.first?["is_default"] as? Bool == true)
            let catalog = try Self.object(try await APITokensHTTPTests.api(maya, "/api/v1/catalog/lists/hardcover-fiction", mayas))
            #expect((catalog["books"] as? [[String: Any]])?.isEmpty == false)
        }
    }

    @Test func theDescriptionAndThePageNeedNoTokenAndNameEveryRouteThatAnswers() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let token = try await APITokensHTTPTests.token(&maya, scope: "read")
            var guest = TestBrowser(client: maya.client)
            let page = try await guest.get("/api/v1")
            #expect(page.status == .ok)
            #expect(page.text.contains(#"href="/api/v1/openapi.json""#) && page.text.contains(#"href="/settings/api-tokens""#))
            let described = try await guest.get("/api/v1/openapi.json")
            #expect(described.status == .ok)
            #expect(described.headers[.contentType] == "application/json")
            #expect(described.body == ByteBuffer(bytes: try Data(contentsOf: repositoryRoot.appendingPathComponent("Public/openapi.json"))), "served as it is")
            let tag = try #require(described.headers[.eTag])
            #expect(try await guest.get("/api/v1/openapi.json", headers: [.ifNoneMatch: tag]).status == .notModified)
            let document = try Self.object(described)
            #expect(document["openapi"] as? String == "3.1.0")
            // Every path it names answers a read token's GET, with the parameters filled in.
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            #expect(paths.count >= 11)
            for path in paths.keys.sorted() where paths[path]?["get"] != nil {
                let filled = path.replacing("{id}", with: "1").replacing("{name}", with: "hardcover-fiction").replacing("{username}", with: "nobody")
                let response = try await APITokensHTTPTests.api(maya, "/api/v1" + filled, token)
                #expect(response.status == .ok || (response.status == .notFound && (path.contains("{id}") || path.contains("{username}"))), "\(path): \(response.status)")
                #expect(response.headers[.contentType]?.hasPrefix("application/") == true)
            }
        }
    }

    @Test func aGiverReservesAndCancelsThroughTheAPIAndTheOwnersPagesDoNotChange() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, ben in
            let anas = try await APITokensHTTPTests.token(&ana, scope: "read-write")
            let bens = try await APITokensHTTPTests.token(&ben, scope: "read-write")
            let mayas = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            let item = home.itemIDs[0]
            let body = #"{"want_id": \#(item)}"#
            let herPage = try await maya.get("/wishlist")
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/reservations", mayas, method: .post, json: body).status == .notFound, "not her own")
            #expect(try await APITokensHTTPTests.api(ana, "/api/v1/reservations", anas, method: .post, json: body).status == .created)
            #expect(try await APITokensHTTPTests.api(ana, "/api/v1/reservations", anas, method: .post, json: body).status == .ok)
            let taken = try await APITokensHTTPTests.api(ben, "/api/v1/reservations", bens, method: .post, json: body)
            #expect(taken.status == .conflict)
            try APITokensHTTPTests.expectProblem(taken, status: 409)
            #expect(try await home.reservationCount() == 1)
            #expect(try await ana.get("/reservations").shows(home.titles[0]), "on her Gifts I'm giving page")
            let gifts = try Self.object(try await APITokensHTTPTests.api(ana, "/api/v1/reservations", anas))
            let gift = try #require((gifts["reservations"] as? [[String: Any]])?.first)
            #expect((gift["want_id"] as? NSNumber)?.int64Value == item && gift["state"] as? String == "reserved" && gift["owner"] as? String == "maya")
            #expect(try await maya.get("/wishlist").body == herPage.body, "her page says nothing")
            #expect(try await APITokensHTTPTests.api(ben, "/api/v1/reservations/\(item)", bens, method: .delete).status == .notFound, "not Ben's")
            #expect(try await APITokensHTTPTests.api(ana, "/api/v1/reservations/\(item)", anas, method: .delete).status == .noContent)
            #expect(try await home.reservationCount() == 0)
        }
    }

    static func object(_ response: TestResponse) throws -> [String: Any] {
        #expect(response.status == .ok || response.status == .created)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }
}
