import Hummingbird
import HummingbirdTesting

extension ApplicationProtocol {
    /// Serves this application on a loopback port for as long as `body` runs, as a fake
    /// counterpart that the code under test reaches over real HTTP.
    ///
    /// HummingbirdTesting's live client opens a connection as the server starts, and a fake's
    /// body never uses it, so the server could accept it only as it shuts down: a connection
    /// accepted while the server closes traps in SwiftNIO ("Deinited NIOAsyncWriter without
    /// calling finish()", apple/swift-nio#3481), which ended a CI run's unit stage. One request
    /// over that connection first makes sure it was accepted and served while the server runs.
    func serveAsFake<Value: Sendable>(_ body: @Sendable (_ port: Int) async throws -> Value) async throws -> Value {
        try await test(.live) { client in
            _ = try await client.execute(uri: "/", method: .head)
            return try await body(client.port!)
        }
    }
}
