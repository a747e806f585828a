import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 54, part 2: her lists through the API: made, changed and deleted by the list form's
/// rules, a want put on exactly the lists she names, and a private list private in every other
/// member's answers.
@Suite("API: my lists", .removesTemporaryDirectories)
struct APIListsHTTPTests {
    @Test func aPrivateListMadeThroughTheAPIStaysOutOfEveryOtherMembersAnswers() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            let mayas = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            let anas = try await APITokensHTTPTests.token(&ana, scope: "read")
            let made = try await APITokensHTTPTests.api(maya, "/api/v1/lists", mayas, method: .post, json: #"{"name": "Birthday", "occasion": "birthday", "visibility": "private"}"#)
            #expect(made.status == .created)
            let list = try APIReadsHTTPTests.object(made)
            let listID = try #require((list["id"] as? NSNumber)?.int64Value)
            #expect(made.location == "/api/v1/lists/\(listID)")
            #expect(list["visibility"] as? String == "private" && list["occasion"] as? String == "birthday" && list["is_default"] as? Bool == false)
            let item = home.itemIDs[0]
            let placed = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(maya, "/api/v1/wants/\(item)/lists", mayas, method: .put, json: #"{"lists": [\#(listID)]}"#))
            #expect((placed["lists"] as? [NSNumber])?.map(\.int64Value) == [listID], "moved off the default list")

            let nobody = try await APITokensHTTPTests.api(ana, "/api/v1/people/nobody", anas)
            let person = try await APITokensHTTPTests.api(ana, "/api/v1/people/maya", anas)
            let herLists = try APIReadsHTTPTests.object(person)["lists"] as? [Any]
            #expect(!person.text.contains("Birthday") && herLists?.count == 1)
            let wants = try await APITokensHTTPTests.api(ana, "/api/v1/people/maya/wants", anas)
            #expect(!wants.text.contains(home.titles[0]) && wants.text.contains(home.titles[1]))
            #expect(try await APITokensHTTPTests.api(ana, "/api/v1/people/maya/wants?list=\(listID)", anas).body == nobody.body)
            let anasWriter = try await APITokensHTTPTests.token(&ana, scope: "read-write")
            #expect(try await APITokensHTTPTests.api(ana, "/api/v1/reservations", anasWriter, method: .post, json: #"{"want_id": \#(item)}"#).status == .notFound)
            #expect(!(try await ana.get("/people/maya")).shows(home.titles[0]), "nor on her page")

            let shared = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(maya, "/api/v1/lists/\(listID)", mayas, method: .patch, json: #"{"visibility": "household"}"#))
            #expect(shared["visibility"] as? String == "household" && shared["name"] as? String == "Birthday")
            #expect(try await APITokensHTTPTests.api(ana, "/api/v1/people/maya/wants?list=\(listID)", anas).text.contains(home.titles[0]))
        }
    }

    @Test func badListsAndPlacementsAreRefusedWithTheFormsWords() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            let reader = try await APITokensHTTPTests.token(&maya, scope: "read")
            let writer = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            let anas = try await APITokensHTTPTests.token(&ana, scope: "read-write")
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/lists", reader, method: .post, json: #"{"name": "Someday"}"#).status == .forbidden)
            let cases: [(String, Int, String?)] = [
                (#"{"name": 3}"#, 400, nil),
                ("[]", 400, nil),
                (#"{"name": " "}"#, 422, "Give the list a name, such as Birthday or Someday."),
                (#"{"name": "\#(String(repeating: "x", count: 61))"}"#, 422, "A list’s name can be up to 60 characters."),
                (#"{"name": "Party", "occasion": "date"}"#, 422, "Give the day of the occasion as a date, such as 2027-03-12."),
                (#"{"name": "Party", "occasion": "wedding"}"#, 422, "Choose no occasion, your birthday, Christmas or a date."),
                (#"{"name": "Party", "visibility": "everyone"}"#, 422, "Choose who sees the list: the household, or only you."),
            ]
            for (json, status, words) in cases {
                let response = try await APITokensHTTPTests.api(maya, "/api/v1/lists", writer, method: .post, json: json)
                #expect(response.status.code == status, "\(json.prefix(40))")
                try APITokensHTTPTests.expectProblem(response, status: status)
                if let words { #expect(response.text.contains(words), "\(json.prefix(40))") }
            }
            let lists = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(maya, "/api/v1/lists", reader))
            let defaultID = try #require(((lists["lists"] as? [[String: Any]])?.first?["id"] as? NSNumber)?.int64Value)
            #expect((lists["lists"] as? [Any])?.count == 1, "nothing refused was made")
            let item = home.itemIDs[0]
            for (json, status) in [(#"{"lists": []}"#, 422), (#"{"lists": [0]}"#, 422), (#"{"lists": [999999]}"#, 404), (#"{"lists": "1"}"#, 400)] {
                let response = try await APITokensHTTPTests.api(maya, "/api/v1/wants/\(item)/lists", writer, method: .put, json: json)
                #expect(response.status.code == status, "\(json)")
                try APITokensHTTPTests.expectProblem(response, status: status)
            }
            let missing = try await APITokensHTTPTests.api(maya, "/api/v1/lists/999999", writer, method: .patch, json: #"{"name": "x"}"#)
            #expect(missing.status == .notFound)
            for (path, method, json) in [
                ("/api/v1/wants/\(item)/lists", HTTPRequest.Method.put, #"{"lists": [\#(defaultID)]}"#),
                ("/api/v1/lists/\(defaultID)", .patch, #"{"name": "Mine now"}"#),
                ("/api/v1/lists/\(defaultID)", .delete, nil),
            ] {
                let response = try await APITokensHTTPTests.api(ana, path, anas, method: method, json: json)
                #expect(response.status == .notFound, "Ana: \(method) \(path)")
                try APITokensHTTPTests.expectProblem(response, status: 404)
            }
            let kept = try await APITokensHTTPTests.api(maya, "/api/v1/lists/\(defaultID)", writer, method: .delete)
            #expect(kept.status == .conflict)
            try APITokensHTTPTests.expectProblem(kept, status: 409)
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/lists/\(defaultID)?delete_wants=maybe", writer, method: .delete).status == .badRequest)
        }
    }

    @Test func deletingAListKeepsItsWantsOnTheDefaultListUnlessDeleteWants() async throws {
        let home = try await Household.make()
        try await home.run { maya, _, _ in
            let token = try await APITokensHTTPTests.token(&maya, scope: "read-write")
            var ids: [Int64] = []
            for name in ["Birthday", "Someday"] {
                let list = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(maya, "/api/v1/lists", token, method: .post, json: #"{"name": "\#(name)"}"#))
                ids.append(try #require((list["id"] as? NSNumber)?.int64Value))
            }
            for (item, list) in zip(home.itemIDs, ids) {
                #expect(try await APITokensHTTPTests.api(maya, "/api/v1/wants/\(item)/lists", token, method: .put, json: #"{"lists": [\#(list)]}"#).status == .ok)
            }
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/lists/\(ids[0])", token, method: .delete).status == .noContent)
            let back = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(maya, "/api/v1/wants/\(home.itemIDs[0])", token))
            let lists = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(maya, "/api/v1/lists", token))
            let defaultID = ((lists["lists"] as? [[String: Any]])?.first { $0["is_default"] as? Bool == true }?["id"] as? NSNumber)?.int64Value
            #expect((back["lists"] as? [NSNumber])?.map(\.int64Value) == defaultID.map { [$0] }, "back on the default list")
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/lists/\(ids[1])?delete_wants=true", token, method: .delete).status == .noContent)
            #expect(try await home.itemCount(owner: "maya") == 2, "the want only on Someday went with it")
            #expect(try await APITokensHTTPTests.api(maya, "/api/v1/lists/\(ids[1])", token, method: .delete).status == .notFound)
        }
    }
}
