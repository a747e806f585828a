import Dispatch
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("Argon2id password hashing")
struct PasswordHasherTests {
    static let cheap = AppConfig.Argon2(memoryKiB: 64, iterations: 1, parallelism: 1)

    @Test func hashesVerifyAndSaltsDiffer() async throws {
        let hasher = try PasswordHasher(parameters: Self.cheap, maxConcurrent: 1, maxWaiting: 4)
        let first = try await hasher.hash("pässwörd 😀")
        let second = try await hasher.hash("pässwörd 😀")
        #expect(first != second, "a fresh salt each time")
        #expect(first.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"))
        #expect(try await hasher.verify("pässwörd 😀", against: first))
        #expect(try await !hasher.verify("pässwörd 😀 ", against: first))
        #expect(try await !hasher.verify("anything", against: nil), "no stored hash never verifies")
    }

    @Test func knowsWhenAHashNeedsUpgrading() async throws {
        let old = try PasswordHasher(parameters: Self.cheap, maxConcurrent: 1, maxWaiting: 1)
        let stored = try await old.hash("password")
        let current = try PasswordHasher(parameters: .init(memoryKiB: 128, iterations: 1, parallelism: 1), maxConcurrent: 1, maxWaiting: 1)
        #expect(current.needsRehash(stored))
        #expect(!old.needsRehash(stored))
        #expect(try await current.verify("password", against: stored), "old hashes still verify")
    }

    @Test func overTheBoundCallersAreTurnedAwayNotQueued() async throws {
        let hasher = try PasswordHasher(parameters: Self.cheap, maxConcurrent: 1, maxWaiting: 1)
        // One job running and one waiting fill the hasher; they hold until the gate opens.
        let gate = DispatchSemaphore(value: 0)
        let holders = (0..<2).map { _ in Task { try await hasher.run { gate.wait() } } }
        while hasher.admittedCount < 2 { await Task.yield() }
        await #expect(throws: PasswordHasher.Busy.self) { try await hasher.hash("password") }
        gate.signal()
        gate.signal()
        for holder in holders { try await holder.value }
        #expect(try await hasher.hash("password").hasPrefix("$argon2id$"), "free again once the jobs finished")
    }
}
