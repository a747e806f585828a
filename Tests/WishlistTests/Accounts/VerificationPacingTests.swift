import Foundation
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

/// Password checks all take as long as the dearest parameter set in use, so an account whose hash
/// predates a parameter change answers a wrong password no faster or slower than an unknown name.
@Suite("Pacing of password checks across Argon2 parameter changes", .removesTemporaryDirectories)
struct VerificationPacingTests {
    /// A monotonic clock that reads the scripted instants in order and records every wait.
    final class ScriptedClock: Sendable {
        private let state: Mutex<(readings: [Duration], waits: [Duration])>

        init(readingsInMilliseconds: [Int]) {
            state = Mutex((readingsInMilliseconds.map { .milliseconds($0) }, []))
        }

        var clock: VerificationPacing.Clock {
            VerificationPacing.Clock(
                now: { self.state.withLock { $0.readings.removeFirst() } },
                wait: { duration in self.state.withLock { $0.waits.append(duration) } }
            )
        }

        var waits: [Duration] { state.withLock { $0.waits } }
    }

    static let current = AppConfig.Argon2(memoryKiB: 128, iterations: 1, parallelism: 1)
    static let older = AppConfig.Argon2(memoryKiB: 64, iterations: 1, parallelism: 1)

    static func hash(_ password: String, with parameters: AppConfig.Argon2) async throws -> String {
        try await PasswordHasher(parameters: parameters, maxConcurrent: 1, maxWaiting: 1).hash(password)
    }

    @Test func aCheckAgainstAnOlderCheaperHashWaitsUpToTheCurrentCost() async throws {
        // Making the dummy hash took 50 ms; the old hash checks in 10 ms, so it waits 40 ms.
        let script = ScriptedClock(readingsInMilliseconds: [0, 50, 100, 110, 200, 250])
        let hasher = try PasswordHasher(parameters: Self.current, maxConcurrent: 1, maxWaiting: 1, pacingClock: script.clock)
        let stored = try await Self.hash("right password", with: Self.older)
        #expect(try await !hasher.verify("wrong password", against: stored))
        #expect(script.waits == [.milliseconds(40)])
        // An unknown user's check already costs the current parameters' 50 ms: no wait.
        #expect(try await !hasher.verify("wrong password", against: nil))
        #expect(script.waits == [.milliseconds(40)])
    }

    @Test func afterCalibratingAnOlderDearerSetUnknownUsersWaitUpToIt() async throws {
        // The dummy hash: 20 ms; the stored parameter set, calibrated: 90 ms; then an unknown user: 20 ms.
        let script = ScriptedClock(readingsInMilliseconds: [0, 20, 100, 190, 300, 320])
        let cheaper = AppConfig.Argon2(memoryKiB: 64, iterations: 1, parallelism: 1)
        let hasher = try PasswordHasher(parameters: cheaper, maxConcurrent: 1, maxWaiting: 1, pacingClock: script.clock)
        try await hasher.calibrate(storedParameterSets: ["m=128,t=2,p=1", "m=64,t=1,p=1", "not parameters"])
        #expect(try await !hasher.verify("anything", against: nil))
        #expect(script.waits == [.milliseconds(70)])
    }

    @Test func theStoredParameterSetsAreReadFromTheUserTable() async throws {
        let server = try await TestApp.build()
        for name in ["early", "later"] {
            _ = try await server.accounts.createUser(username: name, password: "correct horse battery")
        }
        let newer = try await Self.hash("x", with: Self.current)
        try await server.database.pool.write { db in
            try db.execute(sql: "UPDATE user SET password_hash = ? WHERE username = 'early'", arguments: [newer])
        }
        let sets = try await server.accounts.users.passwordParameterSets()
        #expect(Set(sets) == ["m=64,t=1,p=1", "m=128,t=1,p=1"])
    }

    @Test("parameter fields of PHC strings are read strictly", arguments: [
        ("m=19456,t=2,p=1", AppConfig.Argon2(memoryKiB: 19456, iterations: 2, parallelism: 1)),
        ("t=2,m=64,p=4", AppConfig.Argon2(memoryKiB: 64, iterations: 2, parallelism: 4)),
        ("m=64,t=1", nil), ("m=64,t=0,p=1", nil), ("m=x,t=1,p=1", nil), ("m=64,t=1,p=1,k=2", nil), ("", nil),
    ])
    func parameterSets(text: String, expected: AppConfig.Argon2?) {
        #expect(AppConfig.Argon2(parameterSet: text) == expected)
    }

    @Test func theParameterSetOfAPHCString() async throws {
        let stored = try await Self.hash("password", with: Self.older)
        #expect(PasswordHasher.parameterSet(of: stored) == "m=64,t=1,p=1")
        #expect(PasswordHasher.parameterSet(of: "garbage") == "")
    }
}
