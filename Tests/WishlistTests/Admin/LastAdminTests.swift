import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
@testable import WishlistCore
@testable import WishlistWeb

/// Issue 27: deleting one's own account in Settings, `wishlist user delete`, and two admins
/// deleting each other at once all left the server without an admin. The rule is checked in the
/// write transaction that makes the change.
@Suite("Admin: the server always keeps an admin", .removesTemporaryDirectories)
struct LastAdminTests {
    static func activeAdmins(_ server: WishlistServer) async throws -> Int {
        try await server.database.pool.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM user WHERE is_admin AND disabled_at IS NULL") ?? 0
        }
    }

    @Test func theLastAdminCannotDeleteTheirOwnAccountInSettings() async throws {
        try await AdminHTTPTests.withAdmin { server, root, _ in
            let refused = try await root.post("/settings/delete-account", [("password", "correct horse battery")])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("You are the only admin, so your account can’t be deleted"))
            #expect(try await Self.activeAdmins(server) == 1)
            #expect(try await root.get("/admin").status == .ok, "still signed in, still an admin")
        }
    }

    @Test func theCommandLineCannotDeleteTheLastAdminButCanOnceThereIsAnother() async throws {
        try await AdminHTTPTests.withAdmin { server, _, _ in
            await #expect(throws: AccountService.AdminError.self) { try await server.accounts.deleteUser(username: "root") }
            #expect(try await Self.activeAdmins(server) == 1)
            try await Administration(database: server.database, clock: .system).setAdmin(true, username: "bob")
            try await server.accounts.deleteUser(username: "root")
            #expect(try await Self.activeAdmins(server) == 1, "bob is the admin now")
        }
    }

    @Test func twoAdminsDeletingEachOtherAtOnceLeaveOne() async throws {
        try await AdminHTTPTests.withAdmin { server, _, _ in
            let administration = Administration(database: server.database, clock: .system)
            try await administration.setAdmin(true, username: "bob")
            let root = Administration.Actor(userID: try await AdminHTTPTests.userID("root", server), username: "root")
            let bob = Administration.Actor(userID: try await AdminHTTPTests.userID("bob", server), username: "bob")
            let first = Task { try await administration.delete(userID: bob.userID, by: root) }
            let second = Task { try await administration.delete(userID: root.userID, by: bob) }
            let outcomes = [await first.result, await second.result]
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1, "exactly one deletion wins")
            #expect(outcomes.contains { if case .failure(let error) = $0 { error as? Administration.Refusal == .noLongerAdmin } else { false } })
            #expect(try await Self.activeAdmins(server) == 1)
        }
    }

    @Test func twoAdminsDisablingEachOtherAtOnceLeaveOne() async throws {
        try await AdminHTTPTests.withAdmin { server, _, _ in
            let administration = Administration(database: server.database, clock: .system)
            try await administration.setAdmin(true, username: "bob")
            let root = Administration.Actor(userID: try await AdminHTTPTests.userID("root", server), username: "root")
            let bob = Administration.Actor(userID: try await AdminHTTPTests.userID("bob", server), username: "bob")
            let first = Task { try await administration.setDisabled(true, userID: bob.userID, by: root) }
            let second = Task { try await administration.setDisabled(true, userID: root.userID, by: bob) }
            let outcomes = [await first.result, await second.result]
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1, "exactly one wins")
            #expect(try await Self.activeAdmins(server) == 1)
        }
    }

    @Test func anAdminDemotedMeanwhileChangesNothingThroughThePage() async throws {
        try await AdminHTTPTests.withAdmin { server, root, _ in
            let administration = Administration(database: server.database, clock: .system)
            try await administration.setAdmin(true, username: "bob")
            let bobID = try await AdminHTTPTests.userID("bob", server)
            try await root.get("/admin")
            try await administration.setAdmin(false, username: "root")
            // Root's session still says admin until it is read again; the write checks anew.
            let refused = try await root.post("/admin/users/\(bobID)/delete", [])
            #expect(refused.status == .notFound || refused.status == .forbidden)
            #expect(try await AdminHTTPTests.userID("bob", server) == bobID, "bob is still there")
        }
    }
}
