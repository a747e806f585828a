import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

@Suite("The libcurl client and the NYT source's errors")
struct CurlHTTPClientTests {
    @Test func anOptionLibcurlRefusesStopsTheRequestAndIsNamed() async throws {
        var limits = CurlHTTPClient.Limits()
        limits.connectTimeoutSeconds = -1
        let error = await #expect(throws: CurlHTTPClient.Failure.self) {
            try await CurlHTTPClient(limits: limits).get("http://127.0.0.1:9/")
        }
        guard case .refusedOption(let name, let reason) = error else {
            Issue.record("expected a refused option, got \(String(describing: error))")
            return
        }
        #expect(name == "CONNECTTIMEOUT")
        #expect(!reason.isEmpty)
    }

    @Test func cancellingTheTaskAbortsATransferThatNeverFinishes() async throws {
        let fake = FakeNYTServer(clock: .system)
        fake.fail(with: .neverFinishes)
        try await fake.run { (baseURL: String) async throws -> Void in
            // The default 30-second timeout: only the abort ends the transfer with this error.
            let transfer = Task { try await CurlHTTPClient().get("\(baseURL)/lists/names.json?api-key=\(FakeNYTServer.apiKey)") }
            await fake.waitForRequests(1)
            transfer.cancel()
            await #expect(throws: CancellationError.self) { try await transfer.value }
        }
    }

    @Test func theTimeoutCountsFromTheCallSoTransfersQueuedBehindASlowOneEndWithIt() async throws {
        let fake = FakeNYTServer(clock: .system)
        fake.fail(with: .neverFinishes)
        try await fake.run { (baseURL: String) async throws -> Void in
            let timeout = 2
            let transfers = 10
            let limits = CurlHTTPClient.Limits(connectTimeoutSeconds: timeout, totalTimeoutSeconds: timeout, maximumBodyBytes: 1024, maximumRedirects: 0)
            let client = CurlHTTPClient(limits: limits, threads: 1)
            let url = "\(baseURL)/lists/names.json?api-key=\(FakeNYTServer.apiKey)"
            let started = ContinuousClock.now
            let failures = await withTaskGroup(of: CurlHTTPClient.Failure?.self) { group in
                for _ in 0..<transfers { group.addTask { await Self.failure(of: url, client) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let waited = ContinuousClock.now - started
            // One thread, ten transfers that never finish, asked for at once: the first uses the
            // whole timeout, and those queued behind it end with it (unsent, or sent with what
            // their own deadline still had when the thread came free). A timeout of its own for
            // each would take ten timeouts at the least: libcurl never ends a transfer before its
            // timeout, however idle or busy the machine. So the bound below is that least, not a
            // measurement: a loaded machine makes the right client slower by its late starts,
            // nowhere near nine timeouts, and the wrong one only slower still.
            #expect(failures.allSatisfy { if case .timedOut = $0 { true } else { false } }, "\(failures)")
            #expect(waited < .seconds(timeout * transfers), "\(transfers) queued transfers took \(waited)")
        }
    }

    /// Schemes libcurl here would otherwise speak (`curl-config --protocols`), each pointed at a
    /// port that counts connections: the option must stop the request before any is made.
    static let otherSchemes = ["ftp", "ftps", "dict", "gopher", "telnet", "imap", "pop3", "smtp", "ldap", "mqtt", "rtsp", "scp", "sftp", "smb"]

    @Test func onlyHTTPAndHTTPSAreSpokenWhateverTheURLSays() async throws {
        let client = CurlHTTPClient(limits: Self.quickLimits(maximumRedirects: 0))
        // This very file: without the option libcurl reads it and answers 0 with its bytes.
        let file = await Self.failure(of: "file://\(#filePath)", client)
        #expect(Self.isUnsupportedProtocol(file), "file://: \(String(describing: file))")

        try await ConnectionCounter.run { port, connections in
            for scheme in Self.otherSchemes {
                let failure = await Self.failure(of: "\(scheme)://127.0.0.1:\(port)/x", client)
                #expect(Self.isUnsupportedProtocol(failure), "\(scheme)://: \(String(describing: failure))")
            }
            #expect(connections() == 0, "libcurl connected to the port for another protocol")
        }
    }

    @Test func aRedirectIsFollowedOverHTTPOnly() async throws {
        try await ConnectionCounter.run { port, connections in
            let router = Router()
            router.get("to-ftp") { _, _ in Response(status: .found, headers: [.location: "ftp://127.0.0.1:\(port)/x"]) }
            router.get("to-dict") { _, _ in Response(status: .found, headers: [.location: "dict://127.0.0.1:\(port)/d:word"]) }
            router.get("to-file") { _, _ in Response(status: .found, headers: [.location: "file://\(#filePath)"]) }
            router.get("to-http") { _, _ in Response(status: .found, headers: [.location: "/landed"]) }
            router.get("landed") { _, _ in "landed" }
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.serveAsFake { port in
                let base = "http://127.0.0.1:\(port)"
                // The NYT's client (no redirects, the default) follows none: its answer is the 302 itself.
                let nyt = try await CurlHTTPClient(limits: Self.quickLimits(maximumRedirects: 0)).get("\(base)/to-http")
                #expect(nyt.status == 302)
                let client = CurlHTTPClient(limits: Self.quickLimits(maximumRedirects: 3))
                // Open Library's client follows them, so the refusals below are the protocol's, not the redirect's.
                let landed = try await client.get("\(base)/to-http")
                #expect(landed.status == 200 && landed.body == Array("landed".utf8))
                for path in ["to-ftp", "to-dict", "to-file"] {
                    let failure = await Self.failure(of: "\(base)/\(path)", client)
                    #expect(Self.isUnsupportedProtocol(failure), "\(path): \(String(describing: failure))")
                }
            }
            // libcurl's own default refuses file:// after a redirect, but would follow ftp:// and dict://.
            #expect(connections() == 0, "a redirect took libcurl to the port for another protocol")
        }
    }

    /// Limits that end a protocol wrongly spoken (when the guard is flipped) in half a minute, yet
    /// leave the test's own server time to answer on a machine busy with the rest of the suite.
    static func quickLimits(maximumRedirects: Int) -> CurlHTTPClient.Limits {
        CurlHTTPClient.Limits(connectTimeoutSeconds: 10, totalTimeoutSeconds: 30, maximumBodyBytes: 1024 * 1024, maximumRedirects: maximumRedirects)
    }

    /// How getting `url` failed; nil, with what came back instead, when it did not.
    static func failure(of url: String, _ client: CurlHTTPClient) async -> CurlHTTPClient.Failure? {
        do {
            let response = try await client.get(url)
            Issue.record("\(url) answered \(response.status) with \(response.body.count) bytes")
        } catch let failure as CurlHTTPClient.Failure {
            return failure
        } catch {
            Issue.record("\(url): \(error)")
        }
        return nil
    }

    /// libcurl's CURLE_UNSUPPORTED_PROTOCOL (1), which the protocol option gives a scheme it left out.
    static func isUnsupportedProtocol(_ failure: CurlHTTPClient.Failure?) -> Bool {
        guard case .transport(let message) = failure else { return false }
        return message.hasSuffix("(curl error 1)")
    }

    @Test func theKeyIsMaskedInWhateverAFailureQuotes() {
        let source = NYTAPISource(client: CurlHTTPClient(), baseURL: "http://127.0.0.1:9", apiKey: "k/ey")
        #expect(source.withoutKey("GET /lists?api-key=k%2Fey failed; the key k/ey") == "GET /lists?api-key=[api key] failed; the key [api key]")
    }
}

/// A loopback port that counts the connections made to it and closes each at once, for a URL of
/// another protocol to point at: a count of 0 means libcurl never tried to speak it.
private enum ConnectionCounter {
    private final class Count: Sendable {
        let value = Atomic(0)
    }

    static func run(_ body: (_ port: Int, _ connections: @Sendable () -> Int) async throws -> Void) async throws {
        let count = Count()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                count.value.add(1, ordering: .relaxed)
                return channel.close()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        do {
            try await body(listener.localAddress!.port!) { count.value.load(ordering: .relaxed) }
        } catch {
            try? await listener.close()
            throw error
        }
        try await listener.close()
    }
}
