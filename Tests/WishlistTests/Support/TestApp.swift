import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing
@testable import WishlistCore
@testable import WishlistTemplates
@testable import WishlistWeb

/// The repository's root, found from this file, so tests read the real `Views/` and `Public/`.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh directory for one test's files, removed when the test ends: the test's suite must
/// have the `.removesTemporaryDirectories` trait, or this throws.
func temporaryDirectory() throws -> URL {
    guard let directories = TemporaryDirectories.current else {
        throw TestSetupError(description: "temporaryDirectory() needs the .removesTemporaryDirectories trait on the test's suite")
    }
    return try directories.make()
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
}

/// The temporary directories one test made.
final class TemporaryDirectories: Sendable {
    @TaskLocal static var current: TemporaryDirectories?

    private let made = Mutex<[URL]>([])

    func make() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wishlist-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        made.withLock { $0.append(url) }
        return url
    }

    /// Removes them all. A database still open in one is harmless: its files are only unlinked.
    func removeAll() {
        for url in made.withLock({ $0 }) {
            do {
                try FileManager.default.removeItem(at: url)
            } catch {
                Issue.record("could not remove the test's temporary directory \(url.path): \(error)")
            }
        }
    }
}

/// Runs each test with its own `TemporaryDirectories` and removes them when it ends, passed or failed.
struct RemovesTemporaryDirectories: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let directories = TemporaryDirectories()
        defer { directories.removeAll() }
        try await TemporaryDirectories.$current.withValue(directories) { try await function() }
    }
}

extension Trait where Self == RemovesTemporaryDirectories {
    static var removesTemporaryDirectories: Self { Self() }
}

enum TestApp {
    /// The configuration tests run with: the real templates, a temporary database, cheap Argon2
    /// parameters (the hashing tests use the real ones) and Open Library look-up off.
    static func config(_ adjust: (inout AppConfig) -> Void = { _ in }) throws -> AppConfig {
        var config = AppConfig()
        config.database.path = try temporaryDirectory().appendingPathComponent("test.sqlite").path
        config.server.viewsDirectory = repositoryRoot.appendingPathComponent("Views").path
        config.server.publicDirectory = repositoryRoot.appendingPathComponent("Public").path
        config.accounts.argon2 = .init(memoryKiB: 64, iterations: 1, parallelism: 1)
        // Nothing in a test reaches beyond this machine: the tests of look-up name a fake.
        config.openLibrary.baseURL = ""
        config.openLibrary.coversURL = "http://127.0.0.1:9"
        adjust(&config)
        return config
    }

    static func build(
        clock: WallClock = .system, _ adjust: (inout AppConfig) -> Void = { _ in }
    ) async throws -> WishlistServer {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let config = try config(adjust)
        return try await WishlistServer.build(config: config, logger: logger, clock: clock, views: try views(for: config.server))
    }

    /// The views compiled once for each kind of server the tests build (by views directory and
    /// whether en-XA is on): compiling every language's templates was most of a test server's start.
    /// A server that reloads its templates (`devMode`) compiles its own.
    static func views(for server: AppConfig.Server) throws -> CompiledViews? {
        guard !server.devMode else { return nil }
        let key = "\(server.viewsDirectory)|\(server.pseudoLanguage)"
        if let compiled = compiledViews.withLock({ $0[key] }) { return compiled }
        let compiled = try CompiledViews.compile(server)
        compiledViews.withLock { $0[key] = compiled }
        return compiled
    }

    private static let compiledViews = Mutex<[String: CompiledViews]>([:])

    /// Runs `body` against the app in-process, with a browser-like client.
    static func run<Value: Sendable>(
        _ server: WishlistServer, _ body: @Sendable (inout TestBrowser) async throws -> Value
    ) async throws -> Value {
        try await server.application.test(.router) { client in
            var browser = TestBrowser(client: client)
            return try await body(&browser)
        }
    }
}

/// A minimal browser over the test client: keeps the session cookie, knows the CSRF token of the
/// last page it saw, and sends forms URL-encoded.
struct TestBrowser {
    let client: any TestClientProtocol
    var cookieName = "wishlist_session"
    var sessionCookie: String?
    var csrfToken = ""
    /// The session cookie the CSRF token was read under; a new cookie needs a fresh token.
    var csrfTokenSession: String?
    var userAgent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36"

    @discardableResult
    mutating func get(_ path: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await send(path, method: .get, headers: headers, body: nil)
    }

    /// Posts `fields`, adding this browser's CSRF token unless the fields carry their own.
    @discardableResult
    mutating func post(_ path: String, _ fields: [(String, String)], headers: HTTPFields = [:]) async throws -> TestResponse {
        var fields = fields
        if !fields.contains(where: { $0.0 == "csrf_token" }) {
            if csrfTokenSession != sessionCookie { try await refreshCSRFToken() }
            fields.append(("csrf_token", csrfToken))
        }
        var allHeaders = headers
        allHeaders[.contentType] = "application/x-www-form-urlencoded"
        return try await send(path, method: .post, headers: allHeaders, body: ByteBuffer(string: formEncode(fields)))
    }

    mutating func send(_ path: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        if let sessionCookie, headers[.cookie] == nil { headers[.cookie] = "\(cookieName)=\(sessionCookie)" }
        if headers[.userAgent] == nil { headers[.userAgent] = userAgent }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body)
        remember(response)
        return response
    }

    /// Loads a page with a form, as a person would before posting: the sign-in page, or for a
    /// signed-in browser (which that page redirects) the settings page.
    mutating func refreshCSRFToken() async throws {
        if try await get("/login").status == .seeOther { try await get("/settings") }
    }

    private mutating func remember(_ response: TestResponse) {
        for header in response.headers[values: .setCookie] where header.hasPrefix(cookieName + "=") {
            let value = String(header.dropFirst(cookieName.count + 1).prefix { $0 != ";" })
            sessionCookie = header.contains("Max-Age=0") || value.isEmpty ? nil : value
        }
        if let token = response.text.firstMatch(of: /name="csrf_token" value="([^"]+)"/)?.1 {
            csrfToken = String(token)
            csrfTokenSession = sessionCookie
        }
    }

    /// Signs up `username` and returns the response (a 303 on success).
    @discardableResult
    mutating func signUp(_ username: String, password: String = "correct horse battery", email: String = "") async throws -> TestResponse {
        try await get("/signup")
        return try await post("/signup", [("username", username), ("email", email), ("password", password), ("password_confirm", password)])
    }

    @discardableResult
    mutating func signIn(_ username: String, password: String = "correct horse battery", next: String = "") async throws -> TestResponse {
        try await get("/login")
        return try await post("/login", [("username", username), ("password", password), ("next", next)])
    }
}

func formEncode(_ fields: [(String, String)]) -> String {
    let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return fields.map { name, value in
        "\(name.addingPercentEncoding(withAllowedCharacters: allowed)!)=\(value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
    }.joined(separator: "&")
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// Whether the page shows `sentence`, which the templates HTML-escape (`'` is `&#39;`).
    func shows(_ sentence: String) -> Bool {
        text.contains(sentence.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&#39;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;"))
    }
    var location: String? { headers[.location] }
}
