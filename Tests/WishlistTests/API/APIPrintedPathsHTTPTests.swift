import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 55: the paths the API answers with, in `Location` after a write and in the `Link`s of a
/// paged read, are printed from the route table (``SitePath``), so each is one the table routes.
@Suite("API: printed paths", .removesTemporaryDirectories)
struct APIPrintedPathsHTTPTests {
    @Test func everyLocationAndLinkTheAPIAnswersIsARouteOfTheTable() async throws {
        let home = try await Household.make()
        let bookIDs = try await home.bookIDs()
        let printed = try await home.run { maya, ana, _ in
            let anas = try await APITokensHTTPTests.token(&ana, scope: "read-write")
            let mayas = try await APITokensHTTPTests.token(&maya, scope: "read")
            let person = try APIReadsHTTPTests.object(try await APITokensHTTPTests.api(ana, "/api/v1/people/maya", anas))
            let list = try #require(((person["lists"] as? [[String: Any]])?.first?["id"] as? NSNumber)?.int64Value)
            let answers = [
                try await APITokensHTTPTests.api(ana, "/api/v1/wants", anas, method: .post, json: #"{"book_id": "\#(bookIDs[0])"}"#),
                try await APITokensHTTPTests.api(ana, "/api/v1/wants", anas),
                try await APITokensHTTPTests.api(ana, "/api/v1/lists", anas, method: .post, json: #"{"name": "Birthday"}"#),
                try await APITokensHTTPTests.api(ana, "/api/v1/readings", anas, method: .post, json: #"{"book_id": "\#(bookIDs[1])", "rating": 4}"#),
                try await APITokensHTTPTests.api(ana, "/api/v1/readings", anas),
                try await APITokensHTTPTests.api(ana, "/api/v1/reservations", anas, method: .post, json: #"{"want_id": \#(home.itemIDs[0])}"#),
                try await APITokensHTTPTests.api(ana, "/api/v1/people", anas),
                try await APITokensHTTPTests.api(ana, "/api/v1/people/maya/wants", anas),
                try await APITokensHTTPTests.api(ana, "/api/v1/people/maya/wants?list=\(list)", anas),
                try await APITokensHTTPTests.api(maya, "/api/v1/catalog/search?q=the%20a%2Fb", mayas),
            ]
            for answer in answers { #expect(answer.status == .ok || answer.status == .created, "\(answer.status)") }
            return answers.flatMap(Self.printedPaths)
        }
        #expect(printed.filter { !$0.contains("page=") }.count == 4, "a Location after each of the four writes: \(printed)")
        #expect(printed.count == 4 + 6 * 2, "a first and a last page for each of the six reads: \(printed)")
        let unrouted = try await Self.unrouted(printed)
        #expect(unrouted.isEmpty, "paths the API printed that no route of the table answers: \(unrouted)")
    }

    /// The `Location` and every `<…>` of the `Link` header a response carries.
    static func printedPaths(_ response: TestResponse) -> [String] {
        let links = (response.headers[APIResponse.linkHeader] ?? "").matches(of: /<([^>]*)>/).map { String($0.1) }
        return (response.headers[.location].map { [$0] } ?? []) + links
    }

    /// The paths, their queries left out, that match none of the table's patterns.
    static func unrouted(_ paths: [String]) async throws -> [String] {
        let router = Router()
        for pattern in Set(Route.all.map(\.pattern)) {
            router.get(RouterPath(pattern)) { _, _ in pattern }
        }
        return try await Application(router: router).test(.router) { client in
            var unrouted: [String] = []
            for path in paths {
                let response = try await client.execute(uri: String(path.prefix { $0 != "?" }), method: .get)
                if response.status != .ok { unrouted.append(path) }
            }
            return unrouted
        }
    }
}
