import Foundation
import Hummingbird
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

    /// A fake's server has served the test client's connection before the fake's body runs, so it
    /// never accepts that connection while shutting down (`serveAsFake`).
    @Test func aFakesOwnTestConnectionIsServedBeforeItsBodyRuns() async throws {
        let served = RequestCount()
        let router = Router()
        router.middlewares.add(CountingMiddleware(count: served))
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let seen = try await app.serveAsFake { _ in served.value.load(ordering: .relaxed) }
        #expect(seen == 1)
    }
}

private final class RequestCount: Sendable {
    let value = Atomic(0)
}

/// Counts the requests that reach a router, answered or not.
private struct CountingMiddleware<Context: RequestContext>: RouterMiddleware {
    let count: RequestCount

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        count.value.add(1, ordering: .relaxed)
        return try await next(request, context)
    }
}
