import Foundation
import GRDB
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Children's profiles: no way to sign in, a name no sign-up can take (issue 51)", .removesTemporaryDirectories)
struct ChildProfileTests {
    static func child(_ server: WishlistServer, _ name: String, managedBy manager: UserID) async throws -> ChildProfile {
        try await Children(database: server.database, clock: .system).create(name: name, birthday: Birthday(month: 2, day: 29), managerID: manager).get()
    }

    @Test func aChildsUsernameComesFromHerNameAndNoSignUpCanAskForIt() async throws {
        let server = try await TestApp.build()
        let mum = try await server.accounts.createUser(username: "mum", password: "correct horse battery")
        #expect(try await Self.child(server, "Zoë", managedBy: mum.id).username == "~zoe")
        #expect(try await Self.child(server, "zoe", managedBy: mum.id).username == "~zoe2", "unique in any letter case")
        #expect(try await Self.child(server, "李", managedBy: mum.id).username == "~child", "a name with no Latin letters")
        #expect(AccountRules.usernameProblem("~zoe") != nil, "sign-up, single sign-on and the trusted header refuse `~`")
        let outcome = try await server.accounts.signIn(trustedUsername: "~zoe", signup: true)
        #expect(outcome == .invalidName(.usernameCharacters))
    }

    @Test func aChildIsRefusedAPasswordSignInAndASessionWhateverHerRowHolds() async throws {
        let server = try await TestApp.build()
        let mum = try await server.accounts.createUser(username: "mum", password: "correct horse battery")
        let child = try await Self.child(server, "Bea", managedBy: mum.id)
        // Even a usable hash on her row (a bug elsewhere, a hand edit) opens nothing.
        let hash = try await server.database.pool.read { try String.fetchOne($0, sql: "SELECT password_hash FROM user WHERE id = ?", arguments: [mum.id]) }
        try await server.database.pool.write { try $0.execute(sql: "UPDATE user SET password_hash = ? WHERE id = ?", arguments: [hash, child.id]) }
        #expect(try await server.accounts.signIn(username: "~bea", password: "correct horse battery", address: "127.0.0.1", userAgent: "laptop") == .rejected)
        await #expect(throws: DatabaseError.self) { _ = try await server.accounts.sessions.create(userID: child.id, userAgent: "laptop") }
        await #expect(throws: DatabaseError.self) {
            try await server.database.pool.write { db in
                try db.execute(
                    sql: "INSERT INTO sign_in_identity (user_id, issuer, subject, created_at) VALUES (?, 'https://id.example', 'bea', '2026-01-01 00:00:00.000')",
                    arguments: [child.id]
                )
            }
        }
    }

    @Test func theCreatorManagesHerAndTheLastManagerStays() async throws {
        let server = try await TestApp.build()
        let children = Children(database: server.database, clock: .system)
        let mum = try await server.accounts.createUser(username: "mum", password: "correct horse battery")
        let dad = try await server.accounts.createUser(username: "dad", password: "correct horse battery")
        let gran = try await server.accounts.createUser(username: "gran", password: "correct horse battery")
        let child = try await Self.child(server, "Bea", managedBy: mum.id)
        #expect(child.managers.map(\.username) == ["mum"])
        #expect(try await children.addManager(childID: child.id, username: "dad", actorID: gran.id) == .failure(.notManager))
        #expect(try await children.addManager(childID: child.id, username: "~bea", actorID: mum.id) == .failure(.unknownMember))
        #expect(try await children.addManager(childID: child.id, username: "dad", actorID: mum.id).get().managers.map(\.username) == ["dad", "mum"])
        #expect(try await children.removeManager(childID: child.id, managerID: mum.id, actorID: mum.id).get().managers.map(\.username) == ["dad"])
        #expect(try await children.removeManager(childID: child.id, managerID: dad.id, actorID: dad.id) == .failure(.lastManager))
        #expect(try await children.isManager(dad.id, of: child.id))
    }
}
