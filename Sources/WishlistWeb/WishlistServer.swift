import Hummingbird
import HummingbirdCore
import Logging
import WishlistCore

/// The whole application, built in one place from a configuration. `wishlist serve` runs it;
/// tests build it the same way, so the app under test is the app.
public struct WishlistServer: Sendable {
    public let config: AppConfig
    public let database: AppDatabase
    public let accounts: AccountService
    public let catalogSync: CatalogSync
    public let application: Application<RouterResponder<AppRequestContext>>
    /// The pages rendered once and filled per request.
    let pageCaches: PageCaches
    /// The pages read with the session.
    let pageLoaders: PageLoaders
    /// The job that fetches covers, a service of the application's.
    let coverFetcher: CoverFetcher
    /// The job that sends the outbox's mail, when mail is on.
    let mailSender: MailSender?
    /// What the router was given, as `GET /lists/{list}`: the route table's (`RouteTableTests`).
    let registeredRoutes: [String]

    /// Opens and migrates the database, compiles the templates (a template error stops here,
    /// naming file, line and column) and assembles the routes. Tests may move `clock`, and give the
    /// NYT's and the provider's clients `httpLimits`, look-up a longer `lookUpTimeoutSeconds`, and
    /// the server `views` they compiled once from the same `config.server`.
    public static func build(
        config: AppConfig, logger: Logger, clock: WallClock = .system,
        httpLimits: CurlHTTPClient.Limits = .init(), lookUpTimeoutSeconds: Int = OpenLibraryClient.defaultTimeoutSeconds,
        views: CompiledViews? = nil
    ) async throws -> WishlistServer {
        // The templates compile while the database opens, the sample catalog loads and the hasher
        // measures itself: the start's largest parts, on every core at once.
        let compiling = Task { () throws -> CompiledViews in
            if let views { return views }
            return try await CompiledViews.compiledAside(config.server)
        }
        let database = try AppDatabase.open(path: config.database.path)
        let catalogSync = try await startCatalog(config: config, database: database, logger: logger, clock: clock, httpLimits: httpLimits)
        let hasher = try PasswordHasher(
            parameters: config.accounts.argon2,
            maxConcurrent: config.accounts.maxConcurrentHashes,
            maxWaiting: config.accounts.maxWaitingHashes
        )
        let accounts = AccountService(database: database, hasher: hasher, settings: config.accounts, clock: clock)
        try await accounts.calibratePasswordChecks()
        let views = try await compiling.value
        let parts = try await ServerParts(
            config: config, database: database, catalogSync: catalogSync, hasher: hasher, accounts: accounts, logger: logger,
            clock: clock, httpLimits: httpLimits, lookUpTimeoutSeconds: lookUpTimeoutSeconds, views: views
        )
        let router = Router(context: AppRequestContext.self)
        parts.addMiddleware(to: router)
        let signedIn = router.group().add(middleware: RequireSignInMiddleware())
        parts.addRoutes(public: router, signedIn: signedIn)
        let application = Application(
            router: router,
            // Each connection's requests are handled on its event loop (`LoopBoundChannel`). The idle
            // timeout also closes a connection that stalls halfway through a request.
            server: HTTPServerBuilder { responder in
                LoopBoundChannel(base: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: .seconds(Int64(config.server.idleTimeoutSeconds)))))
            },
            configuration: .init(
                address: .hostname(config.server.host, port: config.server.port), serverName: nil,
                availableConnectionsDelegate: ConnectionLimit(maximum: config.server.maxConnections, logger: logger)
            ),
            services: parts.services(),
            logger: logger
        )
        return WishlistServer(
            config: config, database: database, accounts: accounts, catalogSync: catalogSync, application: application,
            pageCaches: parts.pageCaches, pageLoaders: parts.pageLoaders, coverFetcher: parts.coverFetcher, mailSender: parts.mail?.sender,
            registeredRoutes: router.routes.map(\.description)
        )
    }

    /// The catalog's refresh, ready: the sample, when it serves, loaded so that pages have lists
    /// from the first request, and the status line the pages show read.
    private static func startCatalog(
        config: AppConfig, database: AppDatabase, logger: Logger, clock: WallClock, httpLimits: CurlHTTPClient.Limits
    ) async throws -> CatalogSync {
        let catalogSync = CatalogSync.make(config: config, database: database, logger: logger, clock: clock, httpLimits: httpLimits)
        if try await catalogSync.secondsUntilDue() == 0, catalogSync.servesSample {
            // The sample loads in milliseconds.
            _ = await catalogSync.refresh()
        }
        await catalogSync.loadStatusLine()
        return catalogSync
    }
}
