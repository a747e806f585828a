import CivilTime
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import WishlistCore
import WishlistTemplates

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

    /// Opens and migrates the database, compiles the templates (a template error stops here,
    /// naming file, line and column) and assembles the routes. Tests may move `clock`, and give the
    /// NYT's and the provider's clients `httpLimits`, and look-up a longer `lookUpTimeoutSeconds`.
    public static func build(
        config: AppConfig, logger: Logger, clock: WallClock = .system,
        httpLimits: CurlHTTPClient.Limits = .init(), lookUpTimeoutSeconds: Int = OpenLibraryClient.defaultTimeoutSeconds
    ) async throws -> WishlistServer {
        let database = try AppDatabase.open(path: config.database.path)
        let catalogSync = CatalogSync.make(config: config, database: database, logger: logger, clock: clock, httpLimits: httpLimits)
        if try await catalogSync.secondsUntilDue() == 0, catalogSync.servesSample {
            // The sample loads in milliseconds; pages have lists from the first request.
            _ = await catalogSync.refresh()
        }
        await catalogSync.loadStatusLine()
        let templates = try TemplateLibrary(
            directory: URL(fileURLWithPath: config.server.viewsDirectory, isDirectory: true),
            reloadOnChange: config.server.devMode
        )
        let hasher = try PasswordHasher(
            parameters: config.accounts.argon2,
            maxConcurrent: config.accounts.maxConcurrentHashes,
            maxWaiting: config.accounts.maxWaitingHashes
        )
        let accounts = AccountService(database: database, hasher: hasher, settings: config.accounts, clock: clock)
        try await accounts.calibratePasswordChecks()
        let csrf = try await CSRFProtection.load(from: database)
        let cookies = SessionCookies(secure: config.server.secureCookies)
        // Without password sign-in, nobody signs up with a password either (`accounts.passwordSignIn`).
        let passwordSignup = config.accounts.passwordSignIn ? config.accounts.signup : .closed
        let signupOpen = passwordSignup == .open
        let staticFiles = StaticFiles(directory: config.server.publicDirectory, reload: config.server.devMode)
        let pages = PageRenderer(
            templates: templates, signupOpen: signupOpen,
            notices: SiteNotices(showsSampleData: config.nyt.apiKey.isEmpty, statusLine: { catalogSync.currentStatusLine }),
            assets: staticFiles
        )

        let mail = try MailParts(config: config, database: database, clock: clock, logger: logger)
        let metrics = MetricsRegistry()
        let addressing = ClientAddressing(trustedProxies: config.server.trustedProxies, believed: config.server.forwardedHeader)
        let pageCaches = PageCaches(metrics: config.metrics.enabled ? metrics : nil)
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: AccessLogMiddleware())
        if config.metrics.enabled {
            router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        }
        router.add(middleware: SecurityHeadersMiddleware(behindHTTPS: config.server.secureCookies, files: staticFiles))
        // Outside the error pages, so that they are compressed too; static files come compressed.
        router.add(middleware: CompressionMiddleware(sharedPart: { staticFiles.current.stylesheet?.deflated }))
        router.add(middleware: ErrorPageMiddleware(pages: pages))
        router.add(middleware: BodyLimitMiddleware())
        router.add(middleware: StaticFilesMiddleware(files: staticFiles))
        let catalog = CatalogStore(database: database)
        let wishlist = WishlistStore(database: database)
        let wishLists = WishListStore(database: database)
        let household = HouseholdStore(database: database)
        let reading = ReadingStore(database: database)
        let invites = Invites(database: database, clock: clock)
        let shareLinks = SecretLinkStore(database: database, kind: .share)
        let feedLinks = SecretLinkStore(database: database, kind: .feed)
        let authors = AuthorStore(database: database)
        let catalogPages = CatalogController(
            database: database, catalog: catalog, pages: pages, clock: clock, wishlist: wishlist, authors: authors, pageCaches: pageCaches,
            secureCookies: config.server.secureCookies, links: config.books.linkTemplates
        )
        // What an import cut short by a stopped process left is taken away before anyone sees more of it.
        let importer = GoodreadsImporter(database: database)
        try await importer.rollBackUnfinished()
        let wishlistPages = WishlistController(
            database: database, wishlist: wishlist, lists: wishLists, reading: reading, importer: importer, catalog: catalog, pages: pages, clock: clock,
            pageCaches: pageCaches, secureCookies: config.server.secureCookies
        )
        let householdPages = HouseholdController(
            database: database, household: household, catalog: catalog, pages: pages, clock: clock,
            timeZone: try ZoneRules.load(named: config.server.timeZone), pageCaches: pageCaches,
            secureCookies: config.server.secureCookies, links: config.books.linkTemplates
        )
        // Filled as the pages' routes are added below, each with its loader (PageLoaders).
        let pageLoaders = PageLoaders()
        let memo = PageReadMemo(changes: database.changes, statusLine: pages.notices.statusLine, metrics: config.metrics.enabled ? metrics : nil)
        router.add(middleware: SessionMiddleware(
            sessions: accounts.sessions, cookies: cookies, csrf: csrf, pageLoaders: pageLoaders, memo: memo
        ))
        let sessionMaxAge = config.accounts.sessionAbsoluteDays * 86_400
        if let header = HTTPField.Name(config.accounts.trustedHeader) {
            router.add(middleware: TrustedHeaderMiddleware(
                header: header, trustedProxies: config.server.trustedProxies, accounts: accounts, cookies: cookies, csrf: csrf,
                sessionMaxAge: sessionMaxAge, signup: config.accounts.signup != .closed
            ))
        }
        router.add(middleware: FlashMiddleware(wishlist: wishlist, household: household, reading: reading, secure: config.server.secureCookies))
        // Again inside the session, so error pages show the signed-in navigation.
        router.add(middleware: ErrorPageMiddleware(pages: pages))
        router.add(middleware: CSRFMiddleware(csrf: csrf))

        // The pages people spend their time on first: Hummingbird's router tries a path's first
        // component against each registered one in the order they were added.
        let signedIn = router.group().add(middleware: RequireSignInMiddleware())
        catalogPages.addRoutes(to: signedIn, loaders: pageLoaders)
        wishlistPages.addRoutes(to: signedIn, loaders: pageLoaders)
        WishListsController(lists: wishLists, pages: pages, clock: clock, secureCookies: config.server.secureCookies).addRoutes(to: signedIn)
        householdPages.addRoutes(to: signedIn, loaders: pageLoaders)
        AuthorsController(database: database, authors: authors, pages: pages, clock: clock).addRoutes(to: signedIn, loaders: pageLoaders)
        IdeasController(
            database: database, household: household, catalog: catalog, pages: pages, clock: clock, secureCookies: config.server.secureCookies
        ).addRoutes(to: signedIn)
        ReadingController(
            database: database, reading: reading, catalog: catalog, wishlist: wishlist, pages: pages, clock: clock,
            secureCookies: config.server.secureCookies
        ).addRoutes(to: signedIn, loaders: pageLoaders)
        let pictures = try PictureProcessor()
        ProfileController(
            profiles: ProfileStore(database: database), reading: reading, pictures: pictures, pages: pages, clock: clock, logger: logger
        ).addRoutes(to: signedIn)
        let covers = CoverStore(database: database)
        let coverFetcher = CoverFetcher(
            store: covers,
            cache: try CoverCache(
                directory: CoverCache.directory(besideDatabase: config.database.path), capacityBytes: config.covers.cacheMegabytes * 1_048_576
            ),
            pictures: pictures,
            // Covers come from URLs a catalog or a book record names: public addresses only, and
            // the services this configuration names by address.
            reachable: .publicAnd(servicesAt: [config.openLibrary.coversURL, config.openLibrary.baseURL, config.nyt.baseURL]),
            clock: clock, logger: logger
        )
        AddBookController(
            added: AddedBookStore(database: database), catalog: catalog, wishlist: wishlist,
            openLibrary: OpenLibraryClient(
                baseURL: config.openLibrary.baseURL, coversURL: config.openLibrary.coversURL, timeoutSeconds: lookUpTimeoutSeconds
            ),
            covers: covers, fetcher: coverFetcher,
            // Photos of barcodes decode on a pool of their own, one at a time, two waiting.
            barcodes: BookBarcodeReader(pictures: try PictureProcessor(threads: 1, maxWaiting: 2)),
            pages: pages, clock: clock, logger: logger, secureCookies: config.server.secureCookies
        ).addRoutes(to: signedIn)
        CoversController(
            store: covers, cache: coverFetcher.cache, fetcher: coverFetcher, publicDirectory: config.server.publicDirectory
        ).addRoutes(to: router)
        SystemController(database: database, catalog: catalog).addRoutes(to: router)
        if config.metrics.enabled {
            let gauges = ServerGauges(database: database, databasePath: config.database.path, hasher: hasher, clock: clock)
            MetricsController(
                metrics: metrics, gauges: gauges, pageCaches: pageCaches, allowFrom: config.metrics.allowFrom, addressing: addressing
            ).addRoutes(to: router)
        }
        ShareLinkController(shareLinks: shareLinks, wishlist: wishlist, lists: wishLists, pages: pages).addRoutes(to: router)
        FeedController(feedLinks: feedLinks, catalog: catalog, authors: authors, publicOrigin: config.server.publicOrigin).addRoutes(to: router)
        CalendarController(feedLinks: feedLinks, database: database, clock: clock, publicOrigin: config.server.publicOrigin).addRoutes(to: router)
        PasswordResetController(accounts: accounts, pages: pages).addRoutes(to: router)
        AccountsController(
            accounts: accounts, pages: pages, cookies: cookies, metrics: metrics, signup: passwordSignup,
            invites: invites,
            sessionMaxAge: sessionMaxAge, addressing: addressing, accountMail: mail?.accountMail, passwordSignIn: config.accounts.passwordSignIn,
            singleSignOnLabel: config.accounts.oidc.isOn ? config.accounts.oidc.buttonLabel : nil,
            singleSignOnSignup: config.accounts.oidc.isOn ? config.accounts.singleSignOnSignup : .closed
        ).addRoutes(to: router)
        if let mail {
            MailController(
                accountMail: mail.accountMail, unsubscribeLinks: mail.unsubscribeLinks, pages: pages, metrics: metrics, addressing: addressing
            ).addRoutes(to: router)
        }
        let identities = SignInIdentities(database: database, clock: clock)
        let signInAttempts = SignInAttempts(database: database, clock: clock)
        var singleSignOn: SingleSignOnController?
        if config.accounts.oidc.isOn {
            singleSignOn = SingleSignOnController(
                provider: OpenIDProvider(settings: config.accounts.oidc, publicOrigin: config.server.publicOrigin, clock: clock, limits: httpLimits),
                attempts: signInAttempts, identities: identities, accounts: accounts, cookies: cookies, sessionMaxAge: sessionMaxAge,
                metrics: metrics, logger: logger, addressing: addressing, passwordSignIn: config.accounts.passwordSignIn,
                signup: config.accounts.singleSignOnSignup, invites: invites
            )
            singleSignOn?.addRoutes(public: router, signedIn: signedIn)
        }

        let relyingParty = RelyingParty(publicURL: config.server.effectivePublicURL, database: database, clock: clock)
        PasskeyController(
            relyingParty: relyingParty, accounts: accounts, cookies: cookies,
            sessionMaxAge: config.accounts.sessionAbsoluteDays * 86_400, metrics: metrics, addressing: addressing
        ).addRoutes(public: router, signedIn: signedIn)
        SettingsController(
            accounts: accounts, catalog: catalog, authors: authors, household: household, shareLinks: shareLinks, feedLinks: feedLinks,
            passkeys: relyingParty.store, exports: MemberDataExport(database: database, sessions: accounts.sessions), pages: pages,
            cookies: cookies, clock: clock, publicOrigin: config.server.publicOrigin, accountMail: mail?.accountMail,
            singleSignOn: singleSignOn
        ).addRoutes(to: signedIn)
        AdminController(
            administration: Administration(database: database, clock: clock), accounts: accounts, invites: invites,
            database: database, databasePath: config.database.path, signup: config.accounts.signup, pages: pages, clock: clock,
            publicOrigin: config.server.publicOrigin, accountMail: mail?.accountMail, outbox: mail?.outbox
        ).addRoutes(to: signedIn)

        var services: [any Service] = [
            CatalogRefreshService(sync: catalogSync, logger: logger, metrics: metrics),
            coverFetcher,
            ExpiredRowsPurge(
                purges: [accounts.deleteExpiredRows, catalogSync.limiter.deleteExpired, signInAttempts.deleteExpired] + (mail?.purges ?? []),
                interval: .seconds(3600), logger: logger
            ),
        ]
        if let mail { services += [mail.sender, mail.digests] }
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
            services: services,
            logger: logger
        )
        return WishlistServer(
            config: config, database: database, accounts: accounts, catalogSync: catalogSync, application: application, pageCaches: pageCaches,
            pageLoaders: pageLoaders, coverFetcher: coverFetcher, mailSender: mail?.sender
        )
    }
}

/// What sending mail takes, made only when `mail.smtpURL` is set.
struct MailParts {
    let outbox: MailOutbox
    let sender: MailSender
    let accountMail: AccountMail
    let digests: DigestService
    let unsubscribeLinks: UnsubscribeLinks
    let purges: [@Sendable () async throws -> Int]

    init?(config: AppConfig, database: AppDatabase, clock: WallClock, logger: Logger) throws {
        guard config.mail.isEnabled, let from = config.mail.sender else { return nil }
        let outboxKey = try OutboxKey.load(besideDatabase: config.database.path)
        outbox = MailOutbox(database: database, clock: clock, key: outboxKey)
        let sender = MailSender(
            outbox: outbox, client: SMTPClient(settings: config.mail), sender: from, clock: clock, logger: logger
        )
        self.sender = sender
        let mailer = Mailer(sender: from, publicOrigin: config.server.publicOrigin, clock: clock, outboxKey: outboxKey) { sender.nudge() }
        accountMail = AccountMail(database: database, mailer: mailer, accountSettings: config.accounts, clock: clock, logger: logger)
        digests = DigestService(
            database: database, mailer: mailer, timeZone: try ZoneRules.load(named: config.server.timeZone), clock: clock, logger: logger
        )
        let unsubscribeLinks = UnsubscribeLinks(database: database)
        self.unsubscribeLinks = unsubscribeLinks
        let outbox = self.outbox
        purges = [outbox.deleteExpired, { try await unsubscribeLinks.deleteExpired(now: clock.now()) }]
    }
}
