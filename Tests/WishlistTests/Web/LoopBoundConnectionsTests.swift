import Dispatch
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOPosix
import Testing
@testable import WishlistWeb

@Suite("A connection's requests are handled on its event loop")
struct LoopBoundConnectionsTests {
    /// Whether the handler ran on an event loop before and after it waited on another thread
    /// (as a database read does): "true true" with the connection bound to its loop.
    static func application(bound: Bool) -> some ApplicationProtocol {
        let router = Router()
        router.get("where") { _, _ -> String in
            let before = MultiThreadedEventLoopGroup.currentEventLoop != nil
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { resumed.resume() }
            }
            let after = MultiThreadedEventLoopGroup.currentEventLoop != nil
            return "\(before) \(after)"
        }
        let server: HTTPServerBuilder = bound
            ? HTTPServerBuilder { LoopBoundChannel(base: HTTP1Channel(responder: $0)) }
            : .http1()
        return Application(router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                           logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    @Test("bound, the handler runs on the loop, and comes back to it after a wait elsewhere; Hummingbird's own connections run it off the loop")
    func handlersRunOnTheConnectionsLoop() async throws {
        for (bound, expected) in [(true, "true true"), (false, "false false")] {
            try await Self.application(bound: bound).test(.live) { client in
                for _ in 0..<3 {
                    let response = try await client.execute(uri: "/where", method: .get)
                    #expect(String(buffer: response.body) == expected, "bound: \(bound)")
                }
            }
        }
    }
}
