import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 54, part 2: "my reading" and catalog search through the API, with the stores and rules
/// the pages use, and every way they refuse.
@Suite("API: reading and search", .removesTemporaryDirectories)
struct APIReadingHTTPTests {
    @Test func aReadingIsRecordedChangedAndForgottenAsTheFormDoesIt() async throws {
        let server = try await TestApp.build()
        let book = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1[0].book
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let token = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/wants", token, method: .post, json: #"{"book_id": "\#(book.id)"}"#).status == .created)
            let body = #"{"book_id": "\#(book.id)", "rating": 4, "finished_on": "2026-03-14", "review": " Gripping. ", "remove_from_wishlist": true}"#
            let made = try await APITokensHTTPTests.api(maya, "/api/v1/readings", token, method: .post, json: body)
            #expect(made.status == .created)
            #expect(made.location == "/api/v1/readings/\(book.id)")
            let reading = try APIReadsHTTPTests.object(made)
            #expect(reading["rating"] as? Int == 4 && reading["finished_on"] as? String == "2026-03-14" && reading["review"] as? String == "Gripping.")
            #expect(try await maya.get("/books/\(book.id)/reading").text.contains("Gripping."), "the form shows it")
            #expect(try await ReadingStore(database: server.database).reading(bookID: book.id, userID: AdminHTTPTests.userID("maya", server))?.rating == 4)
            #expect(!(try await maya.get("/wishlist")).shows(book.title), "off her wishlist, as the form's tick does")

            let changed = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(maya, made.location!, token, method: .patch, json: #"{"rating": null, "review": "Better the second time."}"#))
            #expect(changed["rating"] == nil && changed["finished_on"] as? String == "2026-03-14" && changed["review"] as? String == "Better the second time.")
            let again = try await APITokensHTTPTests.api(maya, "/api/v1/readings", token, method: .post, json: #"{"book_id": "\#(book.id)", "rating": 5}"#)
            #expect(again.status == .ok, "a second time replaces the first")
            let listed = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(maya, "/api/v1/readings", token))
            let only = try #require((listed["readings"] as? [[String: Any]])?.first)
            #expect(listed["total"] as? Int == 1 && only["book_id"] as? String == book.id && only["rating"] as? Int == 5 && only["finished_on"] == nil)

            #expect(try await APITokensHTTPTests.api(maya, made.location!, token, method: .delete).status == .noContent)
            let gone = try await APITokensHTTPTests.api(maya, made.location!, token, method: .delete)
            #expect(gone.status == .notFound)
            try APITokensHTTPTests.expectProblem(gone, status: 404)
            #expect(try await ReadingStore(database: server.database).reading(bookID: book.id, userID: AdminHTTPTests.userID("maya", server)) == nil)
        }
    }

    @Test func aBadReadingIsRefusedWithTheFormsOwnWords() async throws {
        let server = try await TestApp.build()
        let book = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1[0].book
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let reader = try await APITokensHTTPTests.token(&maya, scope: "read")
            let writer = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            let good = #"{"book_id": "\#(book.id)"}"#
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/readings", reader, method: .post, json: good).status == .forbidden)
            let long = String(repeating: "x", count: ReadingInput.reviewMaximumLength + 1)
            let cases: [(String, Int, String?)] = [
                (#"{"rating": 4}"#, 400, nil),
                (#"{"book_id": 7}"#, 400, nil),
                (#"{"book_id": "nope"}"#, 422, nil),
                (#"{"book_id": "\#(book.id)", "rating": 6}"#, 422, "Choose from one to five stars, or no rating."),
                (#"{"book_id": "\#(book.id)", "rating": 0}"#, 422, "Choose from one to five stars, or no rating."),
                (#"{"book_id": "\#(book.id)", "finished_on": "2999-01-01"}"#, 422, "The date you finished can’t be in the future."),
                (#"{"book_id": "\#(book.id)", "finished_on": "14/03/2026"}"#, 422, "Give the date you finished as year, month and day"),
                (#"{"book_id": "\#(book.id)", "review": "\#(long)"}"#, 422, "Reviews can be up to 5,000 characters; this one has 5,001."),
            ]
            for (json, status, words) in cases {
                let response = try await APITokensHTTPTests.api(maya, "/api/v1/readings", writer, method: .post, json: json)
                #expect(response.status.code == status, "\(json.prefix(60))")
                try APITokensHTTPTests.expectProblem(response, status: status)
                if let words { #expect(response.text.contains(words), "\(json.prefix(60))") }
            }
            #expect(try await ReadingStore(database: server.database).readings(userID: AdminHTTPTests.userID("maya", server), sort: .finished).isEmpty)
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/readings", writer, method: .post, json: good).status == .created)
            for (json, status) in [(#"{"rating": 9}"#, 422), (#"{"finished_on": "2026-02-30"}"#, 422), (#"{"review": 3}"#, 400), ("[]", 400)] {
                let response = try await APITokensHTTPTests.api(maya, "/api/v1/readings/\(book.id)", writer, method: .patch, json: json)
                #expect(response.status.code == status, "\(json)")
                try APITokensHTTPTests.expectProblem(response, status: status)
            }
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/readings/\(book.id)", reader, method: .delete).status == .forbidden)
        }
    }

    @Test func anotherMembersReadingIsAsUnknownAsOneNeverRecorded() async throws {
        let server = try await TestApp.build()
        let book = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1[0].book
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            var ana = TestBrowser(client: maya.client)
            try await ana.signUp("ana")
            let mayas = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            let anas = try await APITokensHTTPTests.token(&ana, scope: "read-write")
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/readings", mayas, method: .post, json: #"{"book_id": "\#(book.id)", "rating": 3}"#).status == .created)
            let never = try await APITokensHTTPTests.api(ana, "/api/v1/readings/nope", anas, method: .delete)
            #expect(never.status == .notFound)
            for method: HTTPRequest.Method in [.patch, .delete] {
                let response = try await APITokensHTTPTests.api(ana, "/api/v1/readings/\(book.id)", anas, method: method, json: method == .patch ? #"{"rating": 1}"# : nil)
                #expect(response.status == .notFound && response.body == never.body, "\(method)")
            }
            let anasList = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(ana, "/api/v1/readings", anas))
            #expect(anasList["total"] as? Int == 0)
            #expect(try await ReadingStore(database: server.database).reading(bookID: book.id, userID: AdminHTTPTests.userID("maya", server))?.rating == 3)
        }
    }

    @Test func searchFindsWhatTheSearchPageFindsAndItsLinksKeepTheQuery() async throws {
        let server = try await TestApp.build()
        let book = try await CatalogStore(database: server.database).list(named: "hardcover-fiction")!.1[0].book
        try await TestApp.run(server) { maya in
            try await maya.signUp("maya")
            let token = try await APITokensHTTPTests.token(&maya, scope: "read")
            let words = book.title.split(separator: " ").filter { $0.count >= 4 && $0.allSatisfy { $0.isASCII && $0.isLetter } }
            let query = String(try #require(words.first))
            let response = try await APITokensHTTPTests.api(maya, "/api/v1/catalog/search?q=\(query)", token)
            let found = try APIReadsHTTPTests.object(response)
            let ids = (found["books"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            let pages = try await CatalogStore(database: server.database).search(query)
            #expect(!ids.isEmpty && Set(ids) == Set(pages.map(\.id)), "the same FTS")
            #expect(ids.contains(book.id))
            #expect(response.headers[APIResponse.linkHeader] == #"</api/v1/catalog/search?q=\#(query)&page=1>; rel="first", </api/v1/catalog/search?q=\#(query)&page=1>; rel="last""#)
            let nothing = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(maya, "/api/v1/catalog/search", token))
            #expect(nothing["total"] as? Int == 0 && nothing["pages"] as? Int == 1, "no words find nothing, as the page")
            for bad in ["/api/v1/catalog/search?q=" + String(repeating: "a", count: 201), "/api/v1/catalog/search?q=x&page=0"] {
                let refused = try await APITokensHTTPTests.api(maya, bad, token)
                #expect(refused.status == .badRequest, "\(bad.suffix(20))")
                try APITokensHTTPTests.expectProblem(refused, status: 400)
            }
        }
    }
}
