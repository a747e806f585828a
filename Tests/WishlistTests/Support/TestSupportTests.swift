import Foundation
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("The tests' own support: temporary directories and fixtures")
struct TestSupportTests {
    @Test func aTestsTemporaryDirectoriesAreGoneWhenItEnds() async throws {
        let made = Mutex<URL?>(nil)
        let test = try #require(Test.current)
        try await RemovesTemporaryDirectories().provideScope(for: test, testCase: Test.Case.current) {
            let server = try await TestApp.build()
            let health = try await TestApp.run(server) { browser in try await browser.get("/healthz").status }
            #expect(health == .ok)
            let directory = URL(fileURLWithPath: server.config.database.path).deletingLastPathComponent()
            #expect(FileManager.default.fileExists(atPath: directory.path))
            made.withLock { $0 = directory }
        }
        let directory = try #require(made.withLock { $0 })
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func aTemporaryDirectoryOutsideTheTraitIsAnErrorNotALeak() {
        #expect(throws: TestSetupError.self) { try temporaryDirectory() }
    }

    @Test func aMissingFixtureIsAnErrorThatSaysWhereItWasLookedFor() throws {
        let error = #expect(throws: TestSetupError.self) { try Fixtures.data("no-such-fixture.json") }
        #expect(error?.description.contains(Fixtures.directory.appendingPathComponent("no-such-fixture.json").path) == true)
    }
}
